"""Hand evaluation over phevaluator (Apache-2.0), with categories and TV descriptions.

phevaluator ranks every 5-card poker hand from 1 (royal flush) to 7462 (7-5-4-3-2
offsuit); a 6- or 7-card set is ranked by its best five cards.  Lower is stronger.
The category boundaries below are those of the 7,462 distinct 5-card values
(Cactus Kev's enumeration, which phevaluator follows).

>>> from engine.cards import parse_cards
>>> r = evaluate(parse_cards("KsKhKd4c4s"))
>>> r.category, r.description
('full_house', 'Full House, Kings full of Fours')
>>> evaluate(parse_cards("Ah2c3d4s5h")).description
'Straight, Five high'
>>> evaluate(parse_cards("AsKsQsJsTs9d2c")).description
'Royal Flush'
>>> evaluate(parse_cards("Ah2c3d4s5h")) < evaluate(parse_cards("2c3d4s5h6h"))  # the wheel is lowest
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from phevaluator import _pheval  # the native evaluators; ids are our Card.id

from engine.cards import RANK_NAMES, RANK_PLURALS, Card
from engine.errors import InvalidCardError

#: Categories strongest first, with the highest (weakest) phevaluator value of each.
CATEGORIES: tuple[tuple[str, int], ...] = (
    ("straight_flush", 10),
    ("four_of_a_kind", 166),
    ("full_house", 322),
    ("flush", 1599),
    ("straight", 1609),
    ("three_of_a_kind", 2467),
    ("two_pair", 3325),
    ("one_pair", 6185),
    ("high_card", 7462),
)
CATEGORY_NAMES = tuple(name for name, _ in CATEGORIES)
_BOUNDS = tuple(bound for _, bound in CATEGORIES)
CATEGORY_TITLES = {
    "straight_flush": "Straight Flush", "four_of_a_kind": "Four of a Kind",
    "full_house": "Full House", "flush": "Flush", "straight": "Straight",
    "three_of_a_kind": "Three of a Kind", "two_pair": "Two Pair", "one_pair": "One Pair",
    "high_card": "High Card",
}
_EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
evaluate_5_ids = _pheval.evaluate_5cards
evaluate_6_ids = _pheval.evaluate_6cards
evaluate_7_ids = _pheval.evaluate_7cards


def category_of_value(value: int) -> str:
    """The category name of a phevaluator value (1..7462)."""
    return CATEGORY_NAMES[bisect_left(_BOUNDS, value)]


def evaluate_value(cards: Sequence[Card]) -> int:
    """The phevaluator value (1 best .. 7462 worst) of 5 to 7 distinct cards; the hot path.

    Raises:
        InvalidCardError: fewer than 5 or more than 7 cards, or a card repeated.
    """
    f = _EVAL.get(len(cards))
    if f is None:
        raise InvalidCardError(f"need 5 to 7 cards to evaluate, got {len(cards)}")
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):  # a set of ints: no Card.__hash__ call per card
        raise InvalidCardError("a card appears twice in the hand to evaluate")
    rank: int = f(*ids)
    return rank


def showdown_values(board_ids: tuple[int, ...], hole_ids: Sequence[tuple[int, ...]],
                    positions: Iterable[int]) -> dict[int, int]:
    """The phevaluator value (1 best .. 7462 worst) of each of ``positions`` (indexes into
    ``hole_ids``): that position's two hole ids with the five ``board_ids``, one native
    call a hand on a ready 7-tuple (``ev(*(hole + board))``, a plain loop: in a
    comprehension the call of its own function costs as much as a heads-up hand).

    Internal to the engine's showdown (:func:`engine.betting.showdown.award_pots`), and
    unchecked: the ids are those the hand kept as it dealt its cards (``Hand._hole_ids``,
    ``Hand._board_ids``, set by ``Hand.deal_hole`` and ``Hand.deal_board``), so they are
    ``Card.id`` values 0..51, none twice: the hand refuses any other card as it is dealt
    (``Hand._card_error``, in ``engine/betting/hand.py``), after the dealing procedure has
    checked each card from the shoe or the keypad against the deck's registry and the
    cards already out (``CardFlow._on_card``); at a showdown the board holds five and each
    live hand two (tested in ``tests/engine/betting/test_showdown.py``).  Cards from
    outside (a user, a file) go through the checked :func:`evaluate_value`.
    """
    ev = evaluate_7_ids
    values: dict[int, int] = {}
    for j in positions:
        values[j] = ev(*(hole_ids[j] + board_ids))
    return values


@dataclass(frozen=True, order=False)
class HandRank:
    """An evaluated hand.  ``value``: phevaluator value, lower is stronger; compare ranks
    with ``>`` meaning stronger.  ``cards``: the 5 to 7 cards evaluated; ``best`` (the
    best five, ordered for the description) is worked out only when first read."""

    value: int
    cards: tuple[Card, ...]

    @cached_property
    def best(self) -> tuple[Card, ...]:
        return best_five(self.cards, self.value)

    @property
    def category(self) -> str:
        return category_of_value(self.value)

    @property
    def description(self) -> str:
        return describe(self.best, self.value)

    def __gt__(self, other: HandRank) -> bool:
        return self.value < other.value

    def __lt__(self, other: HandRank) -> bool:
        return self.value > other.value

    def __ge__(self, other: HandRank) -> bool:
        return self.value <= other.value

    def __le__(self, other: HandRank) -> bool:
        return self.value >= other.value


def best_five(cards: Sequence[Card], value: int | None = None) -> tuple[Card, ...]:
    """The best five of 5 to 7 cards, ordered for description (groups first, then kickers).
    ``value``: their phevaluator value when already known.

    Raises:
        InvalidCardError: as :func:`evaluate_value`.
    """
    target = evaluate_value(cards) if value is None else value
    for combo in combinations(cards, 5):
        if _pheval.evaluate_5cards(*[c.id for c in combo]) == target:
            return _order(combo)
    raise AssertionError("unreachable: some five cards make the best hand")  # pragma: no cover


def evaluate(cards: Sequence[Card]) -> HandRank:
    """Evaluate 5 to 7 cards: value, best five, category and description.

    Raises:
        InvalidCardError: fewer than 5 or more than 7 cards, or a repeated card.
    """
    cards = tuple(cards)
    return HandRank(evaluate_value(cards), cards)


def _order(five: Sequence[Card]) -> tuple[Card, ...]:
    counts = Counter(c.rank_value for c in five)
    ordered = sorted(five, key=lambda c: (counts[c.rank_value], c.rank_value), reverse=True)
    values = sorted({c.rank_value for c in five}, reverse=True)
    if values == [14, 5, 4, 3, 2]:  # the wheel: the ace plays low
        ordered = sorted(five, key=lambda c: 1 if c.rank_value == 14 else c.rank_value,
                         reverse=True)
    return tuple(ordered)


def describe(best: Sequence[Card], value: int | None = None) -> str:
    """Words for a five-card hand as a TV shows them, e.g. "Two Pair, Kings and Fours".

    ``best`` is ordered as :func:`best_five` returns it.
    """
    if value is None:
        value = evaluate_value(best)
    cat = category_of_value(value)
    r = [c.rank for c in best]
    if cat == "straight_flush":
        return "Royal Flush" if value == 1 else f"Straight Flush, {RANK_NAMES[r[0]]} high"
    if cat == "four_of_a_kind":
        return f"Four of a Kind, {RANK_PLURALS[r[0]]}"
    if cat == "full_house":
        return f"Full House, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[3]]}"
    if cat == "flush":
        return f"Flush, {RANK_NAMES[r[0]]} high"
    if cat == "straight":
        return f"Straight, {RANK_NAMES[r[0]]} high"
    if cat == "three_of_a_kind":
        return f"Three of a Kind, {RANK_PLURALS[r[0]]}"
    if cat == "two_pair":
        return f"Two Pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[2]]}"
    if cat == "one_pair":
        return f"One Pair, {RANK_PLURALS[r[0]]}"
    return f"High Card, {RANK_NAMES[r[0]]}"


#: Where a category's kickers start in the ordered best five (None: no kickers).
_KICKERS_FROM = {"one_pair": 2, "two_pair": 4, "three_of_a_kind": 3, "four_of_a_kind": 4,
                 "high_card": 1, "flush": 1}


def describe_against(rank: HandRank, others: Sequence[HandRank]) -> str:
    """:func:`describe` of ``rank``, naming the kicker where it decides against one of
    ``others`` with the same description (e.g. "One Pair, Kings, Ace kicker" against
    "One Pair, Kings" with a queen kicker).  Hands of equal value (a split) name no kicker.

    >>> from engine.cards import parse_cards
    >>> a = evaluate(parse_cards("KhKdAs9c7d4h2c"))
    >>> b = evaluate(parse_cards("KhKdQs9c7d4h2c"))
    >>> describe_against(a, [b]), describe_against(b, [a])
    ('One Pair, Kings, Ace kicker', 'One Pair, Kings, Queen kicker')
    """
    base = rank.description
    start = _KICKERS_FROM.get(rank.category)
    if start is None:
        return base
    mine = [c.rank_value for c in rank.best]
    first: int | None = None
    for o in others:
        if o.value == rank.value or o.description != base:
            continue
        theirs = [c.rank_value for c in o.best]
        diff = next((i for i in range(start, 5) if mine[i] != theirs[i]), None)
        if diff is not None and (first is None or diff < first):
            first = diff
    if first is None:
        return base
    return f"{base}, {RANK_NAMES[rank.best[first].rank]} kicker"
