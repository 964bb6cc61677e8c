"""The house's own rounds of a tournament: the heads-up hand limit (seed 003) and the
qualifiers and final of a mini (seed 002).  Functions of a
:class:`engine.tournament.tournament.Tournament`, which calls them after each hand; each
returns the :class:`engine.tournament.clock.ClockAlert` list it caused (pure, no clock read).
"""

from __future__ import annotations

from typing import Protocol

from engine.tournament.clock import Clock, ClockAlert
from engine.tournament.entrant import Entrant
from engine.tournament.structure import Structure


class Tournament(Protocol):
    """What these rules read and change of a
    :class:`engine.tournament.tournament.Tournament` (named here, not imported, so that
    the two modules import in one direction only)."""

    structure: Structure
    clock: Clock
    round: int
    round_over: bool
    finished: bool
    heads_up_hands: int | None
    sudden_death: bool
    notices: list[str]

    @property
    def current(self) -> object | None: ...  # the hand in play, None between hands

    def active(self) -> list[Entrant]: ...
    def round_entrants(self) -> list[Entrant]: ...
    def out_count(self) -> int: ...
    def _alert(self, kind: str, t: float, message: str) -> ClockAlert: ...
    def _eliminate(self, now: float, e: Entrant, *, by: Entrant | None = None,
                   keep_chips: bool = False) -> list[ClockAlert]: ...


def heads_up_limit(tour: Tournament, now: float, was_heads_up: bool) -> list[ClockAlert]:
    """The heads-up hand limit (seed 003): announced when two players are left, counted
    after each heads-up hand; at the limit the bigger stack wins, equal stacks play one
    sudden-death hand."""
    out: list[ClockAlert] = []
    limit = tour.structure.heads_up_hand_limit
    if limit is None or tour.finished or len(tour.active()) != 2:
        return out
    if tour.heads_up_hands is None:
        tour.heads_up_hands = 0
        out.append(tour._alert("heads_up_limit", now, f"Heads-up: {limit}-hand limit"))
        return out
    if not was_heads_up:
        return out
    tour.heads_up_hands += 1
    a, b = tour.active()
    if tour.heads_up_hands == limit - 1:
        out.append(tour._alert("heads_up_last_hand", now, "Last heads-up hand"))
    if tour.heads_up_hands >= limit:
        if a.chips == b.chips:
            if not tour.sudden_death:
                out.append(tour._alert("sudden_death", now,
                                       "Chips tied: one sudden-death hand"))
            tour.sudden_death = True
        else:
            loser = a if a.chips < b.chips else b
            winner = b if loser is a else a
            out += tour._eliminate(now, loser, by=winner, keep_chips=True)
    return out


def check_round_end(tour: Tournament, now: float) -> list[ClockAlert]:
    """End a qualifier or the final (seed 002) once its time is up or one player is left,
    between hands: the top ``advance`` stacks qualify (ties at the cut by seat order, our
    choice, with a notice); everyone else gets a place."""
    q = tour.structure.qualifiers
    if q is None or tour.round_over or not tour.clock.started or tour.current is not None:
        return []
    if not (tour.clock.finished or len(tour.active()) <= 1):
        return []
    tour.round_over = True
    final = tour.round > q.rounds
    ranked = sorted(tour.active(), key=lambda e: (-e.chips, e.seat or 0))
    cut = 1 if final else q.advance
    notes = []
    if len(ranked) > cut and ranked[cut - 1].chips == ranked[cut].chips:
        notes.append(f"tie at the cut ({ranked[cut - 1].chips:,} chips): decided by seat "
                     "order (our choice); the floor may correct it")
    for e in reversed(ranked):  # give places: the smallest stack gets the worst place
        e.out_order = tour.out_count() + 1
        e.out_at = now
        e.chips_at_out = e.chips
    winners = ranked[:cut]
    if len(ranked) < cut:  # fewer survivors than places: take the last out
        outs = sorted((e for e in tour.round_entrants() if e not in ranked),
                      key=lambda e: -(e.out_order or 0))
        winners += outs[:cut - len(ranked)]
    for e in winners:
        e.qualified = True
    tour.notices = notes
    names = ", ".join(e.name for e in winners)
    out = [tour._alert("round_over", now, ("Final over: " if final else
                                           f"Qualifier {tour.round} over: ") + names)]
    if final:
        tour.finished = True
        out.append(tour._alert("tournament_over", now, f"{winners[0].name} wins"))
    return out
