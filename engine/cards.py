"""Cards and decks as immutable value objects that parse and format symmetrically.

A card is written as a rank character (``23456789TJQKA``) followed by a suit
character (``cdhs``), e.g. ``As``, ``Td``, ``2c``.  ``str(Card.parse(s)) == s`` for
every valid ``s``.

Each card also has an integer id ``0..51`` equal to ``rank_index * 4 + suit_index``
(``2c`` is 0, ``As`` is 51), which is the card id phevaluator uses, so evaluation
needs no conversion.

>>> Card.parse("As")
Card('As')
>>> str(Card.parse("td"))
'Td'
>>> [str(c) for c in parse_cards("AsKd 2c")]
['As', 'Kd', '2c']
>>> len(Deck.standard())
52
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

from engine.errors import InvalidCardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}
RANK_PLURALS = {
    "2": "Twos", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes", "7": "Sevens",
    "8": "Eights", "9": "Nines", "T": "Tens", "J": "Jacks", "Q": "Queens", "K": "Kings",
    "A": "Aces",
}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


class Card:
    """One playing card.  Instances are interned: ``Card.parse("As") is Card.parse("As")``.

    Attributes:
        id: 0..51, ``rank_index * 4 + suit_index`` (phevaluator's card id).
        rank: rank character, one of ``23456789TJQKA``.
        suit: suit character, one of ``cdhs``.
        rank_value: 2..14 (ace is 14).

    Raises:
        InvalidCardError: from :meth:`parse` or :meth:`from_id` on bad input.
    """

    __slots__ = ("id", "rank", "suit", "rank_value", "_text")
    _by_id: list[Card] = []

    id: int
    rank: str
    suit: str
    rank_value: int
    _text: str

    def __new__(cls, text: str) -> Card:  # pragma: no cover - use parse()
        return cls.parse(text)

    @classmethod
    def _make(cls, card_id: int) -> Card:
        obj = object.__new__(cls)
        r, s = divmod(card_id, 4)
        object.__setattr__(obj, "id", card_id)
        object.__setattr__(obj, "rank", RANKS[r])
        object.__setattr__(obj, "suit", SUITS[s])
        object.__setattr__(obj, "rank_value", r + 2)
        object.__setattr__(obj, "_text", RANKS[r] + SUITS[s])
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"As"``-style text (rank is case-insensitive, so is the suit).

        Raises:
            InvalidCardError: not two characters, unknown rank or unknown suit.
        """
        if not isinstance(text, str) or len(text.strip()) != 2:
            raise InvalidCardError(
                f"bad card {_quote(text)}: expected a rank of {RANKS} and a suit of {SUITS}, "
                "e.g. 'As'"
            )
        t = text.strip()
        r = RANKS.find(t[0].upper())
        s = SUITS.find(t[1].lower())
        if r < 0:
            raise InvalidCardError(f"bad card {_quote(text)}: rank {t[0]!r} is not one of {RANKS}")
        if s < 0:
            raise InvalidCardError(f"bad card {_quote(text)}: suit {t[1]!r} is not one of {SUITS}")
        return cls._by_id[r * 4 + s]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with phevaluator id ``card_id`` (0..51)."""
        if not isinstance(card_id, int) or not 0 <= card_id < 52:
            raise InvalidCardError(f"bad card id {_quote(card_id)}: expected 0..51")
        return cls._by_id[card_id]

    @property
    def name(self) -> str:
        """Plain words, e.g. ``"Ace of spades"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:  # pickling / deepcopy keep interning
        return (Card.from_id, (self.id,))


Card._by_id = [Card._make(i) for i in range(52)]
ALL_CARDS: tuple[Card, ...] = tuple(Card._by_id)


def _quote(value: object, limit: int = 20) -> str:
    """``repr`` of a bad input, cut to about ``limit`` characters (``'ZzZz...'`` plus the
    length), so a huge bad string is never echoed whole."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit + 2 else text[:limit] + "..."


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards: ``"AsKd"``, ``"As Kd"``, ``"As,Kd"`` or an iterable of strings.

    Raises:
        InvalidCardError: on any bad card (the message names it).
    """
    if isinstance(text, str):
        compact = text.replace(",", "").replace(" ", "")
        if len(compact) % 2:
            raise InvalidCardError(f"bad card list {_quote(text)}: odd number of characters")
        return tuple(Card.parse(compact[i:i + 2]) for i in range(0, len(compact), 2))
    return tuple(Card.parse(t) for t in text)


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Inverse of :func:`parse_cards`: ``format_cards(parse_cards(s)) == s`` for compact s."""
    return sep.join(str(c) for c in cards)


class Deck(Sequence[Card]):
    """An ordered, immutable sequence of distinct cards (top of the deck first).

    Raises:
        InvalidCardError: a card appears twice.
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card]):
        cs = tuple(cards)
        if len(set(cs)) != len(cs):
            seen: set[Card] = set()
            dup = next(c for c in cs if c in seen or seen.add(c))  # type: ignore[func-returns-value]
            raise InvalidCardError(f"card {dup} appears twice in the deck")
        self._cards = cs

    @classmethod
    def standard(cls) -> Deck:
        """The 52 cards in id order (2c, 2d, 2h, 2s, 3c, ... As)."""
        return cls(ALL_CARDS)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        """A 52-card deck shuffled by ``rng`` (a seeded ``random.Random`` for reproducibility)."""
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        return cls(cards)

    @classmethod
    def parse(cls, text: str) -> Deck:
        return cls(parse_cards(text))

    @overload
    def __getitem__(self, i: int) -> Card: ...
    @overload
    def __getitem__(self, i: slice) -> Deck: ...
    def __getitem__(self, i: int | slice) -> Card | Deck:
        if isinstance(i, slice):
            return Deck(self._cards[i])
        return self._cards[i]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        return hash(self._cards)

    def __str__(self) -> str:
        return format_cards(self._cards)

    def __repr__(self) -> str:
        return f"Deck({str(self)!r})"

    def without(self, cards: Iterable[Card]) -> Deck:
        """This deck minus the given cards, order kept."""
        gone = set(cards)
        return Deck(c for c in self._cards if c not in gone)
