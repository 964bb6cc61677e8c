"""A refused input changes nothing, checked over random play: the table core verifies before
it changes anything (no snapshot of the table per event; engine/table/atomic.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PokerTableError
from engine.events import (
    CardDrawn,
    DealerButton,
    DealerCommand,
    Declaration,
    PlayerAction,
    SeatButton,
    ShoeReloaded,
    StubReshuffled,
)
from engine.table.core import TableCore, TableSettings
from pi_app.sim.policy import next_step, step_event

SEATS = st.integers(min_value=0, max_value=11)
AMOUNTS = st.one_of(st.none(), st.integers(min_value=-50, max_value=200_000))
ARG_VALUES = st.one_of(st.none(), st.integers(min_value=-3, max_value=12),
                       st.sampled_from(["", "Zed", "x" * 3, "1"]), st.booleans())
ARGS = st.dictionaries(st.sampled_from(["seat", "name", "seconds", "index", "on", "policy"]),
                       ARG_VALUES, max_size=3)

#: (kind, fields) of the inputs thrown at the table between valid steps: most are wrong
#: for the moment (a key out of turn, a raise below the minimum, a card between hands...)
NOISE = st.one_of(
    st.tuples(st.just(SeatButton), st.fixed_dictionaries({
        "seat": SEATS, "button": st.sampled_from(["fold", "check_call", "bet_raise"]),
        "press": st.sampled_from(["press", "hold"])})),
    st.tuples(st.just(DealerButton), st.fixed_dictionaries({
        "button": st.sampled_from(["next_hand", "pause_resume", "undo", "exposed_card",
                                   "misdeal", "confirm_ruling"]),
        "press": st.sampled_from(["press", "hold"])})),
    st.tuples(st.just(PlayerAction), st.fixed_dictionaries({
        "seat": SEATS, "action": st.sampled_from(["fold", "check_call", "bet_raise", "show",
                                                  "muck"]), "amount": AMOUNTS})),
    st.tuples(st.just(DealerCommand), st.fixed_dictionaries({
        "command": st.sampled_from(["add_time", "next_level", "previous_level", "jump_level",
                                    "pause", "resume", "register", "eliminate",
                                    "undo_elimination", "mute", "restarted", "bogus"]),
        "args": ARGS})),
    st.tuples(st.just(Declaration), st.fixed_dictionaries({
        "kind": st.sampled_from(["exposed_card", "floor_misdeal", "confirm_ruling",
                                 "override_ruling"])})),
    st.tuples(st.just(CardDrawn), st.fixed_dictionaries({
        "uid": st.sampled_from(["", "NOT-A-TAG"]), "draw": st.integers(0, 60)})),
    st.tuples(st.just(ShoeReloaded), st.just({})),
    st.tuples(st.just(StubReshuffled), st.just({})),
)

#: a run: each item is a valid step of the simulated table (None) or one noisy input
RUNS = st.lists(st.one_of(st.none(), NOISE), min_size=5, max_size=70)


def _noise_event(kind, fields, t):
    try:
        return kind(t=t, **fields)
    except PokerTableError:
        return None  # the event itself is malformed: refused before it reaches the table


@settings(max_examples=40)
@given(run=RUNS, players=st.integers(min_value=2, max_value=5),
       seed=st.integers(min_value=0, max_value=3))
def test_a_refused_event_leaves_the_table_unchanged(run, players, seed):
    core = TableCore.new(TableSettings(players={s: f"P{s}" for s in range(1, players + 1)},
                                       seed=seed))
    refused = 0
    for item in run:
        t = core.last_t + 1.5
        if item is None:
            step = next_step(core, seed=seed)
            if step.kind == "done":
                break
            event = step_event(step, core)
        else:
            event = _noise_event(item[0], item[1], t)
            if event is None:
                continue
        before = core.snapshot()
        try:
            core.apply(event)
        except PokerTableError:
            refused += 1
            assert core.snapshot() == before, f"{event} was refused but changed the table"
    # the table is still playable: its snapshot restores to the same state
    assert TableCore.restore(core.snapshot()).snapshot() == core.snapshot()


def test_next_hand_on_a_break_is_refused_and_changes_nothing():
    # NEXT HAND first brings the clock up and colors up, then finds the break: the steps
    # already taken are put back (engine/table/atomic.py, Guard)
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}))
    core.apply(DealerButton(t=1.0, button="next_hand"))
    while core.in_hand:
        core.apply(step_event(next_step(core, seed=0), core))
    t = core.last_t
    brk = next(i for i, lv in enumerate(core.tournament.structure.levels) if lv.is_break)
    core.apply(DealerCommand(t=t + 1, command="jump_level", args={"index": brk}))
    before = core.snapshot()
    try:
        core.apply(DealerButton(t=t + 2, button="next_hand"))
    except PokerTableError as exc:
        assert "break" in str(exc)
    else:
        raise AssertionError("NEXT HAND on a break was accepted")
    assert core.snapshot() == before
