"""Eliminations that change more than one entry: players out in the same hand who tie
(TDA: equal chips at the hand's start share the best place they cover), and undoing a
mistaken elimination (places behind it move up, the knockout is taken back).  Functions of
a :class:`engine.tournament.tournament.Tournament`, which delegates to them (pure).
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

from engine.errors import InvalidInputError
from engine.tournament.clock import ClockAlert, ClockError
from engine.tournament.entrant import Entrant


class Tournament(Protocol):
    """What these functions read and change of a
    :class:`engine.tournament.tournament.Tournament` (named here, not imported, so that
    the two modules import in one direction only)."""

    entrants: list[Entrant]
    finished: bool
    heads_up_hands: int | None
    sudden_death: bool

    @property
    def current(self) -> object | None: ...  # the hand in play, None between hands

    def active(self) -> list[Entrant]: ...
    def round_entrants(self) -> list[Entrant]: ...
    def place(self, e: Entrant) -> int | None: ...
    def _eliminate(self, now: float, e: Entrant, *, by: Entrant | None = None,
                   keep_chips: bool = False) -> list[ClockAlert]: ...


def eliminate_tied(tour: Tournament, now: float, group: list[Entrant],
                   by: Entrant) -> list[ClockAlert]:
    """Players out in the same hand with the same chips at its start tie (TDA): they
    share the best of the places they cover (:meth:`Tournament.prizes` splits those
    places' prizes)."""
    out: list[ClockAlert] = []
    for e in group:
        out += tour._eliminate(now, e, by=by)
    if len(group) > 1:
        top = max(e.out_order or 0 for e in group)
        for e in group:
            e.out_order = top
        names = {e.name for e in group}
        out = [dataclasses.replace(a, message=f"{a.message.split(' finishes ')[0]} finishes "
                                              f"{tour.place(group[0])} (tied)")
               if a.kind == "eliminated" and a.message.split(" finishes ")[0] in names
               else a for a in out]
    return out


def verify_eliminate(tour: Tournament, seat: int, by: int | None = None) -> None:
    """Raises as :meth:`engine.tournament.tournament.Tournament.eliminate` of ``seat``
    (knocked out by the seat ``by``) would; changes nothing.

    Raises:
        ClockError: a hand is being played.
        InvalidInputError: nobody plays in ``seat`` or ``by``, or they are the same seat.
    """
    if tour.current is not None:
        raise ClockError("finish the hand first")
    seats = {e.seat for e in tour.active()}
    if seat not in seats:
        raise InvalidInputError(f"no player in seat {seat}")
    if by is not None and by == seat:
        raise InvalidInputError(f"seat {seat} cannot knock themselves out")
    if by is not None and by not in seats:
        raise InvalidInputError(f"no player in seat {by}")


def undo_target(tour: Tournament, entry_id: int | None = None, *,
                chips: int | None = None) -> tuple[Entrant, int]:
    """The entry :func:`undo_elimination` would put back and its chips, changing nothing
    (a console shows its undo only when this does not raise).

    Raises:
        ClockError: a hand is being played.
        InvalidInputError: nobody is out, ``entry_id`` is not, no chips to return with
            (a bust in a hand needs ``chips``), or their seat is taken.
    """
    if tour.current is not None:
        raise ClockError("finish the hand first")
    outs = sorted((e for e in tour.round_entrants() if not e.active),
                  key=lambda e: e.out_order or 0)
    if not outs:
        raise InvalidInputError("nobody has been eliminated")
    e = outs[-1] if entry_id is None else next(
        (x for x in outs if x.entry_id == entry_id), None)
    if e is None:
        raise InvalidInputError(f"entry {entry_id} is not eliminated")
    give = e.chips_at_out if chips is None else chips
    if not isinstance(give, int) or give <= 0:
        raise InvalidInputError(f"give the chips {e.name} returns with (got {give!r})")
    if any(x.seat == e.seat for x in tour.active()):
        raise InvalidInputError(f"seat {e.seat} is taken")
    return e, give


def undo_elimination(tour: Tournament, entry_id: int | None = None, *,
                     chips: int | None = None) -> Entrant:
    """Put a mistakenly eliminated player back (default: the last one out) with
    ``chips`` (default: the chips they had when eliminated; needed when they busted in a
    hand).  Later finishing places move up accordingly.  Raises as :func:`undo_target`."""
    e, give = undo_target(tour, entry_id, chips=chips)
    outs = [x for x in tour.round_entrants() if not x.active]
    order = e.out_order or 0
    for x in outs:
        if (x.out_order or 0) > order:
            x.out_order = (x.out_order or 0) - 1
    if e.knocked_out_by is not None:
        for x in tour.entrants:
            if x.entry_id == e.knocked_out_by:
                x.knockouts -= 1
    e.out_order = e.out_at = e.knocked_out_by = None
    e.chips = give
    tour.finished = False
    if len(tour.active()) > 2:
        tour.heads_up_hands = None
        tour.sudden_death = False
    return e
