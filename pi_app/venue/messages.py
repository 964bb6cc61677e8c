"""The messages between the director and the tables: typed, bounded, applied once.

Each message is a frozen record of one ``KIND`` (the tables of docs/design/venue-topics.md)
wrapped in an :class:`Envelope` that names the sender (its broker user name), the
sequence ``seq`` of the message in its stream (one sender on one topic, numbered from 1 in
the sender's journal), the hand it follows (``for_hand``) and the ``night`` it belongs to
(the director's night id: last night's messages are told apart).  :func:`encode` writes
the JSON a node publishes; :func:`decode` reads what arrives and refuses, with a
:class:`MessageError`, anything that is not exactly such a message: not UTF-8 JSON, larger
than :data:`MAX_BYTES`, nested, an unknown kind or key, a name, seat, table or chip count
out of bounds.  :class:`Inbox` applies each sender's messages once and in order.

>>> env = Envelope("director", 1, SeatPlayer("Ann", 4, 20000, "draw"), for_hand=0,
...                night="20261201-9f3c")
>>> data = encode(env)
>>> data
b'{"body":{"chips":20000,"player":"Ann","reason":"draw","seat":4},"for_hand":0,"from":"director","kind":"seat","night":"20261201-9f3c","seq":1,"v":1}'
>>> decode(data) == env
True
>>> inbox = Inbox()
>>> topic = "pokertable/1/table/2/command"
>>> [e.seq for e in inbox.offer(env, topic)], inbox.offer(env, topic), inbox.last_reason
([1], [], 'a replay of director 1 on pokertable/1/table/2/command')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from engine.cards import Card
from engine.errors import InvalidCardError, InvalidInputError
from engine.input_file import InputFileError, check_nesting
from engine.table.venue_state import NIGHT_PATTERN
from engine.text import UnsafeTextError, check_text, one_of, player_name, shown, whole_number

VERSION = 1
MAX_BYTES = 16 * 1024        #: the largest message read
MAX_NAME = 24                #: characters of a player's name, as at one table
MAX_SEATS, MAX_TABLES = 10, 64
MAX_CHIPS = 10**12
MAX_HAND = 10**9             #: hands of one table in one night, with room to spare
MAX_SEQ = 2**63 - 1          #: a journal's row id
MAX_MS = 24 * 3600 * 1000    #: a level's remaining time, in milliseconds
MAX_HELD = 256               #: messages from the future held per sender
MAX_PLAYERS = MAX_TABLES * MAX_SEATS  #: players of one venue, every seat taken
MAX_SHOWN = 2 * MAX_SEATS    #: hole cards shown at one table in one hand
MAX_MOVES = 2 * MAX_SEATS    #: moves announced at one table: each seat out, each seat in
MOVE_REASONS = ("draw", "late_entry", "balance", "break", "final_table")
_USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_ENVELOPE_KEYS = {"v", "from", "seq", "kind", "for_hand", "night", "body"}


class MessageError(InvalidInputError):
    """A message that is not one of ours, or not within bounds; it changes nothing."""


Check = Callable[[Any, str], Any]


def _integer(lo: int, hi: int) -> Check:
    return whole_number(MessageError, lo, hi)


_name = player_name(MessageError, MAX_NAME)


def _reason_text(value: Any, where: str) -> str:
    try:
        return check_text(value, where, max_len=200)
    except UnsafeTextError as exc:
        raise MessageError(str(exc)) from None


def _one_of(choices: tuple[str, ...]) -> Check:
    return one_of(MessageError, choices)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise MessageError(f"{where} must be true or false, got {shown(value)}")
    return value


def _stacks(value: Any, where: str) -> tuple[tuple[str, int], ...]:
    """At most 10 ``[player, chips]`` pairs, each player once."""
    if not isinstance(value, (list, tuple)) or len(value) > MAX_SEATS:
        raise MessageError(f"{where} must be a list of at most {MAX_SEATS} [player, chips]")
    pairs = []
    for i, item in enumerate(value):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise MessageError(f"{where}[{i}] must be [player, chips]")
        pairs.append((_name(item[0], f"{where}[{i}] player"),
                      _integer(0, MAX_CHIPS)(item[1], f"{where}[{i}] chips")))
    if len({p for p, _ in pairs}) != len(pairs):
        raise MessageError(f"{where} names a player twice")
    return tuple(pairs)


def _card(value: Any, where: str) -> str:
    """A card as the engine writes it (``As``, ``Td``)."""
    try:
        if not isinstance(value, str) or len(value) != 2 or str(Card.parse(value)) != value:
            raise InvalidCardError("not a card")
        return value
    except InvalidCardError:
        raise MessageError(f"{where} must be a card like As or Td, got {shown(value)}") from None


def _rows(*checks: Check, most: int, unique: bool = True, what: str = "item") -> Check:
    """A list of at most ``most`` rows ``[a, b, ...]``, each value checked by the check
    in its column (one check: a plain list of values); ``unique``: no two rows share
    their first value."""
    def check(value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)) or len(value) > most:
            raise MessageError(f"{where} must be a list of at most {most} rows")
        if len(checks) == 1:  # a plain list of values
            rows: list[Any] = [checks[0](v, f"{where}[{i}]") for i, v in enumerate(value)]
            firsts = rows
        else:
            rows = []
            for i, item in enumerate(value):
                if not isinstance(item, (list, tuple)) or len(item) != len(checks):
                    raise MessageError(f"{where}[{i}] must be a row of {len(checks)} values")
                rows.append(tuple(c(v, f"{where}[{i}]") for c, v in zip(checks, item,
                                                                       strict=True)))
            firsts = [r[0] for r in rows]
        if unique and len(set(firsts)) != len(firsts):
            raise MessageError(f"{where} names the same {what} twice")
        return tuple(rows)
    return check


SEAT, TABLE = _integer(1, MAX_SEATS), _integer(1, MAX_TABLES)
CHIPS, HAND = _integer(0, MAX_CHIPS), _integer(0, MAX_HAND)
SEQ = _integer(1, MAX_SEQ)
MARK = _integer(0, MAX_SEQ)  #: a highest seq applied (0: none yet)
PLACE = _integer(1, MAX_PLAYERS)
LEVEL_INDEX = _integer(0, 999)


def _f(check: Check) -> Any:
    return field(metadata={"check": check})


# --- director -> table ---------------------------------------------------------------
@dataclass(frozen=True)
class SeatPlayer:
    """Seat ``player`` with ``chips`` in ``seat`` (``reason``: why they come)."""
    KIND: ClassVar[str] = "seat"
    player: str = _f(_name)
    seat: int = _f(SEAT)
    chips: int = _f(CHIPS)
    reason: str = _f(_one_of(MOVE_REASONS))


@dataclass(frozen=True)
class MovePlayer:
    """At this boundary, ``player`` (in ``from_seat``) leaves for ``to_table``/``to_seat``."""
    KIND: ClassVar[str] = "move"
    player: str = _f(_name)
    from_seat: int = _f(SEAT)
    to_table: int = _f(TABLE)
    to_seat: int = _f(SEAT)


SIGNALS = ("break", "hold", "pause", "resume")


@dataclass(frozen=True)
class Signal:
    """A command without arguments: ``break`` (the table breaks: every player is reported
    moved with their chips), ``hold`` (deal no more hands: the final-table draw waits for
    every table), ``pause`` (the clock stops; hands in play are finished), ``resume``."""
    KIND: ClassVar[str] = "signal"
    name: str = _f(_one_of(SIGNALS))


@dataclass(frozen=True)
class Level:
    """Blinds up next hand: level ``index`` (0-based) at these blinds and ante (chips)."""
    KIND: ClassVar[str] = "level"
    index: int = _f(_integer(0, 999))
    small_blind: int = _f(CHIPS)
    big_blind: int = _f(CHIPS)
    ante: int = _f(CHIPS)


@dataclass(frozen=True)
class Clock:
    """The director's clock: level ``index``, running or not, ``remaining_ms`` left."""
    KIND: ClassVar[str] = "clock"
    index: int = _f(_integer(0, 999))
    running: bool = _f(_flag)
    remaining_ms: int = _f(_integer(0, MAX_MS))


