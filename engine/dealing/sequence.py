"""The expected draw sequence of a Hold'em hand and where each drawn card goes.

Pure functions and small records; the stateful procedure that walks them is
:mod:`engine.dealing.procedure`.

Sequence (Poker TDA 2024 dealing order; RRoP "Dealing"):

* hole cards one at a time, clockwise from the first seat dealt in left of the button,
  two rounds; heads-up the big blind is dealt first (the button is the small blind);
  seats not dealt in are skipped;
* then, each only when the betting state allows: burn + flop (3), burn + turn,
  burn + river.

Slots are strings so they journal and print as they are: ``"hole:3"`` (seat 3's hole card),
``"replace:3"`` (a replacement hole card for seat 3), ``"burn"``, ``"board"``;
control marks: ``"betting"`` (no card due until the betting round closes) and
``"stub_reshuffled"`` (the stub must be reshuffled first, TDA 39-D).

>>> hole_order([1, 3, 4], button=4)
[1, 3, 4, 1, 3, 4]
>>> hole_order([2, 5], button=2, big_blind_seat=5)
[5, 2, 5, 2]
>>> street_plan("flop")
['burn', 'board', 'board', 'board']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from engine.cards import Card
from engine.errors import InvalidInputError

_R = TypeVar("_R")

# Destinations of a drawn card.
HOLE = "hole"            # a seat's hole card (private until shown)
BURN = "burn"            # a burn card (face down, never named)
BOARD = "board"          # a community card (public)
STUB = "stub"            # returned to the stub: live again after the reshuffle (TDA 39-D)
SET_ASIDE = "set_aside"  # out of play for this betting round (RRoP premature turn)
SCRAP = "scrap"          # out of play for good (foreign card, boxed card)
PENDING = "pending"      # drawn ahead of its turn: the burn waiting for the betting to close
REPEAT = "repeat"        # a reader repeat, ignored
DEAD = "dead"            # drawn after the hand ended or while the deal is stopped
DESTINATIONS = (HOLE, BURN, BOARD, STUB, SET_ASIDE, SCRAP, PENDING, REPEAT, DEAD)

BOARD_STREETS = ("flop", "turn", "river")
BOARD_COUNT = {"flop": 3, "turn": 1, "river": 1}
BETTING = "betting"
RESHUFFLE = "stub_reshuffled"


class DealingError(InvalidInputError):
    """Seats or button that do not make a deal (fewer than 2 seats, unknown seats)."""


def hole_order(seats: Iterable[int], button: int, big_blind_seat: int | None = None,
               rounds: int = 2) -> list[int]:
    """Seats in the order they receive hole cards, ``rounds`` times round.

    Args:
        seats: the seats dealt in (1-based); order does not matter.
        button: the button seat; it may be a seat not dealt in (dead button).
        big_blind_seat: heads-up only: the big blind, dealt first.  When omitted heads-up,
            the big blind is the seat that is not the button.
    Raises:
        DealingError: fewer than two seats.
    Source: TDA 2024 dealing order; heads-up big blind first (TDA 34 heads-up button rule).
    """
    s = sorted(set(seats))
    if len(s) < 2:
        raise DealingError(f"a deal needs at least 2 seats dealt in, got {s}")
    if len(s) == 2:
        bb = big_blind_seat
        if bb not in s:
            bb = s[1] if button == s[0] else s[0] if button == s[1] else None
        if bb is not None:
            other = s[0] if bb == s[1] else s[1]
            return [bb, other] * rounds
    first = next((x for x in s if x > button), s[0])
    i = s.index(first)
    one = s[i:] + s[:i]
    return one * rounds


def hole_slots(order: Iterable[int]) -> list[str]:
    """``[3, 5]`` -> ``["hole:3", "hole:5"]``."""
    return [f"hole:{x}" for x in order]


def street_plan(street: str, burn: bool = True) -> list[str]:
    """The draws of a board street: ``burn`` (if ``burn``) then its board cards."""
    if street not in BOARD_COUNT:
        raise DealingError(f"unknown board street {street!r}; expected one of {BOARD_STREETS}")
    return ([BURN] if burn else []) + [BOARD] * BOARD_COUNT[street]


def street_of_board(board_len: int) -> str | None:
    """The street the next board card belongs to, given the board size (0, 3, 4)."""
    return {0: "flop", 3: "turn", 4: "river"}.get(board_len)


def slot_seat(slot: str) -> int | None:
    """The seat of a ``hole:N`` / ``replace:N`` slot, else None."""
    if ":" in slot:
        return int(slot.split(":", 1)[1])
    return None


_NAMES: dict[type, tuple[str, ...]] = {}


def make_record(cls: type[_R], *values: Any) -> _R:
    """``cls(*values)`` for a frozen dataclass with no ``__post_init__`` and every field
    given in order, without the generated ``__init__``'s one ``object.__setattr__`` per
    field (a card's draw and outcome are made for every card of a night): the same
    record."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    record = object.__new__(cls)
    record.__dict__.update(zip(names, values, strict=True))
    return record


@dataclass(frozen=True)
class Draw:
    """One card that left the shoe, and where it went.

    ``n``: 1-based draw number within the hand (reader repeats excluded);
    ``shoe_draw``: the shoe's own counter; ``uid``; ``card`` (None for a foreign tag);
    ``destination`` in :data:`DESTINATIONS`; ``seat`` for hole cards; ``street`` the
    board street of burns and board cards; ``exposed``: seen face up (may be named).
    """

    n: int
    shoe_draw: int
    uid: str
    card: Card | None
    destination: str
    seat: int | None = None
    street: str | None = None
    exposed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "shoe_draw": self.shoe_draw, "uid": self.uid,
                "card": str(self.card) if self.card else None, "destination": self.destination,
                "seat": self.seat, "street": self.street, "exposed": self.exposed}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Draw:
        return cls(d["n"], d["shoe_draw"], d["uid"],
                   Card.parse(d["card"]) if d.get("card") else None, d["destination"],
                   d.get("seat"), d.get("street"), bool(d.get("exposed")))

    def public_label(self) -> str:
        """How the card may be named in public: its name if face up, else a position."""
        if self.card is not None and (self.exposed or self.destination == BOARD):
            return self.card.name
        if self.destination == HOLE:
            return f"a hole card of seat {self.seat}"
        return "a face-down card"
