"""Where every player of a venue sits: tables, seats, the first draw and late entries (pure).

A venue is one tournament played at several tables, numbered from 1, each with its own
seats numbered from 1 as printed on the felt.  :class:`VenueSeating` is an immutable value:
every function here takes one and returns a new one with the :class:`Move` records that
turned the old into the new, so the director can journal the moves, send them to the
tables and show them on every TV.  Randomness comes from a ``random.Random`` passed in
(seeded by the caller), never from the module.

A table is ``closed`` (not in play yet: the first draw opens only the tables it needs),
``open`` (playing) or ``broken`` (its players were drawn into other tables).  The tables
open and break in the house's fixed order, ``break_order``: the first draw opens the tables
that break last, the next table to break is the first open one in that order, and the last
table of the order hosts the final table (see :mod:`engine.tournament.breaking`).

>>> import random
>>> venue = new_venue([9, 9, 9], break_order=[3, 2, 1])
>>> venue, moves = draw_seats(venue, [f"P{i}" for i in range(1, 13)], random.Random(4))
>>> [t.count for t in venue.tables], len(moves)
([6, 6, 0], 12)
>>> venue, moves = late_entry(venue, "Late", random.Random(1))
>>> moves[0].reason, moves[0].from_table, venue.location("Late") == (moves[0].to_table,
...                                                                  moves[0].to_seat)
('late_entry', None, True)

Sources: Poker TDA 2024 Rule 6 (random seats) and Rule 7 (late registrants draw a seat by
the same process, from the same pool of open seats).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.errors import IllegalActionError, InvalidInputError
from engine.text import check_name_text, name_key, shown

#: Reasons a :class:`Move` is made.
MOVE_REASONS = ("draw", "late_entry", "balance", "break", "final_table")
#: Table statuses.
TABLE_STATUSES = ("closed", "open", "broken")
MAX_NAME = 24          # characters of a player's name, as at one table
MAX_TABLES = 64        # tables in one venue
MIN_SEATS, MAX_SEATS = 2, 10


class SeatingError(IllegalActionError):
    """A seating step the state does not allow now (player already seated, no open seat,
    unknown player, a table not in play).  Raising it changes nothing."""


class VenueSetupError(InvalidInputError):
    """A venue that cannot be set up (seat counts, break order, balance difference)."""


@dataclass(frozen=True)
class Move:
    """One player sat down or changed seats.

    ``from_table``/``from_seat`` are None for a player who was not seated before (the first
    draw, a late entry).  Tables and seats are 1-based.  ``reason`` is one of
    :data:`MOVE_REASONS`.
    """

    player: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    reason: str


@dataclass(frozen=True)
class TablePositions:
    """The button and blinds (1-based seats) of a table's latest hand, as the table reports
    them when the hand starts; a seat may be empty (dead button, dead small blind)."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True)
class TableSeats:
    """One table: ``occupants[seat - 1]`` is the player in that seat or None.

    ``positions``: of the latest hand started there (None before its first hand).
    ``held``: the table has stopped at a hand boundary to wait for the final-table draw.
    """

    number: int
    occupants: tuple[str | None, ...]
    status: str = "closed"
    positions: TablePositions | None = None
    held: bool = False

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.occupants)

    @property
    def count(self) -> int:
        """Players seated now."""
        return sum(p is not None for p in self.occupants)

    @property
    def players(self) -> dict[int, str]:
        """Seat (1-based) -> player, seats in order."""
        return {i + 1: p for i, p in enumerate(self.occupants) if p is not None}

    def open_seats(self) -> list[int]:
        """The empty seats (1-based), in order."""
        return [i + 1 for i, p in enumerate(self.occupants) if p is None]

    def with_player(self, seat: int, player: str | None) -> TableSeats:
        """A copy with ``seat`` holding ``player`` (None empties it).  A table left with
        fewer than two players forgets its positions: it can deal no hand, and its next
        hand starts with a draw for the button, as its first hand did."""
        occupants = tuple(player if i == seat - 1 else p for i, p in enumerate(self.occupants))
        positions = self.positions if sum(p is not None for p in occupants) >= 2 else None
        return replace(self, occupants=occupants, positions=positions)


