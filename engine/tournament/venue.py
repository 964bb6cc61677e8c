"""The director of a venue of several tables, as a pure state machine (no I/O, no clock).

The director owns what spans the tables: the opening draw, balancing, breaking tables, the
final table, the clock, places and the chips of the whole room.  Each table plays its own
hands and reports them; :func:`step` takes the director's state and one input (a table's
report, the start) and returns the new state with the :class:`Order` records to send,
each already numbered in its table's command stream, so the same inputs in the same order
always give the same orders (the director's journal replays them after a restart).

**Rounds** (docs/design/venue-topics.md, "Rounds"): the director deals the venue a round
at a time.  It sends ``go`` to every playing table; when every one of them has reported
the end of that hand, the round's *boundary* is decided from the reports taken in table
order (never in the order they arrived): busts and places, the clock, then for each table
in order the final table, a break or balancing moves (:mod:`engine.tournament.breaking`).
A boundary goes out in two waves: first ``level``, ``move`` and ``signal break`` (a table
answers a move with ``moved`` and the player's chips), then, once every one is answered,
the ``seat`` of each player in transit at the receiving table; when those are answered too,
the next ``go``.

**Places**: the players busted in one round finish below everyone still in; among them the
one who started the hand with more chips finishes higher, and equal chips share the better
place (TDA: players eliminated on the same hand).  **Chips**: after every report, the
chips of every player still in (at a table, or moved and not yet seated) add up to the
chips bought in, or :class:`VenueStateError` is raised and nothing changes.

>>> state, orders = start(VenueSetup((9, 9), (1, 2), levels=((0, 50, 100, 0, 600_000),)),
...                       ["P1", "P2", "P3", "P4"], 1000, seed=7)
>>> sorted({o.kind for o in orders}), state.phase
(['level', 'seat'], 'seats')
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import InvalidInputError
from engine.text import name_key, shown
from engine.tournament import breaking
from engine.tournament.seating import (
    Move,
    SeatingError,
    VenueSeating,
    check_player,
    draw_seats,
    late_entry,
    new_venue,
)
from engine.tournament.venue_clock import LevelSpec, VenueClock, rank_busts

__all__ = ["Order", "VenueSetup", "VenueState", "VenueStateError", "enter", "seat_entries",
           "send_moves", "start", "step"]


class VenueStateError(InvalidInputError):
    """A report the director's state cannot take (unknown table, a hand out of turn, chips
    that do not add up); raising it changes nothing."""


@dataclass(frozen=True)
class VenueSetup:
    """What the director is given before the start.

    ``seats``: seats per table (table 1 first); ``break_order``: the house's order;
    ``max_difference``: players two tables may differ by (TDA 11: 1); ``levels``:
    (structure level index, small blind, big blind, ante in chips, duration in ms; 0: no
    end) of each blind level, in order.
    """

    seats: tuple[int, ...]
    break_order: tuple[int, ...]
    max_difference: int = 1
    levels: tuple[LevelSpec, ...] = ((0, 0, 0, 0, 0),)


@dataclass(frozen=True)
class Order:
    """A command for table ``table``: ``seq`` in its command stream (from 1), ``for_hand``
    (the table's last hand; 0 before its first), ``kind`` (seat, move, signal, level,
    go) and ``args`` (the message's fields in order: docs/design/venue-topics.md)."""

    table: int
    seq: int
    for_hand: int
    kind: str
    args: tuple[Any, ...]


@dataclass
class TableTrack:
    """What the director knows of one table's stream and hands."""

    number: int
    hand: int = 0                 # the table's last hand finished
    next_seq: int = 1             # its next command seq
    acked: int = 0                # the highest command seq answered
    report_mark: int = 0          # the highest report seq applied
    playing: bool = False         # dealt a ``go`` for the current round
    go_seq: int = 0               # that go's seq
    started: bool = False         # its hand_started for that go is in (live mode)
    report: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], int] | None = None
    online: bool = True


@dataclass(frozen=True)
class Transit:
    """A player moved (or being moved): from ``from_table`` to ``to_table``/``to_seat``;
    ``command``: the seq of the move or break at the giving table; ``left``: the giving
    table reported them ``moved``."""

    from_table: int
    to_table: int
    to_seat: int
    reason: str
    command: int
    left: bool = False
    seated: int = 0  # the seq of the seat sent to ``to_table`` (live mode; 0: not yet)


