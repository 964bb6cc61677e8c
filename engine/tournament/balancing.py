"""Balancing the tables of a venue (pure): who moves, from which table, to which seat.

The house keeps the open tables within ``max_difference`` players of each other (TDA 11:
one).  Moves are decided at a table's hand boundary, when no hand is being played there,
and only a table at its boundary gives a player:

* **Which table gives** (TDA 11, "a predetermined procedure"): the table at its hand
  boundary, while it is one of the tables with the most players and the room is out of
  balance.  A table that is not the longest gives nobody; the longest table's own next
  boundary does.
* **Which player moves** (TDA 11 and 12): the player who would take the big blind next at
  the giving table, found from the positions of the hand just played there with the
  dead-button rule (TDA 32): the first seated player clockwise after that hand's big blind.
* **To which table:** the table with the fewest players (the lowest number among equals)
  that has a legal seat, if it has two players fewer than the giver or more.
* **To which seat** (TDA 11 and 12: "the worst position", never the small blind): the
  first empty seat clockwise after the big blind of the latest hand there, so the player
  takes the next big blind when such a seat exists; never the next hand's small blind, and
  never a seat between the next hand's button and small blind, where the player could not
  be dealt in.  A table with only such seats free takes nobody now; the move waits.

>>> from engine.tournament.seating import TablePositions, TableSeats
>>> table = TableSeats(1, ("A", None, "C", "D", None, "F"), "open", TablePositions(3, 4, 6))
>>> next_hand_positions(table)
(4, 6, 1)
>>> worst_seat(table)
2
>>> player_to_move(table)
(1, 'A')

Sources: Poker TDA Rules 2024, Rules 11 and 12 (balancing tables: the player due the big
blind next moves to the worst position, never the small blind; the table a player leaves
is set by a predetermined procedure), Rule 32 (dead button), Rule 10 (no hand dealt between
the small blind and the button).  The TDA's text is not kept in this repository: the
numbers are those of the 2024 edition as the venue issue cites them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from engine.tournament.seating import (
    Move,
    SeatingError,
    TablePositions,
    TableSeats,
    VenueSeating,
)


def clockwise_from(table: TableSeats, seat: int) -> list[int]:
    """Every seat of ``table`` once, clockwise, starting with the seat after ``seat``."""
    n = table.seats
    return [(seat + k - 1) % n + 1 for k in range(1, n + 1)]


def next_hand_positions(table: TableSeats) -> tuple[int, int, int] | None:
    """(button, small blind, big blind) seats of the table's next hand after its latest
    one, by the dead-button rule (TDA 32), for the players seated now; None before the
    table's first hand or with fewer than two players."""
    pos = table.positions
    seated = table.players
    if pos is None or len(seated) < 2:
        return None
    big_blind = next(s for s in clockwise_from(table, pos.big_blind) if s in seated)
    small_blind = pos.big_blind
    button = pos.small_blind
    if button == big_blind:
        button = small_blind
    return button, small_blind, big_blind


def may_take(table: TableSeats, seat: int) -> bool:
    """Whether a newcomer in the empty ``seat`` would be dealt into the next hand outside
    the small blind and outside the seats between the button and the small blind, by the
    dead-button rule (TDA 32).  Always true when the table has no positions: before its
    first hand, or once it was left with fewer than two players (its next hand starts with
    a draw for the button)."""
    pos = table.positions
    if pos is None:
        return True
    seated = set(table.players) | {seat}
    big_blind = next(s for s in clockwise_from(table, pos.big_blind) if s in seated)
    small_blind = pos.big_blind
    button = pos.small_blind if pos.small_blind != big_blind else small_blind
    if seat == small_blind:
        return False
    between = []
    for s in clockwise_from(table, button):
        if s == small_blind:
            break
        between.append(s)
    return seat not in between


def worst_seat(table: TableSeats) -> int | None:
    """The empty seat a player moved in to balance takes: the first empty seat clockwise
    after the latest hand's big blind that :func:`may_take` allows, so the player takes the
    next big blind when such a seat exists; None when no empty seat is allowed now.  A
    table without positions (before its first hand, or left with fewer than two players)
    gives its lowest empty seat: no blind is due there yet."""
    empty = table.open_seats()
    pos = table.positions
    if pos is None:
        return empty[0] if empty else None
    return next((s for s in clockwise_from(table, pos.big_blind)
                 if s in empty and may_take(table, s)), None)


def player_to_move(table: TableSeats) -> tuple[int, str]:
    """(seat, player) of the player who would take the big blind next at ``table``;
    before its first hand, the player in its lowest seat.

    Raises:
        SeatingError: nobody is seated there.
    """
    seated = table.players
    if not seated:
        raise SeatingError(f"table {table.number} has nobody to move")
    start = table.positions.big_blind if table.positions is not None else table.seats
    seat = next(s for s in clockwise_from(table, start) if s in seated)
    return seat, seated[seat]


def out_of_balance(state: VenueSeating) -> bool:
    """Whether two open tables differ by more than the house's ``max_difference``."""
    counts = [t.count for t in state.open_tables()]
    return len(counts) > 1 and max(counts) - min(counts) > state.max_difference


