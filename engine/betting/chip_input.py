"""Chips put forward without (or with) words: the one-chip rule, multiple-chip bets and
binding verbal declarations, for the seat to act in a :class:`engine.betting.hand.Hand`.

Rule sources: TDA 40 (verbal declarations bind), TDA 45 (multiple chips), TDA 46
(one oversized chip), seed 000 (one-chip rule).  See docs/rules.md.
"""

from __future__ import annotations

from typing import Any

from engine.betting.hand_config import ChipsInterpretation
from engine.betting.hand_reading import HandReading
from engine.errors import IllegalActionError, InvalidInputError


def interpret_chips(hand: HandReading, seat: int, amount: int, *, declared: Any = None,
                    chip_count: int = 1) -> ChipsInterpretation:
    """What ``amount`` chips pushed forward by ``seat`` (the seat to act) mean.

    Args:
        amount: chips pushed forward in this motion (added to the seat's bet).
        declared: a binding verbal declaration (TDA 40, seed 000): ``"check"``,
            ``"call"``, ``"bet"``/``"raise"`` (amount from the chips) or an int total
            to bet/raise to; None when nothing was said.
        chip_count: number of chips in the motion; one oversized chip with no
            declaration is a call when facing a bet (one-chip rule, TDA 46, seed 000)
            and a bet of its full value otherwise.

    Returns a :class:`ChipsInterpretation` (nothing is applied).  A raise below the
    minimum is made up to the minimum when the chips reach half of the raise (TDA 45)
    or a raise was declared; otherwise it is a call.

    Raises:
        IllegalActionError: ``seat`` is not to act.
        InvalidInputError: ``amount`` is negative or more than the stack.
    """
    stack, bet = hand.stack(seat), hand.bet(seat)  # IllegalActionError: not dealt in
    if hand.actor != seat:
        raise IllegalActionError(f"seat {seat} is not to act; {hand.legal_words()}")
    if not isinstance(amount, int) or amount < 0 or amount > stack:
        raise InvalidInputError(f"seat {seat} pushed {amount!r} chips; expected 0..{stack}")
    la = hand.legal_actions()
    rb = (None if la.min_raise_to is None or la.max_raise_to is None
          else (la.min_raise_to, la.max_raise_to))
    if declared is not None:
        return _declared(declared, bet + amount, hand.current_bet, rb)
    return _pushed(amount, stack, bet, hand.current_bet, chip_count, rb)


def _raise_to(to: int, rule: str, rb: tuple[int, int] | None) -> ChipsInterpretation:
    """A bet or raise to ``to`` held within the legal bounds; a call when none is allowed."""
    if rb is None:
        return ChipsInterpretation("check_or_call", None,
                                   rule + "; a raise is not allowed now, so it is a call")
    return ChipsInterpretation("bet_or_raise_to", max(rb[0], min(to, rb[1])), rule)


def _declared(declared: Any, total: int, cur: int,
              rb: tuple[int, int] | None) -> ChipsInterpretation:
    """A binding verbal declaration (TDA 40): its words decide, the chips give the amount."""
    if declared in ("check", "call"):
        return ChipsInterpretation("check_or_call", None, f"declared {declared} (binding)")
    if declared in ("bet", "raise"):
        return _raise_to(total, f"declared {declared}; amount from the chips", rb)
    if isinstance(declared, int) and not isinstance(declared, bool):
        if declared <= cur:
            return ChipsInterpretation("check_or_call", None,
                                       f"declared {declared}: not above the bet, a call")
        return _raise_to(declared, f"declared {declared} (binding)", rb)
    raise InvalidInputError(
        f"declaration {declared!r}: expected check, call, bet, raise or an amount")


def _pushed(amount: int, stack: int, bet: int, cur: int, chip_count: int,
            rb: tuple[int, int] | None) -> ChipsInterpretation:
    """Chips pushed with no words: all-in, check, bet, call, the one-chip rule (TDA 46)
    and the 50% rule for a short raise (TDA 45)."""
    owe = cur - bet
    total = bet + amount
    if amount == stack and total > cur and rb is not None:
        return ChipsInterpretation("bet_or_raise_to", total, "all chips pushed: all-in")
    if owe <= 0:
        if amount == 0:
            return ChipsInterpretation("check_or_call", None, "no chips: check")
        return _raise_to(total, "bet of the chips' value (a bet below the minimum is "
                         "made up to the minimum)", rb)
    if amount <= owe:
        return ChipsInterpretation("check_or_call", None, "chips up to the call: call")
    if chip_count == 1:
        return ChipsInterpretation("check_or_call", None,
                                   "one-chip rule: a single oversized chip with no "
                                   "declaration is a call (TDA 46)")
    if rb is None:
        return ChipsInterpretation("check_or_call", None, "a raise is not allowed now: call")
    if total >= rb[0]:
        return _raise_to(total, "raise of the chips' value", rb)
    if 2 * (total - cur) >= rb[0] - cur:
        return _raise_to(rb[0], "50% or more of a raise: a full raise is required (TDA 45)", rb)
    return ChipsInterpretation("check_or_call", None,
                               "less than 50% of a raise: a call, the excess returned (TDA 45)")
