"""Breaking tables and drawing the final table of a venue, and what a table's hand boundary
decides (pure).

* **Breaking** (TDA 10, TDA 11-C): tables break in the house's fixed ``break_order``.  The
  next table to break is the first open table of that order; it breaks at its own hand
  boundary once its players fit in the open seats of the other open tables.  Its players
  are seated by a random draw into those seats (a table first, then a seat), the seats
  kept so that the tables end as level as possible.
* **The final table:** once every remaining player fits at the table that breaks last (the
  host), each open table stops at its next hand boundary (it is *held*); when all are held
  every player draws a fresh seat at the host and the other tables are broken, in the
  break order.
* **A hand boundary** (:func:`hand_finished`): the busted players leave; then the final
  table, a break or balancing moves are decided, in that order of precedence, for the
  table at its boundary only (a table of fewer than two players deals no hand, so it is
  always at a boundary: it breaks, or is counted as held, without waiting).  The other tables are in the middle of a hand: a player
  drawn into one of their seats sits down and is dealt in by that table's own rule.

>>> import random
>>> from engine.tournament.seating import draw_seats, new_venue
>>> venue, _ = draw_seats(new_venue([6, 6], [1, 2]), list("ABCDEFGH"), random.Random(2))
>>> venue = hand_started(venue, 1, *sorted(venue.table(1).players)[:3])
>>> gone = [p for p in venue.table(1).players.values()][:3]
>>> venue, moves = hand_finished(venue, 1, gone, random.Random(3))
>>> venue.final_table, sorted({m.reason for m in moves}), venue.table(1).held
(None, [], True)
>>> venue = hand_started(venue, 2, *sorted(venue.table(2).players)[:3])
>>> venue, moves = hand_finished(venue, 2, [], random.Random(3))
>>> venue.final_table, len(moves), [t.status for t in venue.tables]
(2, 5, ['broken', 'open'])

Sources: Poker TDA Rules 2024, Rule 10 (players from a broken table take new seats by a
random draw and may take any seat, but are not dealt in between the small blind and the
button) and Rule 11-C (the table a player leaves is set by a predetermined procedure:
here the house's break order, fixed before the start).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine.tournament.balancing import balance, record_positions
from engine.tournament.seating import (
    Move,
    SeatingError,
    TableSeats,
    VenueSeating,
    place_players,
)

__all__ = ["break_table", "can_break", "draw_final_table", "final_table_due",
           "final_table_host", "hand_finished", "hand_started", "next_to_break"]


def next_to_break(state: VenueSeating) -> int | None:
    """The open table that breaks next (first in the break order), or None when fewer than
    two tables are open."""
    open_numbers = [n for n in state.break_order if state.table(n).status == "open"]
    return open_numbers[0] if len(open_numbers) > 1 else None


def final_table_host(state: VenueSeating) -> int | None:
    """The open table that breaks last, where the final table is drawn (None when no table
    is open)."""
    open_numbers = [n for n in state.break_order if state.table(n).status == "open"]
    return open_numbers[-1] if open_numbers else None


def final_table_due(state: VenueSeating) -> bool:
    """Whether two or more tables are open and every remaining player fits at the host."""
    host = final_table_host(state)
    return (state.final_table is None and len(state.open_tables()) > 1 and host is not None
            and state.remaining() <= state.table(host).seats)


def can_break(state: VenueSeating, number: int) -> bool:
    """Whether table ``number`` is the next to break and its players fit in the open seats
    of the other open tables."""
    if next_to_break(state) != number:
        return False
    room = sum(len(t.open_seats()) for t in state.open_tables() if t.number != number)
    return state.table(number).count <= room


def break_table(state: VenueSeating, number: int,
                rng: random.Random) -> tuple[VenueSeating, list[Move]]:
    """Break table ``number``: its players drawn into the other open tables' open seats.

    Raises:
        SeatingError: the table is not the next to break, or its players do not fit.
    """
    if not can_break(state, number):
        raise SeatingError(f"table {number} cannot break now (next to break: "
                           f"{next_to_break(state)})")
    table = state.table(number)
    origin = {p: (number, s) for s, p in table.players.items()}
    state = state.with_table(replace(table, occupants=(None,) * table.seats,
                                     status="broken", positions=None))
    others = [t.number for t in state.open_tables()]
    return place_players(state, list(origin), others, rng, "break", origin)


def draw_final_table(state: VenueSeating,
                     rng: random.Random) -> tuple[VenueSeating, list[Move]]:
    """The final table: every remaining player draws a fresh seat at the host; the other
    open tables are broken.  Every player gets a move, those already at the host too.

    Raises:
        SeatingError: the final table is not due.
    """
    if not final_table_due(state):
        raise SeatingError("the final table is not due: the players do not fit at one table")
    host = final_table_host(state)
    assert host is not None
    origin = dict(sorted(state.seated().items(), key=lambda kv: kv[1]))
    for table in state.open_tables():
        status = "open" if table.number == host else "broken"
        state = state.with_table(replace(table, occupants=(None,) * table.seats,
                                         status=status, positions=None, held=False))
    state, moves = place_players(state, list(origin), [host], rng, "final_table", origin)
    return replace(state, final_table=host), moves


def hand_started(state: VenueSeating, number: int, button: int, small_blind: int,
                 big_blind: int) -> VenueSeating:
    """Table ``number`` reports the positions of the hand it has just started (1-based
    seats; the button and small blind may be empty seats).  See
    :func:`engine.tournament.balancing.record_positions` for the errors raised."""
    return record_positions(state, number, button, small_blind, big_blind)


def hand_finished(state: VenueSeating, number: int, busted: Sequence[str],
                  rng: random.Random, balancing: bool = True
                  ) -> tuple[VenueSeating, list[Move]]:
    """Table ``number`` is at a hand boundary and ``busted`` (players of that table, in
    the order they finish, first out first) are out.  Returns the new state and the moves
    decided now: the final-table draw, a break of this table, or balancing moves from it
    (``balancing`` False: none; the live director decides those itself,
    :mod:`engine.tournament.venue_live`).

    Raises:
        SeatingError: the table is not playing, or a busted player is not seated there or
            is named twice.  Nothing changes.
    """
    table = state.table(number)
    if table.status != "open" or table.held:
        raise SeatingError(f"table {number} is not playing hands now")
    seats = {p: s for s, p in table.players.items()}
    if len(set(busted)) != len(busted):
        raise SeatingError("a busted player is named twice")
    for player in busted:
        if player not in seats:
            raise SeatingError(f"player {player!r} is not seated at table {number}")
        table = table.with_player(seats[player], None)
    state = replace(state.with_table(table), out=state.out + tuple(busted))
    if final_table_due(state):
        state = state.with_table(replace(state.table(number), held=True))
        if all(t.held or idle(t) for t in state.open_tables()):
            return draw_final_table(state, rng)
        return state, []
    if can_break(state, number):
        return break_table(state, number, rng)
    waiting = next_to_break(state)
    if waiting is not None and idle(state.table(waiting)) and can_break(state, waiting):
        return break_table(state, waiting, rng)
    return balance(state, number) if balancing else (state, [])


def idle(table: TableSeats) -> bool:
    """Whether ``table`` cannot deal a hand (fewer than two players): it is always at a
    hand boundary, so a break or the final-table draw need not wait for it."""
    return table.count < 2