@dataclass(frozen=True)
class Go:
    """Deal hand ``hand``."""
    KIND: ClassVar[str] = "go"
    hand: int = _f(HAND)


# --- table -> director ---------------------------------------------------------------
@dataclass(frozen=True)
class HandStarted:
    """Hand ``hand`` started with the button and blinds at these seats."""
    KIND: ClassVar[str] = "hand_started"
    hand: int = _f(HAND)
    button: int = _f(SEAT)
    small_blind: int = _f(SEAT)
    big_blind: int = _f(SEAT)


@dataclass(frozen=True)
class HandFinished:
    """Hand ``hand`` ended: ``chips`` per player seated; ``busted``: (player, chips at the
    start of the hand), in the order they finish; ``elapsed_ms``: milliseconds of the
    table's clock the hand took (the director's virtual clock in the simulation)."""
    KIND: ClassVar[str] = "hand_finished"
    hand: int = _f(HAND)
    chips: tuple[tuple[str, int], ...] = _f(_stacks)
    busted: tuple[tuple[str, int], ...] = _f(_stacks)
    elapsed_ms: int = _f(_integer(0, MAX_MS))


@dataclass(frozen=True)
class Moved:
    """``player`` left the table with ``chips`` (command ``command`` applied)."""
    KIND: ClassVar[str] = "moved"
    command: int = _f(SEQ)
    player: str = _f(_name)
    chips: int = _f(CHIPS)


