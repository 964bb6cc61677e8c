"""Entries into a tournament: when registration is open, who may take which seat, and the
stack of a late entry (seed 000: the level's deduction; seed 003: no entries after the first
blind raise; seed 002: qualifier rounds register between rounds).  Functions of a
:class:`engine.tournament.tournament.Tournament`, which delegates to them (pure).
"""

from __future__ import annotations

from typing import Protocol

from engine.errors import IllegalActionError
from engine.tournament.clock import Clock
from engine.tournament.entrant import Entrant
from engine.tournament.structure import Structure

MAX_SEATS = 10  #: seats of one table (seat numbers 1..MAX_SEATS)


class RegistrationError(IllegalActionError):
    """An entry that is not allowed now (registration closed, seat taken, bad name)."""


class Tournament(Protocol):
    """What these functions read and change of a
    :class:`engine.tournament.tournament.Tournament` (named here, not imported, so that
    the two modules import in one direction only)."""

    structure: Structure
    clock: Clock
    entrants: list[Entrant]
    round: int
    round_over: bool
    finished: bool


def registration_open(tour: Tournament) -> bool:
    """True while a new entry may join (before the start, or during late registration;
    never once the tournament is over)."""
    if tour.finished:
        return False
    if tour.structure.qualifiers is not None:
        return not tour.clock.started or tour.round_over
    if not tour.clock.started:
        return True
    last = tour.structure.late_registration.last_level
    lv = tour.clock.level
    if lv.is_break:
        return lv.number < last
    return lv.number <= last and not (tour.clock.finished)


def closed_reason(tour: Tournament) -> str:
    """Why registration is closed, in words for the floor."""
    if tour.structure.qualifiers is not None:
        return "a round is being played; register for the next round when it is over"
    lr = tour.structure.late_registration
    if lr.close_at_first_raise:
        return "registration closed: no new players after the first blind raise"
    return f"registration closed at the end of level {lr.last_level}"


def verify_register(tour: Tournament, name: str, seat: int) -> None:
    """Raises RegistrationError as :func:`register` of ``name`` at ``seat`` would
    (registration closed, seat taken or out of range, no name); changes nothing."""
    if not name or not str(name).strip():
        raise RegistrationError("a player needs a name")
    if not isinstance(seat, int) or not 1 <= seat <= MAX_SEATS:
        raise RegistrationError(f"seat must be 1..{MAX_SEATS}, got {seat!r}")
    if not registration_open(tour):
        raise RegistrationError(closed_reason(tour))
    rnd = 0 if tour.structure.qualifiers is None else tour.round + 1
    if seat in {e.seat for e in tour.entrants if e.active and e.round == rnd}:
        raise RegistrationError(f"seat {seat} is taken")
    if tour.structure.qualifiers is not None and rnd > tour.structure.qualifiers.rounds:
        raise RegistrationError("the final is played by the qualifiers only")


def register(tour: Tournament, name: str, seat: int) -> Entrant:
    """Add an entry at ``seat`` (1..10).  After the start it is a late entry: the stack
    (chips) is reduced by the deduction of the level being played (seed 000).  Raises
    RegistrationError as :func:`verify_register`, which it calls first."""
    verify_register(tour, name, seat)
    late = tour.clock.started and tour.structure.qualifiers is None
    level_number = tour.clock.level.number if late else 0
    deduction = tour.structure.late_deduction(level_number) if late else 0
    e = Entrant(len(tour.entrants) + 1, str(name).strip(), seat,
                tour.structure.starting_stack - deduction, level_number, deduction,
                tour.structure.buy_in,
                0 if tour.structure.qualifiers is None else tour.round + 1)
    tour.entrants.append(e)
    return e
