"""A console command at a table in venue mode: the chips seated move only with the venue.

A venue table's chips are counted against the venue's ledger after every input
(:mod:`engine.table.venue`: chips seated in, less chips moved out, plus bonuses); a console
command that would change the chips seated at the table (a registration, a late entry, a
stack corrected, a player removed or put back, a bounty chip at the start) is refused by
that count.  :func:`verify_venue_chips` tells so beforehand, changing nothing: the
console's precheck asks it after the command's own verify.  Chips are ints.
"""

from __future__ import annotations

from typing import Any

from engine.table.console_core import ConsoleCore
from engine.table.console_players import seats_drawn
from engine.table.venue_state import VenueChipError
from engine.tournament.eliminations import undo_target


def verify_venue_chips(core: ConsoleCore, command: str, args: dict[str, Any]) -> None:
    """Raises VenueChipError, in the venue count's words, when ``command`` (verified) would
    leave the chips seated at a venue table off its ledger; nothing at a table outside
    venue mode."""
    venue = core.venue
    if venue is None:
        return
    have = sum(core.tournament.stacks().values()) + seated_change(core, command, args)
    if have != venue.ledger:
        raise VenueChipError(f"table {venue.table}: {have} chips seated, {venue.ledger} "
                             "expected (chips seated in less chips moved out, plus bonuses)")


def seated_change(core: ConsoleCore, command: str, args: dict[str, Any]) -> int:
    """The change in the chips seated (the players still in) that the verified ``command``
    with ``args`` makes (0 for a command that moves no chip in or out of the table)."""
    tour = core.tournament
    stacks = tour.stacks()
    if command in ("eliminate", "remove"):
        return -stacks[args["seat"]]
    if command == "stack":
        return int(args["chips"]) - stacks[args["seat"]]
    if command == "undo_elimination":
        return undo_target(tour)[1]
    if command == "register":
        return _entry_chips(core) if _seats_now(core) and seats_drawn(core) else 0
    if command == "late_entry":
        return _entry_chips(core) if _seats_now(core) else 0
    if command == "seat_draw":
        return _entry_chips(core) * len(core.console.waiting) if _seats_now(core) else 0
    if command in ("start", "start_round"):
        return _start_change(core)
    return 0


def _seats_now(core: ConsoleCore) -> bool:
    """Whether a player registered now plays in the round being played (never with
    qualifiers: a registration is for the next round)."""
    return core.tournament.structure.qualifiers is None


def _entry_chips(core: ConsoleCore) -> int:
    """The stack of a player registered now (less the late-entry deduction once started)."""
    tour = core.tournament
    level = tour.clock.level.number if tour.clock.started else 0
    deduction = tour.structure.late_deduction(level) if tour.clock.started else 0
    return int(tour.structure.starting_stack - deduction)


def _start_change(core: ConsoleCore) -> int:
    """What a start adds: the bounty chip, or with qualifiers the next round's players'
    chips in place of this round's."""
    tour = core.tournament
    q = tour.structure.qualifiers
    if q is None:
        return tour.structure.bounty.chips if tour.structure.bounty is not None else 0
    seated = sum(tour.stacks().values())
    nxt = tour.round + 1
    if nxt > q.rounds:
        final = [e for e in tour.entrants if e.qualified and e.round <= q.rounds]
        return len(final) * tour.structure.starting_stack - seated
    return sum(e.chips for e in tour.entrants if e.round == nxt and e.active
               and e.seat is not None) - seated
