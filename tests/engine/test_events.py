"""One action vocabulary past the keys: PokerKit's names; the scripts' names still read."""

from __future__ import annotations

import pytest

from engine.events import ACTION_ALIASES, ACTIONS, PlayerAction, event_from_dict, event_to_dict


@pytest.mark.parametrize(("given", "canonical"), [
    ("check_call", "check_or_call"), ("bet_raise", "bet_or_raise_to"),
    ("call", "check_or_call"), ("raise", "bet_or_raise_to"),
    ("fold", "fold"), ("check_or_call", "check_or_call"), ("muck", "muck")])
def test_an_action_is_named_once_and_for_all_when_the_event_is_made(given, canonical):
    ev = PlayerAction(t=1.0, seat=2, action=given, amount=40)
    assert ev.action == canonical and ev.action in ACTIONS
    assert event_to_dict(ev)["action"] == canonical


def test_a_scenario_line_with_the_older_names_reads_as_the_new_ones():
    ev = event_from_dict({"type": "player_action", "t": 3.0, "seat": 1, "action": "bet_raise",
                          "amount": 200})
    assert ev == PlayerAction(t=3.0, seat=1, action="bet_or_raise_to", amount=200)
    assert set(ACTION_ALIASES.values()) <= set(ACTIONS)


def test_an_unknown_name_is_left_for_the_procedure_to_refuse():
    from engine.errors import IllegalActionError
    from tests.engine.dealing.builder import Builder

    b = Builder("x")
    b.holes()
    with pytest.raises(IllegalActionError, match="unknown action 'limp'"):
        b.proc.apply(PlayerAction(t=99.0, seat=b.proc.hand.actor, action="limp"))