@dataclass(frozen=True)
class VenueSeating:
    """The seating of a whole venue.

    ``tables[n - 1]`` is table ``n``.  ``break_order``: every table number once, the order
    tables break in (the last one hosts the final table).  ``max_difference``: the house's
    largest allowed difference in players between two open tables (TDA 11: one).  ``out``:
    the players eliminated, first out first.  ``final_table``: the table number once the
    final table has been drawn, else None.
    """

    tables: tuple[TableSeats, ...]
    break_order: tuple[int, ...]
    max_difference: int = 1
    out: tuple[str, ...] = ()
    final_table: int | None = None

    def table(self, number: int) -> TableSeats:
        """Table ``number`` (1-based).

        Raises:
            SeatingError: no such table.
        """
        if not isinstance(number, int) or not 1 <= number <= len(self.tables):
            raise SeatingError(f"there is no table {number!r} (tables 1..{len(self.tables)})")
        return self.tables[number - 1]

    def open_tables(self) -> list[TableSeats]:
        """The tables in play, by number."""
        return [t for t in self.tables if t.status == "open"]

    def seated(self) -> dict[str, tuple[int, int]]:
        """Player -> (table, seat) of everyone seated."""
        return {p: (t.number, s) for t in self.tables for s, p in t.players.items()}

    def location(self, player: str) -> tuple[int, int] | None:
        """(table, seat) of ``player``, or None when not seated."""
        return self.seated().get(player)

    def remaining(self) -> int:
        """Players still in (seated)."""
        return sum(t.count for t in self.tables)

    def with_table(self, table: TableSeats) -> VenueSeating:
        """A copy with ``table`` replacing the table of its number."""
        tables = list(self.tables)
        tables[table.number - 1] = table
        return replace(self, tables=tuple(tables))


def new_venue(seats: Sequence[int], break_order: Sequence[int],
              max_difference: int = 1) -> VenueSeating:
    """An empty venue of ``len(seats)`` tables, table ``n`` with ``seats[n - 1]`` seats.

    Args:
        seats: seats per table, each 2..10.
        break_order: every table number exactly once; tables break in this order and the
            last one hosts the final table.
        max_difference: players two open tables may differ by (1 or more; TDA 11 says 1).

    Raises:
        VenueSetupError: naming what is wrong.
    """
    seats = list(seats)
    if not 1 <= len(seats) <= MAX_TABLES:
        raise VenueSetupError(f"a venue has 1..{MAX_TABLES} tables, got {len(seats)}")
    for n, count in enumerate(seats, 1):
        if isinstance(count, bool) or not isinstance(count, int) \
                or not MIN_SEATS <= count <= MAX_SEATS:
            raise VenueSetupError(f"table {n} must have {MIN_SEATS}..{MAX_SEATS} seats, "
                                  f"got {count!r}")
    order = list(break_order)
    if sorted(order) != list(range(1, len(seats) + 1)) \
            or any(isinstance(n, bool) for n in order):
        raise VenueSetupError(f"break order must name every table 1..{len(seats)} once, "
                              f"got {order!r}")
    if isinstance(max_difference, bool) or not isinstance(max_difference, int) \
            or max_difference < 1:
        raise VenueSetupError(f"max difference must be a whole number of players >= 1, "
                              f"got {max_difference!r}")
    tables = tuple(TableSeats(n, (None,) * count) for n, count in enumerate(seats, 1))
    return VenueSeating(tables, tuple(order), max_difference)


def check_player(state: VenueSeating, player: object) -> str:
    """``player`` in NFC when it is a safe name not yet entered (seated or out), names
    compared by :func:`engine.text.name_key`.

    Raises:
        engine.text.UnsafeTextError: an empty, long or unsafe name.
        SeatingError: the player is already seated or was eliminated.
    """
    name = check_name_text(player, "player name", max_len=MAX_NAME)
    key = name_key(name)
    if any(key == name_key(p) for p in (*state.seated(), *state.out)):
        raise SeatingError(f"player {shown(name)} is already entered")
    return name


def opening_order(state: VenueSeating) -> list[int]:
    """Table numbers in the order they open: the reverse of the break order."""
    return list(reversed(state.break_order))