@dataclass(frozen=True)
class Applied:
    """Command ``command`` (the director's seq) is applied."""
    KIND: ClassVar[str] = "applied"
    command: int = _f(SEQ)


@dataclass(frozen=True)
class Refused:
    """Command ``command`` was refused, for ``reason`` (one line)."""
    KIND: ClassVar[str] = "refused"
    command: int = _f(SEQ)
    reason: str = _f(_reason_text)


@dataclass(frozen=True)
class Resumed:
    """The table restarted from its journal; its last hand was ``hand``."""
    KIND: ClassVar[str] = "resumed"
    hand: int = _f(HAND)


# --- retained "latest value" bodies ----------------------------------------------------
@dataclass(frozen=True)
class VenueState:
    """The director's public state (retained on ``director/state``).

    ``round``: boundaries decided so far; ``seated``: (player, table, seat) of every
    player at a table; ``pending``: (player, from table, to table) of every move not yet
    seated (held for an offline table too); ``places``: (player, place) of every player
    out, 1-based, tied players sharing a place; ``applied``: (table, highest report seq
    the director applied): the acknowledgement of each table's reports; ``broken``: the
    tables broken, in order; ``final_table``: the final table's number (0: not yet);
    ``finished``: a winner is known; ``planned``: (giving table, receiving table) of each
    balancing move decided at a bust whose player the giving table names at its next
    boundary (then it is in ``pending``).
    """
    KIND: ClassVar[str] = "venue_state"
    round: int = _f(HAND)
    seated: tuple[tuple[str, int, int], ...] = _f(_rows(_name, TABLE, SEAT, most=MAX_PLAYERS))
    pending: tuple[tuple[str, int, int], ...] = _f(_rows(_name, TABLE, TABLE,
                                                         most=MAX_PLAYERS))
    places: tuple[tuple[str, int], ...] = _f(_rows(_name, PLACE, most=MAX_PLAYERS))
    applied: tuple[tuple[int, int], ...] = _f(_rows(TABLE, MARK, most=MAX_TABLES))
    broken: tuple[int, ...] = _f(_rows(TABLE, most=MAX_TABLES))
    final_table: int = _f(_integer(0, MAX_TABLES))
    finished: bool = _f(_flag)
    planned: tuple[tuple[int, int], ...] = field(
        default=(), metadata={"check": _rows(TABLE, TABLE, most=MAX_PLAYERS, unique=False)})


