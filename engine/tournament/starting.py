"""Starting a tournament or its next round: who must be seated, the bounty chip's holder
(seed 003), the bonus wheel's draw (seed 000, Party Pop) and the final's seats (seed 002:
the qualifiers from seat 1 in order of qualification, each with a fresh starting stack).
Functions of a :class:`engine.tournament.tournament.Tournament`, which delegates to them
(pure: the draws come from the tournament's seeded random streams).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Protocol

from engine.tournament.clock import Clock, ClockAlert, ClockError
from engine.tournament.entrant import Entrant
from engine.tournament.registration import RegistrationError
from engine.tournament.structure import Structure


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
    heads_up_hands: int | None
    sudden_death: bool
    bonus_hand: int | None
    bonus_amount: int

    def active(self) -> list[Entrant]: ...
    def _rng(self, purpose: str) -> random.Random: ...
    def _round_structure(self) -> Structure: ...


def verify_start(tour: Tournament) -> None:
    """Raises as :func:`start` would now; changes nothing.

    Raises:
        ClockError: the tournament has started, a round is still on, or it is over.
        RegistrationError: fewer than two players (or qualifiers for the final).
    """
    q = tour.structure.qualifiers
    if q is None and tour.clock.started:
        raise ClockError("the tournament has started")
    if q is None and len(tour.active()) < 2:
        raise RegistrationError("at least two players are needed to start")
    if q is None:
        return
    if tour.clock.started and not tour.round_over:
        raise ClockError(f"round {tour.round} is still being played")
    if tour.finished:
        raise ClockError("the tournament is over")
    nxt = tour.round + 1
    final = nxt > q.rounds  # the final seats the qualifiers
    if len([e for e in tour.entrants if (e.qualified and e.round <= q.rounds if final
                                           else e.round == nxt)]) < 2:
        raise RegistrationError("fewer than two qualifiers for the final" if final else
                                f"at least two players are needed for qualifier {nxt}")


def start(tour: Tournament, now: float) -> list[ClockAlert]:
    """Start the tournament (or the next qualifier, or the final) at ``now`` (monotonic
    seconds); returns the clock's alerts.  Raises as :func:`verify_start`."""
    verify_start(tour)
    q = tour.structure.qualifiers
    if q is None:
        out = tour.clock.start(now)
        _assign_bounty(tour)
        _draw_wheel(tour)
        if tour.structure.heads_up_hand_limit and len(tour.active()) == 2:
            tour.heads_up_hands = 0
        return out
    next_round = tour.round + 1
    if next_round > q.rounds:  # the final: seat the qualifiers
        qual = [e for e in tour.entrants if e.qualified and e.round <= q.rounds]
        for i, e in enumerate(qual, 1):
            tour.entrants.append(dataclasses.replace(
                e, entry_id=len(tour.entrants) + 1, seat=i,
                chips=tour.structure.starting_stack, round=next_round, qualified=False,
                out_order=None, out_at=None, spend=0))
    tour.round = next_round
    tour.round_over = False
    tour.heads_up_hands = None
    tour.sudden_death = False
    tour.clock = Clock(tour._round_structure())
    if tour.structure.heads_up_hand_limit and len(tour.active()) == 2:
        tour.heads_up_hands = 0
    return tour.clock.start(now)


def _assign_bounty(tour: Tournament) -> None:
    if tour.structure.bounty is None:
        return
    holder = tour._rng("bounty").choice(tour.active())
    holder.bounty = True
    holder.chips += tour.structure.bounty.chips


def _draw_wheel(tour: Tournament) -> None:
    w = tour.structure.bonus_wheel
    if w is None:
        return
    rng = tour._rng("wheel")
    tour.bonus_hand = rng.randint(w.first_hand, w.last_hand)
    tour.bonus_amount = rng.choice(w.segments)
