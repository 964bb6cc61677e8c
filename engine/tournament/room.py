"""What the room's screen shows of a tournament beside the clock: payouts, league points,
the chip counts, the players out with their places, the bounty chip, a late entry's
stack, the wheel's name and, once one player is left, the winner and every place.

Pure: computed from a :class:`engine.tournament.tournament.Tournament` on demand (it never
changes the tournament).  Money is whole currency units, chips are ints and league points
are two-decimal strings (:func:`engine.tournament.points.points_text`).
"""

from __future__ import annotations

import dataclasses
import operator
import weakref
from collections.abc import Sequence
from decimal import Decimal
from typing import Protocol

from engine.tournament.clock import Clock
from engine.tournament.entrant import Entrant
from engine.tournament.points import league_points as _points
from engine.tournament.points import points_text
from engine.tournament.structure import Structure
from engine.views import PlaceLine, RoomView


class RoomReading(Protocol):
    """What the room view reads of a :class:`engine.tournament.tournament.Tournament`."""

    @property
    def structure(self) -> Structure: ...
    @property
    def entrants(self) -> Sequence[Entrant]: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def finished(self) -> bool: ...
    @property
    def heads_up_hands(self) -> int | None: ...
    @property
    def round(self) -> int: ...

    def payouts(self) -> list[tuple[int, int]]: ...
    def league_points(self) -> dict[int, Decimal]: ...
    def standings(self) -> list[tuple[int | None, Entrant]]: ...
    def round_entrants(self) -> list[Entrant]: ...
    def registration_open(self) -> bool: ...

#: places whose league points the screen lists at most (our choice: what fits one panel)
POINTS_PLACES = 5


#: every field of an entry, as one tuple (a C call: the memo's key is made on every event)
_ENTRANT_KEY = operator.attrgetter(*(f.name for f in dataclasses.fields(Entrant)))

#: tournament -> (its inputs' key, its view): the last view made, reused while the inputs
#: are equal (the TV asks for the room's view after every event; it changes at a few)
_MEMO: weakref.WeakKeyDictionary[RoomReading, tuple[tuple[object, ...], RoomView]] = (
    weakref.WeakKeyDictionary())


def room_key(t: RoomReading) -> tuple[object, ...]:
    """Everything :func:`build_room_view` reads of ``t``: the structure, the round, how it
    ended, the clock's start and level, whether registration is open and every field of
    every entry (chips, seat, place, spend, knockouts...).  Equal keys, equal views."""
    clock = t.clock
    return (t.structure, t.round, t.finished, t.heads_up_hands, t.registration_open(),
            clock.started, clock.level.number if clock.started else None,
            tuple(map(_ENTRANT_KEY, t.entrants)))


def room_view(t: RoomReading) -> RoomView:
    """The :class:`engine.views.RoomView` of ``t`` now (does not change state): the last
    one made for ``t`` when :func:`room_key` is unchanged, else :func:`build_room_view`."""
    key = room_key(t)
    memo = _MEMO.get(t)
    if memo is not None and memo[0] == key:
        return memo[1]
    view = build_room_view(t)
    _MEMO[t] = (key, view)
    return view


def build_room_view(t: RoomReading) -> RoomView:
    """The :class:`engine.views.RoomView` of ``t``, made anew (does not change state)."""
    s = t.structure
    pay = dict(t.payouts())
    points = t.league_points()
    standings = t.standings()
    ins = [e for place, e in standings if e.active]
    lines = [_line(place, e, pay, points) for place, e in standings if place is not None]
    finished = t.finished and len(ins) <= 1
    places = tuple(lines) if finished else ()
    out = tuple(ln for ln in lines if ln.place != 1 or not finished)
    return RoomView(
        currency=s.currency, payouts=tuple(sorted(pay.items())),
        points=_points_table(t), stacks=tuple((e.name, e.chips) for e in ins),
        eliminated=out, bounty_holder=_bounty_holder(t), late_entry_stack=late_entry_stack(t),
        starting_stack=s.starting_stack,
        wheel_name=s.bonus_wheel.name if s.bonus_wheel is not None else "",
        finished=finished, places=places, decided=_decided(t) if finished else "")


def late_entry_stack(t: RoomReading) -> int | None:
    """The chips a late entry would get now (the starting stack less the deduction of the
    level being played, seed 000), or None when late registration is not open."""
    if not t.clock.started or t.structure.qualifiers is not None or not t.registration_open():
        return None
    return t.structure.starting_stack - t.structure.late_deduction(t.clock.level.number)


def _line(place: int, e: Entrant, pay: dict[int, int],
          points: dict[int, Decimal]) -> PlaceLine:
    value = points_text(points.get(e.entry_id)) or ""
    return PlaceLine(place=place, name=e.name, payout=pay.get(place, 0),
                     points="" if value == "0.00" else value)


def _points_table(t: RoomReading) -> tuple[tuple[int, str], ...]:
    """(place, points) for tonight's field, at most :data:`POINTS_PLACES` places with points
    (knockout and high-hand bonuses not included)."""
    cfg = t.structure.points
    n = len(t.round_entrants())
    if cfg is None or n < 2:
        return ()
    b = t.structure.buy_in or 1
    out = []
    for k in range(1, min(n, POINTS_PLACES) + 1):
        value = points_text(_points(cfg, n=n, k=k, b=b, e=b))
        if value is not None and value != "0.00":
            out.append((k, value))
    return tuple(out)


def _bounty_holder(t: RoomReading) -> str:
    """Who holds the bounty chip: its first holder, or whoever knocked them out."""
    holder = next((e for e in t.round_entrants() if e.bounty), None)
    seen: set[int] = set()
    while holder is not None and not holder.active and holder.knocked_out_by is not None \
            and holder.entry_id not in seen:
        seen.add(holder.entry_id)
        holder = next((e for e in t.entrants if e.entry_id == holder.knocked_out_by), None)
    return holder.name if holder is not None else ""


def _decided(t: RoomReading) -> str:
    """How the end came, when it was not by the last chip: the heads-up hand limit."""
    limit = t.structure.heads_up_hand_limit
    if limit and t.heads_up_hands is not None and t.heads_up_hands >= limit:
        return f"decided on chips after the {limit}-hand heads-up limit"
    return ""
