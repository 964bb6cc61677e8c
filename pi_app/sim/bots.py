"""Simulated players: a deterministic, stateless choice among the legal actions.

A bot's decision depends only on ``(seed, hand_number, step)`` and the legal actions, never
on a running random generator, so a simulated run killed at any point and resumed from its
journal makes exactly the same decisions as an uninterrupted run.

>>> from engine.views import LegalActions
>>> legal = LegalActions(can_fold=True, can_call=True, call_amount=20,
...                          min_raise_to=40, max_raise_to=1000)
>>> decide(legal, seed=1, hand_number=3, step=0) == decide(legal, seed=1, hand_number=3, step=0)
True
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from engine.views import LegalActions


@dataclass(frozen=True)
class BotDecision:
    """``action``: ``fold``, ``check_or_call`` or ``bet_or_raise_to``; ``amount``: the
    raise-to total."""

    action: str
    amount: int | None = None


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def decide(legal: LegalActions, *, seed: int, hand_number: int, step: int,
           style: str = "loose") -> BotDecision:
    """Choose a legal action.

    Args:
        legal: what the seat may do now.
        seed, hand_number, step: the decision is a pure function of these.
        style: ``loose`` (calls a lot, raises sometimes) or ``tight``.

    The mix makes tournaments last like a bar league's: facing a bet a bot folds more the
    larger the bet is against its stack, raises about one time in ten (rarely all-in), and
    otherwise calls or checks.
    """
    rng = _rng(seed, hand_number, step, style)
    x = rng.random()
    lo, hi = legal.min_raise_to, legal.max_raise_to
    facing = legal.can_call and legal.call_amount > 0
    if facing and legal.can_fold:
        # the bigger the bet against the stack, the likelier the fold
        behind = legal.max_raise_to or legal.call_amount
        pressure = min(1.0, legal.call_amount / max(behind, 1))
        fold_p = (0.30 if style == "loose" else 0.45) + 0.5 * pressure
        if x < fold_p:
            return BotDecision("fold")
    if lo is not None and hi is not None and x > 0.90:
        if x > 0.995:
            return BotDecision("bet_or_raise_to", hi)
        steps = rng.randint(0, 2)
        return BotDecision("bet_or_raise_to", min(hi, lo + steps * max(1, lo // 2)))
    if legal.can_check or legal.can_call:
        return BotDecision("check_or_call")
    return BotDecision("fold")
