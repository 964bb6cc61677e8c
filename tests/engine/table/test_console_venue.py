"""The chips a console command moves in or out of the table (engine/table/console_venue.py):
what :func:`seated_change` says is what applying the command does to the chips seated, and
at a venue table a command that would move chips is refused beforehand in the words of the
venue's count."""

from __future__ import annotations

import pytest

from engine.events import ConsoleCommand
from engine.table.console import precheck
from engine.table.console_venue import seated_change
from engine.table.core import TableCore
from tests.engine.table.test_console import STATES, _cases, _console

CHIP_STATES = ["fresh", "waiting", "seated", "started", "after_a_hand", "over", "qualifiers",
               "qualifier_played"]


def _seated(core: TableCore) -> int:
    return sum(core.tournament.stacks().values())


@pytest.mark.parametrize("state", CHIP_STATES)
def test_the_change_is_what_applying_does(state):
    core = STATES[state]()
    tried = 0
    for command, args in _cases(core) + [("undo_elimination", {})]:
        ev = ConsoleCommand(t=core.last_t + 1, command=command, args=args, role="director")
        if precheck(core, ev) is not None:
            continue
        twin = TableCore.restore(core.snapshot())
        twin.apply(ev)
        assert _seated(twin) - _seated(core) == seated_change(core, command, args), command
        tried += 1
    assert tried


def test_a_venue_table_refuses_a_command_that_moves_chips():
    core = STATES["venue"]()
    before = core.snapshot()
    ev = ConsoleCommand(t=core.last_t + 1, command="stack", role="director",
                        args={"seat": 1, "chips": 19000, "reason": "count"})
    said = precheck(core, ev)
    assert said == ("table 2: 44000 chips seated, 45000 expected (chips seated in less "
                    "chips moved out, plus bonuses)")
    with pytest.raises(ValueError, match="44000 chips seated"):
        core.apply(ev)
    assert core.snapshot() == before
    _console(core, "away", seat=1)  # moves no chip: taken
    assert core.console.away == [1]
