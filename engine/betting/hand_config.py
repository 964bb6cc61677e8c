"""The fixed inputs of one hand (:class:`HandConfig`) and the small value types of
:mod:`engine.betting.hand` (:class:`ChipsInterpretation`) with its errors.

Import them from :mod:`engine.betting.hand` (``from engine.betting.hand import HandConfig``);
they live here to keep that module to one concern.  What a seat may do is
:class:`engine.views.LegalActions`, the one type the engine and the views share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InvalidInputError, PokerTableError
from engine.views import LegalActions

RAISE_RULES = ("standard", "double")


class ChipConservationError(PokerTableError, AssertionError):
    """Internal error: the chips on the table no longer add up.  Always a bug in the
    engine, never a user's mistake; raised by the check run after every operation."""


class InvalidHandConfigError(InvalidInputError):
    """A :class:`HandConfig` that cannot describe a hand (the message says why)."""


@dataclass(frozen=True)
class HandConfig:
    """Everything fixed at the start of a hand.  Chips are ints, seats 1..10.

    Attributes:
        stacks: seat -> chips, only seats dealt in (2..10 seats, each > 0 chips).
        button: seat with the button; may be a seat not dealt in (dead button, TDA 32).
        small_blind, big_blind: 0/0 for a no-blind game (then ``min_bet`` is required);
            with a big blind, the small blind is not larger than it.
        ante: posted by every player (live: counts toward side pots).
        big_blind_ante: posted by the big blind, dead money in the main pot.
        min_bet: minimum opening bet; defaults to the big blind.
        raise_rule: ``"standard"`` (TDA 43) or ``"double"`` (a raise must at least double
            the current bet, seed 003).
        small_blind_seat, big_blind_seat: explicit positions (dead button, PHH).  A seat
            not dealt in means that blind is not posted.  Default: the two seats left of
            the button; heads-up the button posts the small blind (TDA 34-B).
        bonus: dead chips (Party Pop) added to the main pot before the flop.
        names: seat -> player name (optional, for views).
        posts: seat -> live post of a newly seated player (counts toward that player's
            bet, does not change who acts first).
        burn_cards: False for hand histories that record no burns (PHH).
        hand_number: shown in views.
        preflop_first_seat: explicit first seat to act before the flop (PHH, straddles);
            default: left of the big blind (see docs/rules.md).
        odd_chip: the smallest chip in play (chips); a split pot is shared in whole chips
            of this size and the odd chips go out one each (TDA 20-A).  Default 1.

    Raises:
        InvalidHandConfigError: on any inconsistent value.
    """

    stacks: Mapping[int, int]
    button: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: int = 0
    min_bet: int | None = None
    raise_rule: str = "standard"
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    bonus: int = 0
    names: Mapping[int, str] = field(default_factory=dict)
    posts: Mapping[int, int] = field(default_factory=dict)
    burn_cards: bool = True
    hand_number: int = 0
    preflop_first_seat: int | None = None
    odd_chip: int = 1

    def __post_init__(self) -> None:
        def bad(msg: str) -> InvalidHandConfigError:
            return InvalidHandConfigError(f"bad hand config: {msg}")

        if not isinstance(self.stacks, Mapping) or not 2 <= len(self.stacks) <= 10:
            raise bad("stacks must map 2 to 10 seats to chips")
        for s, c in self.stacks.items():
            if not isinstance(s, int) or not 1 <= s <= 10:
                raise bad(f"seat {s!r} is not 1..10")
            if not isinstance(c, int) or isinstance(c, bool) or c <= 0:
                raise bad(f"seat {s} stack {c!r} must be a positive int")
        if not isinstance(self.button, int) or not 1 <= self.button <= 10:
            raise bad(f"button {self.button!r} is not a seat 1..10")
        for name in ("small_blind", "big_blind", "ante", "big_blind_ante", "bonus"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise bad(f"{name} {v!r} must be an int >= 0")
        if self.min_bet is not None and (not isinstance(self.min_bet, int) or self.min_bet <= 0):
            raise bad(f"min_bet {self.min_bet!r} must be a positive int")
        if self.big_blind > 0 and self.small_blind > self.big_blind:
            raise bad(f"small_blind {self.small_blind} is larger than big_blind "
                      f"{self.big_blind}")
        if self.big_blind == 0 and self.min_bet is None and self.small_blind == 0:
            raise bad("a game with no blinds needs min_bet")
        if self.raise_rule not in RAISE_RULES:
            raise bad(f"raise_rule {self.raise_rule!r}; expected one of {', '.join(RAISE_RULES)}")
        for name in ("small_blind_seat", "big_blind_seat"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or not 1 <= v <= 10):
                raise bad(f"{name} {v!r} is not a seat 1..10")
        for s, c in self.posts.items():
            if s not in self.stacks:
                raise bad(f"post by seat {s}, which is not dealt in")
            if not isinstance(c, int) or c <= 0:
                raise bad(f"post {c!r} by seat {s} must be a positive int")
        if not isinstance(self.odd_chip, int) or self.odd_chip < 1:
            raise bad(f"odd_chip {self.odd_chip!r} must be a positive int (the smallest chip)")
        if self.preflop_first_seat is not None and self.preflop_first_seat not in self.stacks:
            raise bad(f"preflop_first_seat {self.preflop_first_seat!r} is not dealt in")

    @property
    def effective_min_bet(self) -> int:
        """The minimum opening bet (``min_bet``, else the big blind, else the small blind)."""
        return self.min_bet if self.min_bet is not None else (self.big_blind or self.small_blind)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (seat keys as strings)."""
        return {
            "stacks": {str(s): c for s, c in self.stacks.items()}, "button": self.button,
            "small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante,
            "big_blind_ante": self.big_blind_ante, "min_bet": self.min_bet,
            "raise_rule": self.raise_rule, "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat, "bonus": self.bonus,
            "names": {str(s): n for s, n in self.names.items()},
            "posts": {str(s): c for s, c in self.posts.items()},
            "burn_cards": self.burn_cards, "hand_number": self.hand_number,
            "preflop_first_seat": self.preflop_first_seat, "odd_chip": self.odd_chip,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandConfig:
        """Inverse of :meth:`to_dict`.  Raises InvalidHandConfigError on bad input."""
        try:
            kw = dict(d)
            for k in ("stacks", "names", "posts"):
                if k in kw:
                    kw[k] = {int(s): v for s, v in kw[k].items()}
            return cls(**kw)
        except (TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, PokerTableError):
                raise
            raise InvalidHandConfigError(f"bad hand config: {exc}") from None


NO_ACTIONS = LegalActions()  #: nobody to act (the type lives in :mod:`engine.views`)


@dataclass(frozen=True)
class ChipsInterpretation:
    """What chips pushed forward mean: ``action`` is ``"check_or_call"`` or
    ``"bet_or_raise_to"`` (then ``amount`` is the total), ``rule`` says why."""

    action: str
    amount: int | None
    rule: str