@dataclass
class VenueState:
    """The director's whole state; change it only through :func:`step`."""

    setup: VenueSetup
    seating: VenueSeating
    rng: random.Random
    tables: dict[int, TableTrack]
    chips: dict[str, int]                      # every player still in -> chips
    bought_in: int
    clock: VenueClock
    clock_ms: int = 0                          # live mode: ms the clock has run
    paused_at: int | None = None               # live mode: wall ms of the pause, if paused
    paused_ms: int = 0                         # live mode: wall ms paused before that
    planned: tuple[tuple[int, int], ...] = ()  # live mode: (giver, taker) moves announced
    transit: dict[str, Transit] = field(default_factory=dict)
    places: dict[str, int] = field(default_factory=dict)
    awaiting: dict[int, set[int]] = field(default_factory=dict)   # table -> seqs
    breaks: dict[int, int] = field(default_factory=dict)          # table -> its break seq
    phase: str = "seats"                       # seats, moves, play, over
    round: int = 0
    hands_played: int = 0
    moves: int = 0
    tables_broken: int = 0
    history: str = hashlib.sha256(b"").hexdigest()
    entering: list[tuple[str, int]] = field(default_factory=list)  # late entries, chips

    # ------------------------------------------------------------------ reading
    def remaining(self) -> int:
        """Players still in."""
        return len(self.chips)

    def pending(self) -> list[tuple[str, int, int]]:
        """(player, from table, to table) of each move not yet seated, by player."""
        return [(p, t.from_table, t.to_table) for p, t in sorted(self.transit.items())]

    def result(self) -> dict[str, Any]:
        """The venue's result: hands played, places, moves, tables broken, and the
        SHA-256 of its history (every round's reports and moves, in table order)."""
        return {"hands_played": self.hands_played,
                "places": dict(sorted(self.places.items(), key=lambda kv: (kv[1], kv[0]))),
                "moves": self.moves, "tables_broken": self.tables_broken,
                "history_sha256": self.history}

    def unanswered(self, table: int) -> int:
        """The highest seq sent to ``table`` (its orders above ``acked`` wait)."""
        return self.tables[table].next_seq - 1

    def clone(self) -> VenueState:
        """A copy to change while the original stays as it was (the seating and the
        setup are immutable and shared)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return replace(self, rng=rng, tables={n: replace(t) for n, t in self.tables.items()},
                       chips=dict(self.chips), clock=replace(self.clock),
                       transit=dict(self.transit), places=dict(self.places),
                       awaiting={n: set(w) for n, w in self.awaiting.items()},
                       breaks=dict(self.breaks), entering=list(self.entering))

    # ------------------------------------------------------------------ writing
    def order(self, table: int, kind: str, *args: Any, awaited: bool = True,
              for_hand: int | None = None) -> Order:
        t = self.tables[table]
        o = Order(table, t.next_seq, t.hand if for_hand is None else for_hand, kind, args)
        t.next_seq += 1
        if awaited:
            self.awaiting.setdefault(table, set()).add(o.seq)
        return o

    def check_chips(self) -> None:
        total = sum(self.chips.values())
        if total != self.bought_in:
            raise VenueStateError(f"the venue holds {total} chips, {self.bought_in} were "
                                  f"bought in")

    def digest(self, record: Any) -> None:
        text = json.dumps(record, separators=(",", ":"), sort_keys=True)
        self.history = hashlib.sha256(f"{self.history}\n{text}".encode()).hexdigest()


def start(setup: VenueSetup, players: Sequence[str], starting_chips: int,
          seed: int | str) -> tuple[VenueState, list[Order]]:
    """The opening draw (TDA 6, random seats with ``random.Random(f"{seed}:draw")``):
    every player seated with ``starting_chips``; the orders are the first ``level`` and a
    ``seat`` (reason ``draw``, for hand 0) for each player, table by table.

    Raises:
        VenueSetupError, SeatingError: a bad venue or player list (from seating.py).
        VenueStateError: ``starting_chips`` not a positive whole number.
    """
    if isinstance(starting_chips, bool) or not isinstance(starting_chips, int) \
            or starting_chips <= 0:
        raise VenueStateError(f"starting chips must be a whole number > 0, got "
                              f"{starting_chips!r}")
    rng = random.Random(f"{seed}:draw")
    seating = new_venue(setup.seats, setup.break_order, setup.max_difference)
    seating, moves = draw_seats(seating, list(players), rng)
    state = VenueState(setup, seating, rng,
                       {n: TableTrack(n) for n in range(1, len(setup.seats) + 1)},
                       dict.fromkeys(players, starting_chips),
                       starting_chips * len(players), VenueClock(setup.levels))
    orders = [state.order(t.number, "level", *state.clock.level_args())
              for t in seating.open_tables()]
    for m in sorted(moves, key=lambda m: (m.to_table, m.to_seat)):
        orders.append(state.order(m.to_table, "seat", m.player, m.to_seat, starting_chips,
                                  "draw"))
    state.digest(["draw", [[m.player, m.to_table, m.to_seat] for m in moves]])
    return state, orders


def step(state: VenueState, table: int, seq: int, kind: str, args: tuple[Any, ...],
         advance: Callable[[VenueState], list[Order]] | None = None,
         ) -> tuple[VenueState, list[Order]]:
    """Apply report ``seq`` of ``kind`` from ``table`` (the report's fields in ``args``:
    hand_started, hand_finished, moved, applied, refused, resumed) and return the new
    state and the orders it causes.  The state given is left as it was.  ``advance``
    decides what is due after the report (default: the rounds; the live director's is
    :func:`engine.tournament.venue_live.advance`).

    Raises:
        VenueStateError: a report out of turn, of an unknown table or kind, or one that
            breaks the chip count; the state given is unchanged.
    """
    if table not in state.tables:
        raise VenueStateError(f"there is no table {table}")
    new = state.clone()
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise VenueStateError(f"no report of kind {kind!r}")
    track = new.tables[table]
    if seq <= track.report_mark:
        raise VenueStateError(f"table {table}: report {seq} is applied already")
    track.report_mark = seq
    orders = handler(new, table, *args)
    orders += (advance or _advance)(new)
    new.check_chips()
    return new, orders


# ---------------------------------------------------------------------- reports
def _hand_started(s: VenueState, table: int, hand: int, button: int, small_blind: int,
                  big_blind: int) -> list[Order]:
    t = s.tables[table]
    if not t.playing or hand != t.hand + 1:
        raise VenueStateError(f"table {table}: hand {hand} was not dealt")
    s.seating = breaking.hand_started(s.seating, table, button, small_blind, big_blind)
    t.acked = max(t.acked, t.go_seq)
    t.started = True
    return []


def _hand_finished(s: VenueState, table: int, hand: int, chips: Sequence[tuple[str, int]],
                   busted: Sequence[tuple[str, int]], elapsed_ms: int) -> list[Order]:
    t = s.tables[table]
    if not t.playing or hand != t.hand + 1 or t.report is not None:
        raise VenueStateError(f"table {table}: hand {hand} was not being played")
    arriving = {p for p, m in s.transit.items() if m.to_table == table}  # live mode
    seated = set(s.seating.table(table).players.values()) - arriving
    reported = [p for p, _ in chips] + [p for p, _ in busted]
    if set(reported) != seated or len(reported) != len(seated):
        raise VenueStateError(f"table {table}: hand {hand} names other players than "
                              f"the ones seated there")
    if any(c == 0 for _, c in chips):
        raise VenueStateError(f"table {table}: a player without chips is not busted")
    t.acked = max(t.acked, t.go_seq)
    t.hand = hand
    t.report = (tuple(chips), tuple(busted), elapsed_ms)
    s.hands_played += 1
    for player, c in chips:
        s.chips[player] = c
    for player, _ in busted:
        s.chips[player] = 0
    return []


def _moved(s: VenueState, table: int, command: int, player: str, chips: int) -> list[Order]:
    move = s.transit.get(player)
    if move is None or move.from_table != table or move.command != command or move.left:
        raise VenueStateError(f"table {table}: {player!r} was not moved by command {command}")
    if chips != s.chips[player]:
        raise VenueStateError(f"table {table}: {player!r} left with {chips} chips, the "
                              f"table reported {s.chips[player]}")
    s.transit[player] = Transit(move.from_table, move.to_table, move.to_seat, move.reason,
                                move.command, left=True)
    if s.breaks.get(table) != command:
        _answered(s, table, command)  # a move is answered by its moved, a break by applied
    return []


def _applied(s: VenueState, table: int, command: int) -> list[Order]:
    if s.breaks.get(table) == command:
        staying = [p for p, m in s.transit.items()
                   if m.from_table == table and m.command == command and not m.left]
        if staying:
            raise VenueStateError(f"table {table} broke without moving {staying[0]!r}")
    _answered(s, table, command)
    for player in _seated_by(s, table, command):  # live mode: the player has arrived
        del s.transit[player]
    return []


def _refused(s: VenueState, table: int, command: int, reason: str) -> list[Order]:
    # a table refuses only a command for a hand it has passed: the rounds never send one,
    # so it is answered and the venue goes on (the refusal is in the director's journal);
    # the live director sends a refused seat again at the table's next boundary
    _answered(s, table, command)
    for player in _seated_by(s, table, command):
        s.transit[player] = replace(s.transit[player], seated=0)
    return []


def _seated_by(s: VenueState, table: int, command: int) -> list[str]:
    return [p for p, m in s.transit.items() if m.seated and m.seated == command
            and m.to_table == table]


def _resumed(s: VenueState, table: int, hand: int) -> list[Order]:
    if hand > s.tables[table].hand + 1:
        raise VenueStateError(f"table {table} resumed at hand {hand}, past the hands dealt")
    return []


_HANDLERS: dict[str, Any] = {"hand_started": _hand_started, "hand_finished": _hand_finished,
                             "moved": _moved, "applied": _applied, "refused": _refused,
                             "resumed": _resumed}


def _answered(s: VenueState, table: int, command: int) -> None:
    t = s.tables[table]
    waiting = s.awaiting.get(table, set())
    if command not in waiting and not command < t.next_seq:
        raise VenueStateError(f"table {table}: command {command} was never sent")
    waiting.discard(command)  # a go is answered by its hand, an applied of it is welcome
    t.acked = max(t.acked, command)


# ---------------------------------------------------------------------- the rounds
def _advance(s: VenueState) -> list[Order]:
    """The orders due now: a boundary once the round is in, the seats once the moves are
    answered, the next go once the seats are."""
    orders: list[Order] = []
    while True:
        if s.phase == "play" and all(t.report is not None for t in s.tables.values()
                                     if t.playing):
            orders += _boundary(s)
        elif s.phase in ("moves", "seats") and not any(s.awaiting.values()):
            if s.phase == "moves":
                orders += _seat_transit(s)
                s.phase = "seats"
                continue
            orders += _deal(s)
        else:
            return orders
        if s.phase in ("play", "over") or any(s.awaiting.values()):
            return orders


def _boundary(s: VenueState) -> list[Order]:
    played = [t for t in sorted(s.tables.values(), key=lambda t: t.number) if t.playing]
    reports = {t.number: t.report for t in played}
    busts = [(p, c) for t in played for p, c in (reports[t.number] or ((), (), 0))[1]]
    s.digest(["round", s.round, [[t.number, t.hand, reports[t.number]] for t in played]])
    for player, place in rank_busts(busts, s.remaining()).items():
        s.places[player] = place
        del s.chips[player]
    for t in played:
        t.playing, t.report = False, None
    orders: list[Order] = []
    if s.clock.advance(max((r or ((), (), 0))[2] for r in reports.values())):
        orders += [s.order(t.number, "level", *s.clock.level_args())
                   for t in s.seating.open_tables() if t.count]
    seating = s.seating
    for t in played:  # the busts of the whole round first, then each table's boundary
        table = seating.table(t.number)
        for seat, player in table.players.items():
            if player in s.places:
                table = table.with_player(seat, None)
        seating = seating.with_table(table)
    seating = VenueSeating(seating.tables, seating.break_order, seating.max_difference,
                           seating.out + tuple(p for p, _ in busts), seating.final_table)
    moves: list[Move] = []
    for t in played:
        if seating.table(t.number).status == "open" and not seating.table(t.number).held:
            seating, decided = breaking.hand_finished(seating, t.number, [], s.rng)
            moves += decided
    s.seating = seating
    if s.remaining() == 1:
        (winner,) = s.chips
        s.places[winner] = 1
        s.phase = "over"
        return orders
    orders += send_moves(s, moves)
    s.phase = "moves"
    return orders


def send_moves(s: VenueState, moves: list[Move]) -> list[Order]:
    """The orders of ``moves`` decided at a boundary: a ``move`` to the giving table, or
    one ``signal break`` to a table broken; each player is in transit until seated (a
    player moved again before being seated keeps the table they still sit at)."""
    orders: list[Order] = []
    for m in moves:
        assert m.from_table is not None and m.from_seat is not None
        s.moves += 1
        earlier = s.transit.get(m.player)
        if earlier is not None and not earlier.seated:  # moved twice: still where it sat
            s.transit[m.player] = Transit(earlier.from_table, m.to_table, m.to_seat,
                                          m.reason, earlier.command)
            continue
        if s.seating.table(m.from_table).status == "broken":
            if m.from_table not in s.breaks:
                orders.append(s.order(m.from_table, "signal", "break"))
                s.breaks[m.from_table] = orders[-1].seq
                s.tables_broken += 1
            command = s.breaks[m.from_table]
        else:
            orders.append(s.order(m.from_table, "move", m.player, m.from_seat, m.to_table,
                                  m.to_seat))
            command = orders[-1].seq
        s.transit[m.player] = Transit(m.from_table, m.to_table, m.to_seat, m.reason, command)
    s.digest(["moves", [[m.player, m.from_table, m.to_table, m.to_seat, m.reason]
                        for m in moves]])
    return orders


def _seat_transit(s: VenueState) -> list[Order]:
    orders = []
    for player, m in sorted(s.transit.items(), key=lambda kv: (kv[1].to_table,
                                                                 kv[1].to_seat)):
        if not m.left:
            raise VenueStateError(f"{player!r} was not reported moved by table "
                                  f"{m.from_table}")
        orders.append(s.order(m.to_table, "seat", player, m.to_seat, s.chips[player],
                              m.reason))
    s.transit.clear()
    return orders + seat_entries(s)


def enter(state: VenueState, player: str, chips: int) -> VenueState:
    """A late entry (TDA 7) of ``player`` with ``chips`` (the starting stack less the
    late deduction of the level being played, decided by the caller): taken now, seated at
    the venue's next boundary, when the moves are, into an open seat of a table with the
    fewest players (:func:`engine.tournament.seating.late_entry`).  The state given is
    left as it was.

    Raises:
        engine.text.UnsafeTextError: an unsafe name (control or bidi characters, too long).
        SeatingError: the name is already entered, waiting, or out (names compared by
            :func:`engine.text.name_key`: case, width and accents composed or not).
        VenueStateError: the tournament is over, the final table drawn, no seat left, or
            ``chips`` not a whole number above 0.
    """
    name = check_player(state.seating, player)
    key = name_key(name)
    if any(key == name_key(p) for p in (*state.places, *(p for p, _c in state.entering))):
        raise SeatingError(f"player {shown(name)} is already entered")
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise VenueStateError(f"a late entry's chips must be a whole number > 0, got "
                              f"{chips!r}")
    if state.phase == "over":
        raise VenueStateError("the tournament is over: no late entry")
    if state.seating.final_table is not None:
        raise VenueStateError("the final table has been drawn: no more entries")
    room = sum(t.seats - t.count for t in state.seating.tables if t.status != "broken")
    if room <= len(state.entering):
        raise VenueStateError("no seat is left in the venue")
    new = state.clone()
    new.entering.append((name, chips))
    return new


def seat_entries(s: VenueState, live: bool = False) -> list[Order]:
    """The late entries taken since the last boundary, each drawn into a seat (in the
    order they came), as ``seat`` orders (reason ``late_entry``); one that no longer fits
    (the final table drawn in that boundary) is left out, bought in for nothing, and the
    history says so.  Places count every entry: each entry seated puts every player
    already out one place lower, so the first out finishes last of all the entries.  Called where the boundary's moves are seated (changes ``s``).
    ``live``: no seat is sent here, the player is on the way to the table drawn
    (``transit``) and the live director seats them when that table knows which hand the
    seat follows."""
    orders: list[Order] = []
    record = []
    for player, chips in s.entering:
        try:
            s.seating, moves = late_entry(s.seating, player, s.rng)
        except SeatingError as exc:
            record.append([player, 0, 0, str(exc)])
            continue
        for m in moves:
            if live:
                s.transit[player] = Transit(m.to_table, m.to_table, m.to_seat, "late_entry",
                                            0, left=True)
            else:
                orders.append(s.order(m.to_table, "seat", player, m.to_seat, chips,
                                      "late_entry"))
            record.append([player, m.to_table, m.to_seat, chips])
        s.chips[player] = chips
        s.bought_in += chips
        for out in s.places:  # one more entry: everyone already out finishes a place lower
            s.places[out] += 1
    if record:
        s.digest(["entries", record])
    s.entering.clear()
    return orders


def _deal(s: VenueState) -> list[Order]:
    orders = []
    s.round += 1
    for table in s.seating.open_tables():
        if table.count >= 2:
            t = s.tables[table.number]
            o = s.order(table.number, "go", t.hand + 1, awaited=False)
            t.playing, t.go_seq = True, o.seq
            orders.append(o)
    s.phase = "play"
    if not orders:
        raise VenueStateError("no table can deal a hand")
    return orders
