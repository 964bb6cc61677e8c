"""Hand-category census: evaluate every 5-card or 7-card hand and count categories.

The census is the end-to-end check of :mod:`engine.evaluation` (which wraps
phevaluator): every one of the C(52, 5) = 2,598,960 five-card hands, or of the
C(52, 7) = 133,784,560 seven-card hands, is evaluated through
:func:`engine.evaluation.evaluate_5_ids` / :func:`engine.evaluation.evaluate_7_ids`
and classified with :func:`engine.evaluation.category_of_value`.

The known totals (standard combinatorics, e.g. Wikipedia "Poker probability") are
5 cards: 7,462 distinct values; 7 cards: 4,824 distinct values.

Pure: no I/O, no clock.  The enumeration can be split by the lowest card of each
hand (``lowest_cards``) so that a caller may spread it over processes.

>>> r = census(5, lowest_cards=[47])   # lowest card Ks (id 47): only Ks Ac Ad Ah As
>>> r.hands, r.categories["four_of_a_kind"], r.distinct_values
(1, 1, 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations, starmap
from math import comb

from engine.errors import InvalidInputError
from engine.evaluation import (
    CATEGORY_NAMES,
    category_of_value,
    evaluate_5_ids,
    evaluate_6_ids,
    evaluate_7_ids,
)

_EVALUATORS = {5: evaluate_5_ids, 6: evaluate_6_ids, 7: evaluate_7_ids}


class CensusSizeError(InvalidInputError):
    """The number of cards per hand is not 5, 6 or 7."""


@dataclass(frozen=True)
class CensusResult:
    """Counts of a census.

    Attributes:
        cards: cards per hand (5, 6 or 7).
        hands: number of hands evaluated.
        categories: category name (strongest first, as in
            :data:`engine.evaluation.CATEGORY_NAMES`) -> number of hands.
        value_counts: phevaluator value (1 best .. 7462 worst) -> number of hands.
    """

    cards: int
    hands: int
    categories: dict[str, int]
    value_counts: dict[int, int] = field(repr=False)

    @property
    def distinct_values(self) -> int:
        """How many different phevaluator values occurred."""
        return len(self.value_counts)

    def to_dict(self) -> dict[str, object]:
        """JSON-able summary: ``cards``, ``hands``, ``categories``, ``distinct_values``."""
        return {
            "cards": self.cards,
            "hands": self.hands,
            "categories": dict(self.categories),
            "distinct_values": self.distinct_values,
        }

    def merged(self, other: CensusResult) -> CensusResult:
        """The sum of two partial censuses over disjoint sets of hands."""
        if other.cards != self.cards:
            raise CensusSizeError("cannot merge censuses of different hand sizes")
        values = Counter(self.value_counts)
        values.update(other.value_counts)
        return _result(self.cards, values)


def _check_size(cards: int) -> None:
    if cards not in _EVALUATORS:
        raise CensusSizeError(f"census needs 5, 6 or 7 cards per hand, got {cards!r}")


def _result(cards: int, values: Counter[int]) -> CensusResult:
    categories = dict.fromkeys(CATEGORY_NAMES, 0)
    for value, n in values.items():
        categories[category_of_value(value)] += n
    return CensusResult(cards, sum(values.values()), categories, dict(values))


def count_values(cards: int, lowest_cards: Iterable[int] | None = None) -> Counter[int]:
    """Counter of phevaluator values over every ``cards``-card hand of a 52-card deck.

    ``lowest_cards`` restricts the enumeration to hands whose lowest card id is in it
    (ids 0..51, ``engine.cards.Card.id``); ``None`` means all hands.

    Raises:
        CensusSizeError: ``cards`` is not 5, 6 or 7.
    """
    _check_size(cards)
    evaluate = _EVALUATORS[cards]
    values: Counter[int] = Counter()
    if lowest_cards is None:
        # The hot loop runs in C: combinations -> starmap(native evaluator) -> Counter.
        values.update(starmap(evaluate, combinations(range(52), cards)))
        return values
    for low in lowest_cards:
        if not isinstance(low, int) or not 0 <= low < 52:
            raise CensusSizeError(f"lowest card id must be 0..51, got {low!r}")
        values.update(starmap(partial(evaluate, low), combinations(range(low + 1, 52), cards - 1)))
    return values


def census(cards: int = 5, *, lowest_cards: Iterable[int] | None = None) -> CensusResult:
    """Evaluate every ``cards``-card hand (optionally only those whose lowest card id is in
    ``lowest_cards``) and count the categories.

    Raises:
        CensusSizeError: ``cards`` is not 5, 6 or 7.
    """
    return _result(cards, count_values(cards, lowest_cards))


def sample_census(cards: int, hands: int, rng: random.Random) -> CensusResult:
    """Census of ``hands`` hands drawn uniformly at random (with replacement between hands)
    by ``rng`` (a seeded ``random.Random``), for a quick statistical check.

    Raises:
        CensusSizeError: ``cards`` is not 5, 6 or 7, or ``hands`` < 1.
    """
    _check_size(cards)
    if hands < 1:
        raise CensusSizeError(f"sample size must be at least 1, got {hands}")
    deck = range(52)
    evaluate = _EVALUATORS[cards]
    values: Counter[int] = Counter(evaluate(*rng.sample(deck, cards)) for _ in range(hands))
    return _result(cards, values)


def total_hands(cards: int) -> int:
    """C(52, cards): the number of distinct hands of that size."""
    _check_size(cards)
    return comb(52, cards)