@dataclass(frozen=True)
class TablePublic:
    """A table's public view (retained on ``table/N/public``), from its public screen
    state only: ``hand`` number, ``level`` index, ``players`` (player, seat, chips),
    the ``board`` and the hole cards ``shown`` face up (player, card), never another;
    ``applied``: the highest director command seq the table applied; ``moves``: the
    director's announced moves its TV shows, (player, from table, to table), those
    leaving and those coming, until the player is seated (at most :data:`MAX_MOVES`);
    ``planned``: the moves announced before their player is named, (from table, to
    table), those that touch this table (at most :data:`MAX_MOVES`)."""
    KIND: ClassVar[str] = "table_public"
    hand: int = _f(HAND)
    level: int = _f(LEVEL_INDEX)
    players: tuple[tuple[str, int, int], ...] = _f(_rows(_name, SEAT, CHIPS, most=MAX_SEATS))
    board: tuple[str, ...] = _f(_rows(_card, most=5))
    shown: tuple[tuple[str, str], ...] = _f(_rows(_name, _card, most=MAX_SHOWN,
                                                  unique=False))
    applied: int = _f(MARK)
    moves: tuple[tuple[str, int, int], ...] = field(
        default=(), metadata={"check": _rows(_name, TABLE, TABLE, most=MAX_MOVES)})
    planned: tuple[tuple[int, int], ...] = field(
        default=(), metadata={"check": _rows(TABLE, TABLE, most=MAX_MOVES, unique=False)})


KINDS: dict[str, type] = {cls.KIND: cls for cls in (
    SeatPlayer, MovePlayer, Signal, Level, Clock, Go, HandStarted, HandFinished, Moved,
    Applied, Refused, Resumed, VenueState, TablePublic)}
#: Kinds the director sends; the tables send the others.
DIRECTOR_KINDS = frozenset({"seat", "move", "signal", "level", "clock", "go", "venue_state"})
#: Kinds on retained "latest value" topics (applied with :meth:`Inbox.offer_latest`).
LATEST_KINDS = frozenset({"clock", "venue_state", "table_public"})


@dataclass(frozen=True)
class Envelope:
    """One message: ``sender`` (broker user name), its journal ``seq`` (from 1), the
    ``body`` record, ``for_hand``: the table's hand it follows (None: any time), and
    ``night``: the night id of the director it belongs to (:func:`check_night`)."""

    sender: str
    seq: int
    body: Any
    for_hand: int | None = None
    night: str = field(kw_only=True)

    @property
    def kind(self) -> str:
        return str(self.body.KIND)

    @property
    def id(self) -> tuple[str, str, int]:
        """``(night, sender, seq)``: the same message has the same id however often it
        arrives (a new night numbers its messages from 1 again)."""
        return self.night, self.sender, self.seq


def check_night(value: Any, where: str = "night") -> str:
    """``value`` if it is a night id (:data:`NIGHT_PATTERN`).

    Raises:
        MessageError: not a string of that shape (missing, empty, too long, a wrong type).
    """
    if not isinstance(value, str) or not NIGHT_PATTERN.fullmatch(value):
        raise MessageError(f"{where} must be a night id (4..40 of a-z, 0-9 and -), got "
                           f"{shown(value)}")
    return value


def ends_night(env: Envelope) -> bool:
    """Whether ``env`` says its night is over: the director's state with a winner."""
    return isinstance(env.body, VenueState) and env.body.finished


