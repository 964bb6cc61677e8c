"""One action vocabulary past the keys: PokerKit's names; the scripts' names still read."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.events import (
    ACTION_ALIASES,
    ACTIONS,
    DEALER_BUTTONS,
    DECLARATION_KINDS,
    PRESS_KINDS,
    SEAT_BUTTONS,
    CardDrawn,
    ClockTick,
    DealerButton,
    DealerCommand,
    Declaration,
    PlayerAction,
    SeatButton,
    ShoeStatus,
    UnknownEventError,
    event_from_dict,
    event_to_dict,
)

_T = st.floats(0, 1e9, allow_nan=False)


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


_EVENTS = st.one_of(
    st.builds(CardDrawn, t=_T, uid=st.text(max_size=14), draw=st.integers()),
    st.builds(SeatButton, t=_T, seat=st.integers(1, 10), button=st.sampled_from(SEAT_BUTTONS),
              press=st.sampled_from(PRESS_KINDS)),
    st.builds(DealerButton, t=_T, button=st.sampled_from(DEALER_BUTTONS),
              press=st.sampled_from(PRESS_KINDS)),
    st.builds(PlayerAction, t=_T, seat=st.integers(1, 10),
              action=st.sampled_from(ACTIONS + tuple(ACTION_ALIASES)),
              amount=st.none() | st.integers(0, 10**9)),
    st.builds(Declaration, t=_T, kind=st.sampled_from(DECLARATION_KINDS),
              draw=st.none() | st.integers(1, 60), seat=st.none() | st.integers(1, 10)),
    st.builds(ClockTick, t=_T),
    st.builds(ShoeStatus, t=_T, online=st.booleans(), reason=st.text(max_size=5)),
    st.builds(DealerCommand, t=_T, command=st.text(max_size=5),
              args=st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))


@given(_EVENTS)
def test_an_event_read_back_is_the_very_record_its_constructor_makes(ev):
    """A record read from its dict (built without the dataclass's __init__ when it can be)
    is the record the constructor makes: same type, fields, equality and hash."""
    back = event_from_dict(event_to_dict(ev))
    assert type(back) is type(ev) and vars(back) == vars(ev)
    assert back == ev and hash(back) == hash(ev)
    with pytest.raises(FrozenInstanceError):
        back.t = 0.0  # type: ignore[misc]


@pytest.mark.parametrize("record", [
    {"type": "seat_button", "t": 1.0, "seat": 1, "button": "fold", "press": "tap"},
    {"type": "dealer_button", "t": 1.0, "button": "shuffle"},
    {"type": "declaration", "t": 1.0, "kind": "nothing"}])
def test_an_event_read_back_is_checked_as_its_constructor_checks_it(record):
    with pytest.raises(UnknownEventError):
        event_from_dict(record)


@pytest.mark.parametrize(("record", "fixed"), [
    ({"type": "clock_tick", "t": 3}, {"t": 3.0}),  # an int for a float field: a float
    ({"type": "seat_button", "t": 1.0, "seat": 2, "button": "fold"}, {"press": "press"}),
    ({"type": "player_action", "t": 1.0, "seat": 2, "action": "call"},
     {"action": "check_or_call", "amount": None}),
    # a field with a default factory (args): the same path, built by the constructor
    ({"type": "dealer_command", "t": 2, "command": "next_hand"}, {"t": 2.0, "args": {}}),
    ({"type": "dealer_command", "t": 1.0, "command": "x", "args": {"a": 1}}, {})])
def test_a_record_of_a_type_already_read_is_read_as_the_first_was(record, fixed):
    """The first record of a type is read field by field; later ones of the same type
    take a shorter path (a journal's records): both give the constructor's record."""
    first, again = event_from_dict(dict(record)), event_from_dict(dict(record))
    assert vars(first) == vars(again) == {**{k: v for k, v in record.items() if k != "type"},
                                           **fixed}
    assert type(again) is type(first) and again == first


@pytest.mark.parametrize("record", [
    {"type": "clock_tick", "t": float("inf")},
    {"type": "clock_tick", "t": float("nan")},
    {"type": "seat_button", "t": float("-inf"), "seat": 2, "button": "fold"},
    {"type": "seat_button", "t": 1.0, "seat": True, "button": "fold"},
    {"type": "seat_button", "t": 1.0, "seat": 2.0, "button": "fold"},
    {"type": "seat_button", "t": 1.0, "seat": 2, "button": "fold", "extra": 1},
    {"type": "seat_button", "seat": 2, "button": "fold"},
    {"type": "dealer_button", "t": 1.0, "button": "shuffle"},
    {"type": "dealer_command", "t": float("nan"), "command": "x"},
    {"type": "dealer_command", "t": 1.0, "command": "x", "args": []},
    {"type": "dealer_command", "t": 1.0, "command": "x", "extra": 1}])
def test_a_bad_record_of_a_type_already_read_is_refused(record):
    """A record of a type read before (its shorter path warmed up) is refused as the
    first would be: a non-finite time, a bool or float for an int, an unknown or missing
    field, a bad value."""
    event_from_dict({k: v for k, v in record.items() if k in ("type", "t")} | {"t": 1.0}
                    | ({"seat": 1, "button": "fold"} if record["type"] == "seat_button"
                       else {"button": "undo"} if record["type"] == "dealer_button"
                       else {"command": "x"} if record["type"] == "dealer_command" else {}))
    with pytest.raises(UnknownEventError):
        event_from_dict(record)
