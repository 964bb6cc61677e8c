"""Property tests of the clock (hypothesis): pause/resume/adjust keep the remaining time
consistent with a simple reference model and never negative; level order is monotone."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.clock import Clock, ClockError
from engine.tournament.structure_file import load_structure
from tests.engine.tournament.helpers import DATA
from tests.engine.tournament.test_clock import timed

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("wait"), st.floats(0.0, 400.0, allow_nan=False)),
        st.tuples(st.just("pause"), st.just(0.0)),
        st.tuples(st.just("resume"), st.just(0.0)),
        st.tuples(st.just("add"), st.floats(-500.0, 500.0, allow_nan=False)),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(ops=OPS, start=st.floats(0.0, 1e6, allow_nan=False))
def test_pause_resume_adjust_match_reference_model(ops, start):
    durations = [3.0, 2.0, 5.0, 1.0]  # minutes
    c = timed(*durations)
    budgets = [m * 60 for m in durations]
    idx, used, running = 0, 0.0, True
    now = start
    c.start(now)

    def settle():
        nonlocal idx, used
        while used >= budgets[idx] and idx < len(budgets) - 1:
            used -= budgets[idx]
            idx += 1

    for op, x in ops:
        prev_index = c.index
        if op == "wait":
            now += x
            if running:
                used += x
            c.update(now)
        elif op == "pause":
            try:
                c.pause(now)
                running = False
            except ClockError:
                assert not running
        elif op == "resume":
            try:
                c.resume(now)
                running = True
            except ClockError:
                assert running
        else:
            c.add_time(now, x)
            budgets[idx] = max(used, budgets[idx] + x)
        settle()
        assert c.index >= prev_index  # monotone
        assert c.index == idx
        rem = c.remaining(now)
        assert rem is not None and rem >= 0.0
        assert abs(rem - max(0.0, budgets[idx] - used)) < 1e-6
        assert c.running == running
        # remaining is stable when queried twice, and frozen while paused
        assert c.remaining(now) == rem
        if not running:
            assert c.remaining(now + 1000.0) == rem


HAND_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("wait"), st.floats(0.0, 200.0, allow_nan=False)),
        st.tuples(st.just("hand"), st.floats(1.0, 150.0, allow_nan=False)),
        st.tuples(st.just("pause"), st.floats(0.0, 100.0, allow_nan=False)),
        st.tuples(st.just("add"), st.floats(-200.0, 200.0, allow_nan=False)),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(ops=HAND_OPS)
def test_hands_breaks_keep_order_and_alerts_unique(ops):
    """With hands, a hand-based level and a break with a color-up: the entry index never
    goes back, time never goes negative, and no alert repeats for an entry."""
    c = Clock(load_structure(DATA / "valid_mixed.toml"))
    now = 0.0
    alerts = c.start(now)
    for op, x in ops:
        prev = c.index
        if op == "wait":
            now += x
            alerts += c.update(now)
        elif op == "hand":
            if c.level.is_break:
                try:
                    c.hand_started(now)
                    raise AssertionError("a hand started on a break")
                except ClockError:
                    pass
                now += x
                alerts += c.update(now)
            else:
                alerts += c.hand_started(now)
                now += x
                alerts += c.hand_finished(now)
        elif op == "pause":
            alerts += c.pause(now)
            now += x
            alerts += c.resume(now)
        else:
            try:
                alerts += c.add_time(now, x)
            except ClockError:
                assert c.level.hands is not None
        assert c.index >= prev
        rem = c.remaining(now)
        assert rem is None or rem >= 0.0
        hands = c.hands_remaining()
        assert hands is None or hands >= 0
    counts = Counter((a.level_index, a.kind) for a in alerts)
    assert all(n == 1 for n in counts.values()), counts
    starts = [a.level_index for a in alerts if a.kind in ("level_start", "break_start")]
    assert starts == list(range(len(starts)))  # every entry in order, none skipped
