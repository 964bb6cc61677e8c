"""The table's UNDO of the last player action (engine/table/undo.py): a record of one copy
per run of actions taken with the betting open, and the actions to apply again, gives the
very procedure from before the last action, whatever came in between (cards, rulings,
declarations, keys out of turn, an UNDO).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dealing.deal_state import DealState
from engine.errors import PokerTableError
from engine.events import DealerButton, PlayerAction, SeatButton
from engine.table.atomic import copy_procedure
from engine.table.core import TableCore
from pi_app.sim.policy import next_step, step_event
from tests.engine.betting.helpers import assert_ids_kept
from tests.engine.table.inputs import inputs, table_settings


@settings(max_examples=15)
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 2**16),
       events=st.integers(30, 220))
def test_the_undo_record_is_the_procedure_before_the_last_action(data, players, seed, events):
    """After every input that became a player action, the UNDO's procedure is the one
    from before that input (a copy taken before it, compared as its exact snapshot); an
    UNDO pressed puts exactly that procedure back."""
    core = TableCore.new(table_settings(players, seed))
    for ev in inputs(data, core, seed, events):
        proc, undo = core.proc, core.undo
        before = copy_procedure(proc).to_dict() if proc is not None else None
        expected = undo.to_dict() if undo is not None else None
        try:
            core.apply(ev)
        except PokerTableError:
            assert core.undo is undo, f"refused {ev!r} changed the UNDO"
            continue
        if core.undo is not None and core.undo is not undo:
            assert isinstance(ev, (SeatButton, PlayerAction)), ev
            assert core.undo.to_dict() == before, f"the UNDO after {ev!r}"
        if isinstance(ev, DealerButton) and ev.button == "undo":
            assert core.proc is not None and core.proc.to_dict() == expected
            assert core.proc is not proc and core.undo is None
        if core.proc is not None:  # the ids kept for the showdown, after an UNDO too
            assert_ids_kept(core.proc.s.hand)


def test_a_night_copies_the_deal_about_once_a_betting_round():
    """Real play: the deal state is copied for the UNDO at the first action of a run,
    not at every action (the record applies the run's actions again when asked)."""
    core = TableCore.new(table_settings(6, 3))
    copies = actions = 0
    real = DealState.copy

    def counted(self: DealState) -> DealState:
        nonlocal copies
        copies += 1
        return real(self)

    DealState.copy = counted  # type: ignore[method-assign]
    try:
        for _ in range(3000):
            step = next_step(core, seed=3, max_hands=40)
            if step.kind == "done":
                break
            before = core.undo
            core.apply(step_event(step, core))
            actions += core.undo is not None and core.undo is not before
    finally:
        DealState.copy = real  # type: ignore[method-assign]
    assert core.hand_number >= 10 and actions > 100
    assert copies * 3 < actions, (copies, actions)


def test_an_undo_after_a_declaration_goes_back_to_the_declared_state():
    """A run of actions is broken by anything else that reaches the procedure: the UNDO
    of an action after an exposed card keeps the exposed card."""
    core = TableCore.new(table_settings(4, 1))
    while core.proc is None or core.proc.hand.actor is None:
        core.apply(step_event(next_step(core, seed=1), core))
    proc = core.proc
    first = proc.hand.actor
    core.apply(PlayerAction(t=core.last_t + 1, seat=first, action="check_or_call"))
    core.apply(DealerButton(t=core.last_t + 1, button="exposed_card"))
    declared = copy_procedure(core.proc).to_dict()
    assert core.proc is proc and proc.rulings and not core.undo.extends(proc)
    second = core.proc.hand.actor
    if core.proc.pending_ruling() is not None:
        core.apply(DealerButton(t=core.last_t + 1, button="confirm_ruling"))
        declared = copy_procedure(core.proc).to_dict()
    core.apply(PlayerAction(t=core.last_t + 1, seat=second, action="check_or_call"))
    core.apply(DealerButton(t=core.last_t + 1, button="undo"))
    assert core.proc.to_dict() == declared
