"""The operator's commands (engine/table/dealer_commands.py), through the table core."""

from __future__ import annotations

import pytest

from engine.effects import Notice
from engine.errors import InvalidInputError
from engine.events import DealerButton, DealerCommand
from engine.table.core import TableCore, TableSettings


def _core() -> TableCore:
    return TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=2))


def test_clock_commands_move_the_level_and_the_clock():
    core = _core()
    core.apply(DealerButton(t=0.0, button="next_hand"))
    index = core.tournament.clock.index
    core.apply(DealerCommand(t=1.0, command="next_level"))
    assert core.tournament.clock.index == index + 1
    core.apply(DealerCommand(t=2.0, command="previous_level"))
    assert core.tournament.clock.index == index
    core.apply(DealerCommand(t=3.0, command="pause"))
    assert core.tournament.clock.paused_at is not None
    core.apply(DealerCommand(t=4.0, command="resume"))
    assert core.tournament.clock.paused_at is None


def test_mute_register_and_an_elimination_mid_hand():
    core = _core()
    effects = core.apply(DealerCommand(t=0.5, command="mute", args={"on": True}))
    assert core.muted and Notice("Sound off") in effects
    core.apply(DealerCommand(t=0.6, command="register", args={"name": "Di", "seat": 4}))
    assert {e.name for e in core.tournament.active()} == {"Ann", "Bob", "Cy", "Di"}
    core.apply(DealerButton(t=1.0, button="next_hand"))
    before = core.snapshot()
    # the state error comes back as a refused command, naming it and why
    with pytest.raises(InvalidInputError, match="'eliminate'.*finish the hand"):
        core.apply(DealerCommand(t=2.0, command="eliminate", args={"seat": 4}))
    assert core.snapshot() == before


@pytest.mark.parametrize("command, args", [
    ("launch", {}), ("jump_level", {}), ("jump_level", {"index": "x"}),
    ("register", {"name": "Di"}),
])
def test_unknown_or_malformed_commands_are_refused_and_change_nothing(command, args):
    core = _core()
    before = core.snapshot()
    with pytest.raises(InvalidInputError, match=repr(command)):
        core.apply(DealerCommand(t=1.0, command=command, args=args))
    assert core.snapshot() == before


def test_the_tvs_notices_write_chips_with_thousands_separators():
    """A late entry's chips and a level's blinds, as the TV shows them ("6,300", not
    "6300"); the figures come from the structure, not from the test."""
    core = _core()
    core.apply(DealerButton(t=0.0, button="next_hand"))
    effects = core.apply(DealerCommand(t=1.0, command="register", args={"name": "Di",
                                                                       "seat": 4}))
    chips = next(e.chips for e in core.tournament.active() if e.name == "Di")
    assert chips >= 1000 and Notice(f"Di joins in seat 4 with {chips:,}") in effects
    levels = core.tournament.clock.structure.levels
    big = next(lv for lv in levels if not lv.is_break and lv.big_blind >= 1000)
    assert big.blinds_text().startswith(f"{big.small_blind:,}/{big.big_blind:,}")
    assert "," in big.blinds_text()