def draw_seats(state: VenueSeating, players: Sequence[str],
               rng: random.Random) -> tuple[VenueSeating, list[Move]]:
    """The first seat draw (TDA 6): every player gets a random seat.

    Only as many tables open as the players need, the ones that break last first; the
    players are spread so the open tables differ by at most one, then each table's seats
    are drawn at random.  Moves are given in the order of ``players``.

    Raises:
        SeatingError: tables already open, a name entered twice, more players than seats.
        engine.text.UnsafeTextError: an unsafe name.
    """
    if any(t.status != "closed" for t in state.tables):
        raise SeatingError("the first draw is over: late entries use late_entry()")
    names = [check_player(state, p) for p in players]
    if len({name_key(n) for n in names}) != len(names):
        raise SeatingError("a player is named twice in the draw")
    opened: list[int] = []
    room = 0
    for number in opening_order(state):
        if room >= len(names) and opened:
            break
        opened.append(number)
        room += state.table(number).seats
    if room < len(names):
        raise SeatingError(f"{len(names)} players do not fit in the venue's {room} seats")
    for number in opened:
        state = state.with_table(replace(state.table(number), status="open"))
    return place_players(state, names, sorted(opened), rng, "draw")


def late_entry(state: VenueSeating, player: str,
               rng: random.Random) -> tuple[VenueSeating, list[Move]]:
    """A late entry (TDA 7) drawn into an open seat of one of the open tables with the
    fewest players, so the entry never unbalances the room.  When every open table is full
    the next closed table (in opening order) opens for them.

    Raises:
        SeatingError: the player is already entered, the final table has been drawn or the
            tables are holding for it, or no seat is left in the venue.
        engine.text.UnsafeTextError: an unsafe name.
    """
    name = check_player(state, player)
    if state.final_table is not None:
        raise SeatingError("the final table has been drawn: no more entries")
    if any(t.held for t in state.tables):
        raise SeatingError("the tables are holding for the final-table draw: no entry now")
    tables = [t.number for t in state.open_tables() if t.open_seats()]
    if not tables:
        closed = [n for n in opening_order(state) if state.table(n).status == "closed"]
        if not closed:
            raise SeatingError("no open seat is left in the venue")
        state = state.with_table(replace(state.table(closed[0]), status="open"))
        tables = [closed[0]]
    return place_players(state, [name], tables, rng, "late_entry")


def fill_targets(state: VenueSeating, tables: Iterable[int], players: int,
                 rng: random.Random) -> dict[int, int]:
    """How many of ``players`` newcomers each of ``tables`` takes: one at a time to the
    table with the fewest players that has a seat left (ties drawn at random), so the
    tables end as level as their seats allow.

    Raises:
        SeatingError: the tables' open seats are fewer than ``players``.
    """
    counts = {n: state.table(n).count for n in tables}
    room = {n: len(state.table(n).open_seats()) for n in counts}
    if sum(room.values()) < players:
        raise SeatingError(f"{players} players do not fit in {sum(room.values())} open seats")
    taken = dict.fromkeys(counts, 0)
    for _ in range(players):
        free = [n for n in sorted(counts) if taken[n] < room[n]]
        least = min(counts[n] + taken[n] for n in free)
        pick = rng.choice([n for n in free if counts[n] + taken[n] == least])
        taken[pick] += 1
    return {n: k for n, k in taken.items() if k}


def place_players(state: VenueSeating, players: Sequence[str], tables: Iterable[int],
                  rng: random.Random, reason: str,
                  origin: dict[str, tuple[int, int]] | None = None,
                  ) -> tuple[VenueSeating, list[Move]]:
    """Seat ``players`` (not seated now) by a random draw into open seats of ``tables``:
    the seat pool is the open seats :func:`fill_targets` keeps (drawn at random within each
    table), shuffled, and the players take it in order.  ``origin``: player -> (table,
    seat) they came from, for the moves.

    Raises:
        SeatingError: not enough open seats.
    """
    targets = fill_targets(state, tables, len(players), rng)
    pool = [(n, s) for n, k in sorted(targets.items())
            for s in sorted(rng.sample(state.table(n).open_seats(), k))]
    rng.shuffle(pool)
    moves = []
    origin = origin or {}
    for player, (number, seat) in zip(players, pool, strict=True):
        state = state.with_table(state.table(number).with_player(seat, player))
        src = origin.get(player, (None, None))
        moves.append(Move(player, src[0], src[1], number, seat, reason))
    return state, moves
