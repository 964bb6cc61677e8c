"""Frozen operation records of one hand: together, in order, they are the hand history.

Every change :class:`engine.betting.hand.Hand` makes is appended as one of these records to
``hand.operations``.  Chips are ints, seats are 1-based as on the felt, cards are
:class:`engine.cards.Card`.  Records that carry a hole card (:class:`DealHole`) are
private: a public hand history must drop them or hide the card (``public=False``).

Each record converts to a JSON-able dict with :func:`operation_to_dict`
(``{"op": "fold", "seat": 3}``) for logs and tests.

A hand keeps each operation as a :data:`RawOperation`, ``(record class, *fields in
order)``, and makes the records (:func:`build_records`) only when its history is read:
most hands are played without their records ever being looked at, and a tuple costs a
fraction of a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.cards import Card


@dataclass(frozen=True, slots=True)
class Operation:
    """Base of every record.  ``OP`` is the short name used in dicts."""

    OP: ClassVar[str] = "operation"
    PUBLIC: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PostAnte(Operation):
    """``seat`` posted an ante of ``amount`` (less than the ante only when all-in)."""

    seat: int
    amount: int
    OP: ClassVar[str] = "post_ante"


@dataclass(frozen=True, slots=True)
class PostBlind(Operation):
    """``seat`` posted a forced bet.  ``kind``: ``small_blind``, ``big_blind``,
    ``big_blind_ante`` (dead money, main pot) or ``post`` (a live post by a new player)."""

    seat: int
    amount: int
    kind: str
    OP: ClassVar[str] = "post_blind"


@dataclass(frozen=True, slots=True)
class AddBonus(Operation):
    """Bonus chips (e.g. a Party Pop) added to the main pot as dead money."""

    amount: int
    OP: ClassVar[str] = "add_bonus"


@dataclass(frozen=True, slots=True)
class DealHole(Operation):
    """A hole card dealt face down to ``seat`` (private record)."""

    seat: int
    card: Card
    OP: ClassVar[str] = "deal_hole"
    PUBLIC: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Burn(Operation):
    """A card burned (private: never shown)."""

    card: Card
    OP: ClassVar[str] = "burn"
    PUBLIC: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class DealBoard(Operation):
    """A community card turned face up."""

    card: Card
    OP: ClassVar[str] = "deal_board"


@dataclass(frozen=True, slots=True)
class Fold(Operation):
    seat: int
    OP: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class DeadHand(Operation):
    """``seat`` acted with too few hole cards: its hand is dead (TDA 37), out like a fold;
    the hole cards still due to it are not dealt."""

    seat: int
    OP: ClassVar[str] = "dead_hand"


@dataclass(frozen=True, slots=True)
class CheckOrCall(Operation):
    """``amount``: chips added (0 = check).  ``all_in``: the call used the whole stack."""

    seat: int
    amount: int
    all_in: bool = False
    OP: ClassVar[str] = "check_or_call"


@dataclass(frozen=True, slots=True)
class BetOrRaiseTo(Operation):
    """A bet or raise *to* ``amount`` (the seat's total bet this street); ``added`` chips
    went in; ``full`` is False for an all-in below a full raise (TDA 47)."""

    seat: int
    amount: int
    added: int
    all_in: bool = False
    full: bool = True
    OP: ClassVar[str] = "bet_or_raise_to"


@dataclass(frozen=True, slots=True)
class ReturnUncalled(Operation):
    """The uncalled part of a bet went back to ``seat``."""

    seat: int
    amount: int
    OP: ClassVar[str] = "return_uncalled"


@dataclass(frozen=True, slots=True)
class ShowHand(Operation):
    """``seat`` tabled its hole cards (``auto``: tabled by rule, an all-in showdown)."""

    seat: int
    cards: tuple[Card, ...]
    auto: bool = False
    OP: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class MuckHand(Operation):
    """``seat`` mucked at showdown (gives up every claim to the pot)."""

    seat: int
    OP: ClassVar[str] = "muck"


@dataclass(frozen=True, slots=True)
class AwardPot(Operation):
    """``amount`` of pot ``pot`` (0 = main pot) went to ``seat``."""

    pot: int
    seat: int
    amount: int
    OP: ClassVar[str] = "award_pot"


@dataclass(frozen=True, slots=True)
class VoidHand(Operation):
    """The hand was voided (misdeal, fouled deck; TDA 35); every chip went back."""

    reason: str
    OP: ClassVar[str] = "void"


OPERATION_TYPES: dict[str, type[Operation]] = {
    cls.OP: cls
    for cls in (PostAnte, PostBlind, AddBonus, DealHole, Burn, DealBoard, Fold, DeadHand, CheckOrCall,
                BetOrRaiseTo, ReturnUncalled, ShowHand, MuckHand, AwardPot, VoidHand)
}


#: an operation as a hand keeps it until its history is read: the record's class, then
#: its fields in order (``(Fold, 3)``, ``(CheckOrCall, 3, 40, False)``)
RawOperation = tuple[Any, ...]


def build_records(raw: Iterable[RawOperation]) -> list[Operation]:
    """The records of ``raw`` operations, in order (``(Fold, 3)`` -> ``Fold(3)``)."""
    return [r[0](*r[1:]) for r in raw]


def operation_to_dict(op: Operation) -> dict[str, Any]:
    """``{"op": name, **fields}`` with cards as strings (JSON-able)."""
    d: dict[str, Any] = {"op": op.OP}
    for f in fields(op):
        v = getattr(op, f.name)
        if isinstance(v, Card):
            v = str(v)
        elif isinstance(v, tuple):
            v = [str(c) for c in v]
        d[f.name] = v
    return d
