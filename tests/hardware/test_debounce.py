import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInputError
from hardware.debounce import Debouncer

B, H = 0.02, 0.8


def kinds(decisions):
    return [d.kind for d in decisions]


def test_clean_press_is_decided_after_the_release_settles():
    d = Debouncer(B, H)
    assert d.edge(True, 1.0) == []
    assert d.poll(1.019) == [] and not d.pressed
    assert d.poll(1.021) == [] and d.pressed
    assert d.edge(False, 1.15) == []
    assert d.poll(1.16) == []
    out = d.poll(1.2)
    assert kinds(out) == ["press"]
    assert out[0].t == pytest.approx(1.17) and out[0].pressed_at == 1.0
    assert out[0].duration == pytest.approx(0.15)


def test_bouncing_contacts_give_one_press():
    d = Debouncer(B, H)
    out = []
    for i, level in enumerate([True, False, True, False, True]):
        out += d.edge(level, 2.0 + i * 0.001)
    for i, level in enumerate([False, True, False, True, False]):
        out += d.edge(level, 2.2 + i * 0.001)
    out += d.poll(3.0)
    assert kinds(out) == ["press"]
    assert out[0].pressed_at == pytest.approx(2.004)


def test_glitch_shorter_than_bounce_time_is_ignored():
    d = Debouncer(B, H)
    out = d.edge(True, 5.0) + d.edge(False, 5.005) + d.poll(6.0)
    assert out == [] and not d.pressed


def test_hold_is_decided_while_held_and_is_not_also_a_press():
    d = Debouncer(B, H)
    d.edge(True, 0.0)
    assert d.poll(0.79) == []
    out = d.poll(0.85)
    assert kinds(out) == ["hold"] and out[0].t == pytest.approx(0.8)
    assert d.edge(False, 2.0) + d.poll(3.0) == []


def test_hold_is_decided_at_release_when_nobody_polled():
    d = Debouncer(B, H)
    d.edge(True, 0.0)
    out = d.edge(False, 1.5) + d.edge(True, 4.0)
    assert kinds(out) == ["hold"] and out[0].t == pytest.approx(0.8)


def test_configurable_hold_time():
    d = Debouncer(B, hold_time=2.0)
    d.edge(True, 0.0)
    assert kinds(d.edge(False, 1.5) + d.poll(2.0)) == ["press"]


def test_bad_thresholds_raise():
    with pytest.raises(InvalidInputError):
        Debouncer(0, 1)
    with pytest.raises(InvalidInputError):
        Debouncer(0.05, 0.01)


def test_late_timestamps_do_not_break_the_state():
    d = Debouncer(B, H)
    d.edge(True, 10.0)
    d.poll(10.5)
    d.edge(False, 10.4)  # a late callback: treated as 10.5
    assert kinds(d.poll(11.0)) == ["press"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.03, 0.6), st.integers(0, 4), st.integers(0, 4)),
                min_size=1, max_size=8))
def test_presses_with_any_bounce_are_counted_once(presses):
    """Each press: down with ``b1`` bounces, held ``length``, up with ``b2`` bounces; presses
    100 ms apart.  Bounces last under the bounce time, so every press counts exactly once."""
    d = Debouncer(B, H)
    t = 0.0
    out = []
    for length, b1, b2 in presses:
        for i, level in enumerate([True] + [False, True] * b1):
            out += d.edge(level, t + i * 0.002)
        t += length + b1 * 0.004
        for i, level in enumerate([False] + [True, False] * b2):
            out += d.edge(level, t + i * 0.002)
        t += b2 * 0.004 + 0.1
        out += d.poll(t)
    assert kinds(out) == ["press"] * len(presses)
    assert all(a.t < b.t for a, b in itertools.pairwise(out))