def joins_night(env: Envelope) -> bool:
    """Whether a table with no night yet joins the night of ``env``: a command, a state
    without a winner or a running clock does; a finished state does not, nor a stopped
    clock (it does not say whether its night is paused or over: the retained state,
    delivered with it, does)."""
    return not ends_night(env) and not (isinstance(env.body, Clock) and not env.body.running)


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def encode(env: Envelope) -> bytes:
    """The UTF-8 JSON of ``env`` (keys sorted, no spaces), checked by :func:`decode`'s rules.

    Raises:
        MessageError: a field out of bounds (nothing is published).
    """
    body = {f.name: _plain(getattr(env.body, f.name)) for f in fields(env.body)}
    doc = {"v": VERSION, "from": env.sender, "seq": env.seq, "kind": env.kind,
           "for_hand": env.for_hand, "night": env.night, "body": body}
    data = json.dumps(doc, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).encode()
    decode(data)
    return data


def decode(data: bytes) -> Envelope:
    """The :class:`Envelope` in ``data``.

    Raises:
        MessageError: not one of our messages, or a field out of bounds (the message names
            the field, never echoes more than a few characters of the value).
    """
    if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_BYTES:
        raise MessageError(f"a message is bytes of at most {MAX_BYTES}")
    try:
        text = bytes(data).decode("utf-8")
        check_nesting(text, "message", limit=4)
        doc = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, InputFileError, RecursionError) as exc:
        raise MessageError(f"not a JSON message: {shown(str(exc), 80)}") from None
    if not isinstance(doc, dict) or set(doc) != _ENVELOPE_KEYS:
        raise MessageError(f"a message has exactly the keys {', '.join(sorted(_ENVELOPE_KEYS))}")
    if doc["v"] != VERSION or isinstance(doc["v"], bool):
        raise MessageError(f"unknown message version {shown(doc['v'])}")
    sender = doc["from"]
    if not isinstance(sender, str) or not _USERNAME.fullmatch(sender):
        raise MessageError(f"from must be a broker user name, got {shown(sender)}")
    cls = KINDS.get(doc["kind"]) if isinstance(doc["kind"], str) else None
    if cls is None:
        raise MessageError(f"unknown kind {shown(doc['kind'])}")
    for_hand = None if doc["for_hand"] is None else HAND(doc["for_hand"], "for_hand")
    night = check_night(doc["night"])
    return Envelope(sender, SEQ(doc["seq"], "seq"), _body(cls, doc["body"]), for_hand,
                    night=night)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _body(cls: type, body: Any) -> Any:
    if not isinstance(body, dict):
        raise MessageError(f"{cls.KIND}: body must be an object")  # type: ignore[attr-defined]
    names = [f.name for f in fields(cls)]
    if set(body) != set(names):
        raise MessageError(f"{cls.KIND}: body has exactly the keys "  # type: ignore[attr-defined]
                           f"{', '.join(sorted(names)) or '(none)'}")
    return cls(**{f.name: f.metadata["check"](body[f.name], f"{cls.KIND}.{f.name}")  # type: ignore[attr-defined]
                  for f in fields(cls)})


def topic_sender(topic: str, director: str, tables: Mapping[int, str]) -> str | None:
    """The only user name allowed to publish on ``topic``: the director on commands and
    its own topics, table N's user on ``table/N/report`` and ``table/N/public``; None for
    a topic that is not ours."""
    parts = topic.split("/")
    if len(parts) < 3 or parts[:2] != ["pokertable", str(VERSION)]:
        return None
    if parts[2] == "director" and len(parts) == 4:
        return director
    if parts[2] == "table" and len(parts) == 5 and parts[3].isdigit():
        number = int(parts[3]) if parts[3] == str(int(parts[3])) else 0
        if parts[4] == "command":
            return director if number in tables else None
        if parts[4] in ("report", "public"):
            return tables.get(number)
    return None


