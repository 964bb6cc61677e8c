"""Tag presence: one event per tag appearing then leaving."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware.shoe.presence import TICKS_PERIOD, TagPresence, ticks_diff

A = bytes.fromhex("04A1B2C3D4E5F6")
B = bytes.fromhex("04112233445566")
TRUNC = bytes([0x04, 0xA1, 0xB2])  # level 2 failed: 3 UID bytes read


def run(p, reads, start=0, step=10):
    events, t = [], start
    for r in reads:
        events += p.update(t % TICKS_PERIOD, r)
        t += step
    return events


def test_resting_tag_gives_one_event_when_it_leaves():
    p = TagPresence(leave_ms=50)
    # present for a long time, with flicker (misses shorter than leave_ms)
    reads = [A] * 30 + [None, None, A, None, A] * 20 + [A] * 5
    assert run(p, reads) == []
    assert p.present == 1
    assert run(p, [None] * 10, start=10_000) == [("card", A)]
    assert p.present == 0


@given(st.lists(st.booleans(), min_size=1, max_size=60))
def test_any_flicker_shorter_than_debounce_is_one_event(pattern):
    p = TagPresence(leave_ms=50)
    reads = [A] + [A if seen else None for seen in pattern] + [A]
    # gaps are at most 60 polls * 10 ms; drop the ones that would really be "left"
    events, t, last = [], 0, None
    for r in reads:
        if r is None and last is not None and t - last >= 40:
            r = A  # keep every gap below leave_ms
        events += p.update(t, r)
        if r is not None:
            last = t
        t += 10
    events += run(p, [None] * 6, start=t)
    assert events == [("card", A)]


def test_two_separate_draws_of_the_same_uid_are_two_events():
    p = TagPresence(leave_ms=50)
    ev = run(p, [A] * 3 + [None] * 6 + [A] * 3 + [None] * 6)
    assert ev == [("card", A), ("card", A)]


def test_two_tags_in_the_field_reported_in_order_of_appearance():
    p = TagPresence(leave_ms=50)
    ev = run(p, [A, B, A, B, B] + [None] * 8)
    assert ev == [("card", A), ("card", B)]


def test_truncated_read_never_becomes_a_card_but_keeps_presence():
    p = TagPresence(leave_ms=50)
    assert run(p, [TRUNC, TRUNC, A, TRUNC, TRUNC, A] + [None] * 6) == [("card", A)]
    p = TagPresence(leave_ms=50)
    assert run(p, [TRUNC] * 4 + [None] * 6) == [("unknown_tag", b"", "truncated")]


def test_foreign_tag_is_unknown():
    p = TagPresence(leave_ms=50)
    assert run(p, [b"\xDE\xAD\xBE\xEF"] * 3 + [None] * 6) == \
        [("unknown_tag", b"\xDE\xAD\xBE\xEF", "foreign")]


def test_tick_wraparound():
    assert ticks_diff(5, TICKS_PERIOD - 5) == 10
    assert ticks_diff(TICKS_PERIOD - 5, 5) == -10
    p = TagPresence(leave_ms=50)
    ev = run(p, [A] * 3 + [None] * 6, start=TICKS_PERIOD - 25)
    assert ev == [("card", A)]
