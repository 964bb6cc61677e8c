"""A hand's inputs as a journal keeps them: the cards dealt and the actions taken, in order.

:func:`inputs_of` turns a hand's operation records (:mod:`engine.betting.operations`) into
plain JSON-able lists (``["hole", 3, "As"]``, ``["raise", 600]``, ``["fold"]``, ``["dead", 4]``);
:func:`replay_inputs` applies such lists, in order, to a new hand of the same config, so
``Hand.from_dict(hand.to_dict())`` is the same hand.  What follows from the rules alone
(forced bets, uncalled bets, pots, automatic shows) is not recorded: replaying the inputs
makes it again.  The lists hold hole cards: they are private (journal only).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from engine.betting.operations import (
    BetOrRaiseTo,
    Burn,
    CheckOrCall,
    DeadHand,
    DealBoard,
    DealHole,
    Fold,
    MuckHand,
    Operation,
    ShowHand,
    VoidHand,
)
from engine.cards import Card
from engine.errors import InvalidInputError

_WHOLE_ARG = ("hole", "raise", "show", "muck", "dead")


def _whole(v: Any) -> bool:
    """An int (not a bool), or a string of digits: never ``4.7`` read as ``4``."""
    return (isinstance(v, int) and not isinstance(v, bool)) or (
        isinstance(v, str) and v.isdigit())


class HandInputs(Protocol):
    """The operations of a hand that :func:`replay_inputs` calls (each may raise
    ``IllegalActionError``)."""

    def deal_hole(self, seat: int, card: Card) -> None: ...
    def burn(self, card: Card) -> None: ...
    def deal_board(self, card: Card) -> None: ...
    def fold(self) -> None: ...
    def dead_hand(self, seat: int) -> None: ...
    def check_or_call(self) -> None: ...
    def bet_or_raise_to(self, amount: int) -> None: ...
    def show(self, seat: int) -> None: ...
    def muck(self, seat: int) -> None: ...
    def void(self, reason: str) -> None: ...


def _input_of(op: Operation) -> list[Any] | None:
    """One operation as an input list (None: it follows from the rules)."""
    if isinstance(op, DealHole):
        return ["hole", op.seat, str(op.card)]
    if isinstance(op, Burn):
        return ["burn", str(op.card)]
    if isinstance(op, DealBoard):
        return ["board", str(op.card)]
    if isinstance(op, Fold):
        return ["fold"]
    if isinstance(op, DeadHand):
        return ["dead", op.seat]
    if isinstance(op, CheckOrCall):
        return ["call"]
    if isinstance(op, BetOrRaiseTo):
        return ["raise", op.amount]
    if isinstance(op, ShowHand):
        return None if op.auto else ["show", op.seat]
    if isinstance(op, MuckHand):
        return ["muck", op.seat]
    if isinstance(op, VoidHand):
        return ["void", op.reason]
    return None


def inputs_of(operations: Iterable[Operation]) -> list[list[Any]]:
    """The inputs among a hand's ``operations``, in order (private: hole cards)."""
    return [x for x in map(_input_of, operations) if x is not None]


def replay_inputs(hand: HandInputs, inputs: Iterable[Any]) -> None:
    """Apply ``inputs`` (from :func:`inputs_of`) to ``hand``, in order.

    Raises:
        InvalidInputError: an input of an unknown kind, or not well formed (a seat or an
            amount that is not a whole number); IllegalActionError: an input
            the hand does not allow.
    """
    for x in inputs:
        if not isinstance(x, (list, tuple)) or not x or (
                x[0] in _WHOLE_ARG and (len(x) < 2 or not _whole(x[1]))):
            raise InvalidInputError(f"bad hand snapshot: input {x!r} is not well formed "
                                    "(seats and amounts are whole numbers)")
        kind = x[0]
        if kind == "hole":
            hand.deal_hole(int(x[1]), Card.parse(x[2]))
        elif kind == "burn":
            hand.burn(Card.parse(x[1]))
        elif kind == "board":
            hand.deal_board(Card.parse(x[1]))
        elif kind == "fold":
            hand.fold()
        elif kind == "dead":
            hand.dead_hand(int(x[1]))
        elif kind == "call":
            hand.check_or_call()
        elif kind == "raise":
            hand.bet_or_raise_to(int(x[1]))
        elif kind == "show":
            hand.show(int(x[1]))
        elif kind == "muck":
            hand.muck(int(x[1]))
        elif kind == "void":
            hand.void(x[1])
        else:
            raise InvalidInputError(f"bad hand snapshot: unknown input {kind!r}")