def check_origin(topic: str, env: Envelope, director: str,
                 tables: Mapping[int, str]) -> None:
    """Refuse a message whose sender is not the one ``topic`` belongs to, or whose kind
    that sender never sends (a table forging a command, a forged table number).

    Raises:
        MessageError: naming the topic and the claimed sender.
    """
    owner = topic_sender(topic, director, tables)
    if owner is None or owner != env.sender:
        raise MessageError(f"{shown(topic, 60)}: not a topic of {shown(env.sender)}")
    if (env.kind in DIRECTOR_KINDS) != (env.sender == director):
        raise MessageError(f"{shown(env.sender)} does not send {env.kind} messages")
    if env.kind not in _TOPIC_KINDS.get(topic.rpartition("/")[2], ()):
        raise MessageError(f"{shown(topic, 60)}: no {env.kind} messages on this topic")


#: The kinds each topic carries, by its last part (docs/design/venue-topics.md).
_TOPIC_KINDS: dict[str, frozenset[str]] = {
    "state": frozenset({"venue_state"}), "clock": frozenset({"clock"}),
    "public": frozenset({"table_public"}),
    "command": DIRECTOR_KINDS - LATEST_KINDS,
    "report": frozenset(KINDS) - DIRECTOR_KINDS - LATEST_KINDS,
}


def is_latest_topic(topic: str) -> bool:
    """Whether ``topic`` holds a retained "latest value" (the director's state and clock, a
    table's public view): applied with :meth:`Inbox.offer_latest`, gaps and all."""
    return topic.rpartition("/")[2] in ("state", "clock", "public")


@dataclass
class Inbox:
    """Each stream's messages applied once and in ``seq`` order.

    A stream is one sender on one topic in one night: the sender numbers the messages of
    each stream 1, 2, 3, ... in its journal's outbox (a new night from 1 again).
    ``marks``: (night, sender, topic) -> the highest seq applied (journal it with what the
    message did, and give it back here on restart).
    :meth:`offer` returns the messages now due, in order: none for a replay (``seq`` at or
    below the mark) or for one from the future (held until the gap fills, at most
    :data:`MAX_HELD` per stream).  :meth:`offer_latest` is for retained "latest value"
    topics (state, clock, public views): a newer message is due at once, gaps and all.
    ``last_reason`` says why nothing was due, for the one log line.
    """

    marks: dict[tuple[str, str, str], int] = field(default_factory=dict)
    held: dict[tuple[str, str, str], dict[int, Envelope]] = field(default_factory=dict)
    last_reason: str = ""

    def offer(self, env: Envelope, topic: str) -> list[Envelope]:
        stream = (env.night, env.sender, topic)
        mark = self.marks.get(stream, 0)
        waiting = self.held.setdefault(stream, {})
        self.last_reason = ""
        if env.seq <= mark or env.seq in waiting:
            self.last_reason = f"a replay of {env.sender} {env.seq} on {topic}"
            return []
        if env.seq > mark + 1:
            if len(waiting) >= MAX_HELD:
                self.last_reason = (f"{env.sender} {env.seq} on {topic}: too many messages "
                                    f"ahead of {mark}")
                return []
            waiting[env.seq] = env
            self.last_reason = f"{env.sender} {env.seq} on {topic} held: waiting for {mark + 1}"
            return []
        due = [env]
        while env.seq + len(due) in waiting:
            due.append(waiting.pop(env.seq + len(due)))
        self.marks[stream] = due[-1].seq
        return due

    def offer_latest(self, env: Envelope, topic: str) -> list[Envelope]:
        stream = (env.night, env.sender, topic)
        if env.seq <= self.marks.get(stream, 0):
            self.last_reason = f"a replay of {env.sender} {env.seq} on {topic}"
            return []
        self.last_reason = ""
        self.marks[stream] = env.seq
        return [env]
