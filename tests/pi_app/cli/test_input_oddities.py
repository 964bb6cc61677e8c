"""Odd JSON in dealing scripts (deep nesting, NaN, huge numbers, lone surrogates), event
field types (engine.events.event_from_dict) and a huge bad card string: one error line,
exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import Card
from engine.errors import InvalidCardError
from engine.events import (
    EVENT_TYPES,
    CardDrawn,
    ClockTick,
    DealerCommand,
    Declaration,
    DeviceStatus,
    PlayerAction,
    SeatButton,
    ShoeStatus,
    UnknownEventError,
    event_from_dict,
    event_to_dict,
)
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

GOOD = {"seats": {"1": 100, "2": 100}, "button": 1, "small_blind": 1, "big_blind": 2}


def script(tmp_path: Path, *lines: str) -> str:
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join([json.dumps(GOOD), *lines]) + "\n")
    return str(f)


@pytest.mark.parametrize("line, fragment", [
    ("[" * 100_000 + "]" * 100_000, "line 2: not JSON we accept: nested too deeply"),
    ('{"type": "clock_tick", "t": 1, "x": ' + "[" * 100 + "]" * 100 + "}",
     "line 2: not JSON we accept: nested deeper than 64"),
    ('{"type": "clock_tick", "t": NaN}', "line 2: not JSON: NaN is not a JSON number"),
    ('{"type": "clock_tick", "t": -Infinity}', "line 2: not JSON"),
    ('{"type": "clock_tick", "t": 1e400}', "line 2: 't' must be a number of seconds"),
    ('{"type": "clock_tick", "t": 1, "x": "\\ud800"}', "unpaired surrogate"),
    ('{"type": "clock_tick", "t": 1' + "0" * 5000 + "}", "line 2: not JSON"),
    ('{"type": ["card_drawn"], "t": 1}', "line 2: event 'type' must be a string"),
    ('{"type": "card_drawn", "t": 1, "uid": "04A1B2C3D4E5F6", "draw": 6.0}',
     "line 2: 'draw' must be a whole number"),
    ('{"type": "player_action", "t": 1, "seat": "1", "action": "fold"}',
     "field 'seat' must be an integer"),
    ('{"type": "player_action", "t": 1, "seat": 1, "action": "bet_raise", "amount": 40.7}',
     "field 'amount' must be an integer or null"),
    ('{"type": "seat_button", "t": 1, "seat": true, "button": "fold"}',
     "field 'seat' must be an integer"),
])
def test_odd_script_line_is_one_error_line(tmp_path: Path, capsys, line: str,
                                           fragment: str) -> None:
    rc, _, err = run_main(["replay", script(tmp_path, line)], capsys)
    assert rc == 2
    assert_one_error_line(err, fragment)
    assert len(err) < 400


@pytest.mark.parametrize("d, field", [
    ({"type": "card_drawn", "t": 1.0, "uid": "X", "draw": 40.7}, "draw"),
    ({"type": "card_drawn", "t": 1.0, "uid": "X", "draw": 6.0}, "draw"),
    ({"type": "card_drawn", "t": 1.0, "uid": "X", "draw": "40"}, "draw"),
    ({"type": "card_drawn", "t": 1.0, "uid": "X", "draw": False}, "draw"),
    ({"type": "card_drawn", "t": 1.0, "uid": 7, "draw": 1}, "uid"),
    ({"type": "card_drawn", "t": float("nan")}, "t"),
    ({"type": "card_drawn", "t": float("inf")}, "t"),
    ({"type": "card_drawn", "t": 10**400}, "t"),
    ({"type": "card_drawn", "t": "1.0"}, "t"),
    ({"type": "card_drawn", "t": True}, "t"),
    ({"type": "declaration", "t": 1, "kind": "floor_misdeal", "seat": 2.0}, "seat"),
    ({"type": "player_action", "t": 1, "seat": 1, "action": "fold", "amount": "5"}, "amount"),
    ({"type": "shoe_status", "t": 1, "online": 1}, "online"),
    ({"type": "device_status", "t": 1, "device": "tv", "online": "no"}, "online"),
    ({"type": "dealer_command", "t": 1, "command": "add_time", "args": [60]}, "args"),
    ({"type": "dealer_command", "t": 1, "command": None}, "command"),
])
def test_event_field_types_are_checked(d: dict, field: str) -> None:
    with pytest.raises(UnknownEventError, match=f"field '{field}' must be"):
        event_from_dict(d)


@pytest.mark.parametrize("event", [
    CardDrawn(t=1.5, uid="04A1B2C3D4E5F6", draw=3), ShoeStatus(t=2.0, online=False, reason="x"),
    Declaration(t=3.0, kind="exposed_card", draw=None, seat=4, note="n"),
    Declaration(t=3.0, kind="wrong_seat", draw=2, seat=None),
    SeatButton(t=4.0, seat=2, button="fold", press="hold"),
    PlayerAction(t=5.0, seat=1, action="bet_raise", amount=120),
    PlayerAction(t=5.0, seat=1, action="fold", amount=None),
    ClockTick(t=6.25), DeviceStatus(t=7.0, device="display:3", online=True, detail=""),
    DealerCommand(t=8.0, command="add_time", args={"seconds": 60, "nested": {"a": [1]}}),
])
def test_journal_round_trip_still_passes(event) -> None:
    """The journal stores ``json.dumps(event_to_dict(e))``: reading it back must pass."""
    assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


def test_whole_seconds_are_accepted_as_floats() -> None:
    e = event_from_dict({"type": "clock_tick", "t": 3})
    assert e == ClockTick(t=3.0) and isinstance(e.t, float)


def test_every_event_type_has_checkable_annotations() -> None:
    for name, cls in EVENT_TYPES.items():
        d = event_to_dict(cls(t=1.0)) if name not in ("declaration", "seat_button",
                                                       "dealer_button") else None
        if d is not None:
            assert event_from_dict(d) == cls(t=1.0)


def test_huge_bad_card_string_is_not_echoed(tmp_path: Path) -> None:
    bad = "Zz" * 5_000_000
    with pytest.raises(InvalidCardError) as info:
        Card.parse(bad)
    msg = str(info.value)
    assert len(msg) < 200 and "Zz" * 10 in msg and "Zz" * 11 not in msg  # ~20 characters
    assert "10000000 characters" in msg


def test_huge_bad_card_in_a_script_is_one_short_line(tmp_path: Path, capsys) -> None:
    line = json.dumps({"type": "card_drawn", "t": 1.0, "card": "Q" * 1_000_000})
    rc, _, err = run_main(["replay", script(tmp_path, line)], capsys)
    assert rc == 2
    assert_one_error_line(err, "line 2")
    assert len(err) < 300
