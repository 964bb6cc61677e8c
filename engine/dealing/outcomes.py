"""What :meth:`engine.dealing.procedure.DealingProcedure.apply` reports back, one record per fact.

Every outcome has ``to_dict(private=False)``: the public form never holds an unrevealed
hole card (an :class:`Assigned` hole card is written without its card), so public dicts
can go to the TV, INFO logs and the ``pokertable replay`` output.  ``private=True`` adds
the card, for the private journal only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import Card
from engine.dealing.irregularities import Ruling


@dataclass(frozen=True)
class Outcome:
    KIND: ClassVar[str] = "outcome"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class Assigned(Outcome):
    """Draw ``draw`` (hand's draw number) went to ``destination`` (engine.dealing.sequence names).
    ``card`` is private for hole cards and face-down burns unless ``exposed``."""

    draw: int
    shoe_draw: int
    destination: str
    card: Card | None
    seat: int | None = None
    street: str | None = None
    exposed: bool = False
    KIND: ClassVar[str] = "assigned"

    @property
    def public_card(self) -> Card | None:
        if self.card is not None and (self.exposed or self.destination == "board"):
            return self.card
        return None

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        c = self.card if private else self.public_card
        return {"event": self.KIND, "draw": self.draw, "shoe_draw": self.shoe_draw,
                "destination": self.destination, "seat": self.seat, "street": self.street,
                "card": str(c) if c else None}


@dataclass(frozen=True)
class ReaderRepeat(Outcome):
    """The same UID read twice in a row with no draw between: ignored, counted."""

    uid: str
    count: int
    KIND: ClassVar[str] = "reader_repeat"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "uid": self.uid, "count": self.count}


@dataclass(frozen=True)
class RulingIssued(Outcome):
    ruling: Ruling
    KIND: ClassVar[str] = "ruling"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, **self.ruling.to_dict()}


@dataclass(frozen=True)
class RulingDecided(Outcome):
    """The floor confirmed or overrode a ruling (TDA 1); ``ruling`` carries the new status."""

    ruling: Ruling
    KIND: ClassVar[str] = "ruling_decided"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "id": self.ruling.id, "code": self.ruling.code,
                "status": self.ruling.status, "note": self.ruling.note}


@dataclass(frozen=True)
class HandVoided(Outcome):
    """Misdeal or fouled deck: every chip put in returned (TDA 35-C / 35-E)."""

    reason: str
    rule: str
    stacks: tuple[tuple[int, int], ...]
    KIND: ClassVar[str] = "hand_voided"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "reason": self.reason, "rule": self.rule,
                "stacks": {str(s): c for s, c in self.stacks}}


@dataclass(frozen=True)
class HandRedealt(Outcome):
    """The voided hand is dealt again: same button, players, limits (TDA 35-C)."""

    button: int
    stacks: tuple[tuple[int, int], ...]
    redeal: int
    KIND: ClassVar[str] = "hand_redealt"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "button": self.button, "redeal": self.redeal,
                "stacks": {str(s): c for s, c in self.stacks}}


@dataclass(frozen=True)
class ActionApplied(Outcome):
    seat: int
    action: str
    amount: int | None = None
    KIND: ClassVar[str] = "action"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "seat": self.seat, "action": self.action,
                "amount": self.amount}


@dataclass(frozen=True)
class ActionHeld(Outcome):
    """A player action not applied because cards are still due (``reason`` in words)."""

    seat: int
    action: str
    reason: str
    KIND: ClassVar[str] = "action_held"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "seat": self.seat, "action": self.action,
                "reason": self.reason}


@dataclass(frozen=True)
class PotAwarded(Outcome):
    amount: int
    awards: tuple[tuple[int, int], ...]   # (seat, chips)
    label: str = "Main pot"
    KIND: ClassVar[str] = "pot_awarded"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "label": self.label, "amount": self.amount,
                "awards": {str(s): c for s, c in self.awards}}


@dataclass(frozen=True)
class HandComplete(Outcome):
    stacks: tuple[tuple[int, int], ...]
    KIND: ClassVar[str] = "hand_complete"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "stacks": {str(s): c for s, c in self.stacks}}


@dataclass(frozen=True)
class ExpectedNextChanged(Outcome):
    """The pattern the shoe must deliver next changed (after a ruling or a declaration)."""

    expect: tuple[str, ...]
    words: str = ""
    KIND: ClassVar[str] = "expected_next"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "expect": list(self.expect), "words": self.words}


@dataclass(frozen=True)
class Note(Outcome):
    """A remark with no ruling (e.g. a reshuffle assumed, an exposed board card)."""

    text: str
    KIND: ClassVar[str] = "note"

    def to_dict(self, private: bool = False) -> dict[str, Any]:
        return {"event": self.KIND, "text": self.text}
