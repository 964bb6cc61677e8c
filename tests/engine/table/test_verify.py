"""The table core's own steps verified beforehand (engine/table/verify.py): each verify
raises what the step raises for the same input, in the same words, and changes nothing."""

from __future__ import annotations

import pytest

from engine.errors import PokerTableError
from engine.events import CardDrawn, DealerButton, Declaration, Event, PlayerAction
from engine.table import verify
from tests.engine.table.test_console import STATES


def _verify_of(event: Event):
    if isinstance(event, DealerButton) and event.button == "undo":
        return lambda core: verify.verify_undo(core)
    if isinstance(event, DealerButton):
        return lambda core: verify.verify_next_hand(core, event.t)
    if isinstance(event, PlayerAction):
        return lambda core: verify.verify_player_action(core, event)
    return lambda core: verify.verify_shoe_event(core, event)


def _events(core) -> list[Event]:
    t = core.last_t + 1
    seats = sorted(core.tournament.stacks()) or [1]
    return [DealerButton(t=t, button="next_hand"), DealerButton(t=t, button="undo"),
            *[PlayerAction(t=t, seat=s, action=a) for s in seats
              for a in ("fold", "check_or_call", "show")],
            PlayerAction(t=t, seat=seats[0], action="bet_or_raise_to", amount=10**6),
            CardDrawn(t=t, uid=core.registry.uids()[0], draw=core.shoe_draws + 1),
            Declaration(t=t, kind="exposed_card"), Declaration(t=t, kind="missed_burn"),
            Declaration(t=t, kind="exposed_card", draw=99),
            Declaration(t=t, kind="confirm_ruling")]


@pytest.mark.parametrize("state", sorted(STATES))
def test_each_step_raises_what_its_verify_raises(state):
    from engine.table.core import TableCore

    core = STATES[state]()
    before = core.snapshot()
    for event in _events(core):
        try:
            _verify_of(event)(core)
            said = None
        except PokerTableError as exc:
            said = str(exc)
        twin = TableCore.restore(before)
        try:
            twin.apply(event)
            done = None
        except PokerTableError as exc:
            done = str(exc)
        assert said == done, event
    assert core.snapshot() == before


def test_an_input_before_the_last_one_is_refused():
    core = STATES["started"]()
    with pytest.raises(PokerTableError, match="times are monotonic"):
        verify.verify_time(core, core.last_t - 0.5)
    verify.verify_time(core, core.last_t)