def destination(state: VenueSeating, giver: int) -> tuple[int, int] | None:
    """(table, seat) the next balancing move from table ``giver`` goes to: the worst seat
    at the open table with the fewest players that has a legal seat (lowest number among
    equals), if it has at least two players fewer than the giver; else None."""
    count = state.table(giver).count
    others = sorted((t for t in state.open_tables() if t.number != giver and not t.held),
                    key=lambda t: (t.count, t.number))
    for table in others:
        if table.count + 1 >= count:
            return None
        seat = worst_seat(table)
        if seat is not None:
            return table.number, seat
    return None


def balance(state: VenueSeating, number: int,
            most: int | None = None) -> tuple[VenueSeating, list[Move]]:
    """The balancing moves decided at table ``number``'s hand boundary: while the room is
    out of balance and ``number`` is one of the tables with the most players, its player
    due the big blind next moves to the worst seat of the shortest table (at most ``most``
    players; None: as many as that takes).

    Returns the new state and the moves (none when nothing is due).

    Raises:
        SeatingError: ``number`` is not an open table.
    """
    if state.table(number).status != "open":
        raise SeatingError(f"table {number} is not in play")
    moves: list[Move] = []
    while out_of_balance(state) and (most is None or len(moves) < most):
        giver = state.table(number)
        if giver.count < max(t.count for t in state.open_tables()):
            break
        target = destination(state, number)
        if target is None:
            break
        seat, player = player_to_move(giver)
        state = state.with_table(giver.with_player(seat, None))
        receiver = state.table(target[0])
        state = state.with_table(receiver.with_player(target[1], player))
        moves.append(Move(player, number, seat, target[0], target[1], "balance"))
    return state, moves


def planned_moves(state: VenueSeating, keep: Sequence[tuple[int, int]] = (),
                  prefer: Sequence[int] = ()) -> tuple[tuple[int, int], ...]:
    """(giving table, receiving table) of each balancing move the room needs now, by the
    players' counts alone: decided the moment a table falls short (a bust), before the
    giving table's boundary names the player (TDA 11 and 12: the player due the big blind
    next, known only there).  While two open tables differ by more than
    ``max_difference``, a table with the most players gives one to the open table with the
    fewest, not held (the lowest number among equals), while that one has two players
    fewer or more.  Which of the longest tables gives (TDA 11-C, a set procedure): one
    still owing a move in ``keep`` (the moves planned before: a plan stands), else the
    first in ``prefer``, else the lowest number.

    >>> from engine.tournament.seating import new_venue, draw_seats
    >>> import random
    >>> venue, _ = draw_seats(new_venue([9, 9, 9], [1, 2, 3]), [f"P{i}" for i in range(20)],
    ...                       random.Random(1))
    >>> [t.count for t in venue.tables], planned_moves(venue)
    ([7, 6, 7], ())
    >>> short = venue.with_table(venue.table(2).with_player(
    ...     next(iter(venue.table(2).players)), None))
    >>> planned_moves(short), planned_moves(short, prefer=[3]), planned_moves(short, [(3, 2)])
    (((1, 2),), ((3, 2),), ((3, 2),))
    """
    counts = {t.number: t.count for t in state.open_tables()}
    takers = {t.number for t in state.open_tables() if not t.held}
    owed = Counter(giver for giver, _taker in keep)
    plan: list[tuple[int, int]] = []
    while len(counts) > 1 and max(counts.values()) - min(counts.values()) \
            > state.max_difference:
        top = max(counts.values())
        longest = [n for n in sorted(counts) if counts[n] == top]
        giver = next((n for n in longest if owed[n] > 0),
                     next((n for n in prefer if n in longest), longest[0]))
        short = sorted((counts[n], n) for n in takers if n != giver)
        if not short or short[0][0] + 2 > counts[giver]:
            break
        taker = short[0][1]
        plan.append((giver, taker))
        owed[giver] -= 1
        counts[giver] -= 1
        counts[taker] += 1
    return tuple(plan)


def record_positions(state: VenueSeating, number: int, button: int, small_blind: int,
                     big_blind: int) -> VenueSeating:
    """The state with table ``number``'s latest hand at these seats (1-based; the button
    and small blind may be empty seats: dead button, dead small blind).

    Raises:
        SeatingError: the table is not in play or is holding, a seat is out of range, or
            the big blind's seat is empty.
    """
    table = state.table(number)
    if table.status != "open" or table.held:
        raise SeatingError(f"table {number} is not playing hands now")
    for what, seat in (("button", button), ("small blind", small_blind),
                       ("big blind", big_blind)):
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 1 <= seat <= table.seats:
            raise SeatingError(f"the {what} seat must be 1..{table.seats}, got {seat!r}")
    if big_blind in (button, small_blind):
        raise SeatingError("the big blind's seat must differ from the button's and the "
                           "small blind's")
    if table.occupants[big_blind - 1] is None:
        raise SeatingError(f"the big blind's seat {big_blind} at table {number} is empty")
    return state.with_table(replace(table, positions=TablePositions(button, small_blind,
                                                                     big_blind)))
