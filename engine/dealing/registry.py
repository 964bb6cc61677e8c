"""Deck registry: which RFID tag (full 7-byte UID) is which card, and the deck check.

A registered deck maps exactly 52 distinct UIDs to the 52 distinct cards.  UIDs are
upper-case hex strings of 14 digits (7 bytes, ISO/IEC 14443-3 double-size UID).  A
4-byte UID (8 digits) is what some reader drivers return when they stop after cascade
level 1; such a UID that starts with ``88`` (the cascade tag, 0x88) is certainly a
truncated 7-byte UID.  Both are refused: a truncated UID is not unique across a deck.

Registration is done by drawing the deck through the shoe in a known order
(:func:`register_from_draws`, or incrementally with :class:`DeckRegistration`).

>>> reg = make_test_deck(7)
>>> len(reg)
52
>>> reg.card(reg.uid_of(Card.parse("As")))
Card('As')

Errors (all :class:`engine.errors.InvalidInputError`, so ``ValueError`` too):
:class:`ShortUidError`, :class:`BadUidError`, :class:`DuplicateUidError`,
:class:`DuplicateCardError`, :class:`DeckCountError`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import ALL_CARDS, Card, Deck
from engine.errors import InvalidInputError

UID_DIGITS = 14          # 7 bytes (ISO/IEC 14443-3 double-size UID)
SHORT_UID_DIGITS = 8     # 4 bytes: cascade level 1 only
CASCADE_TAG = "88"       # ISO/IEC 14443-3 cascade tag (CT) byte
DECK_SIZE = 52
_HEX = frozenset("0123456789ABCDEF")


class RegistryError(InvalidInputError):
    """Base of the deck-registry errors."""


class BadUidError(RegistryError):
    """Not a hex UID of 14 digits."""


class ShortUidError(BadUidError):
    """A 4-byte (8-digit) UID: a reader driver that truncated a 7-byte UID."""


class DuplicateUidError(RegistryError):
    """The same UID registered twice."""


class DuplicateCardError(RegistryError):
    """Two UIDs registered for the same card."""


class DeckCountError(RegistryError):
    """A deck with other than 52 cards."""


def normalize_uid(uid: str) -> str:
    """Upper-case hex without separators (``"04:a1:..."`` -> ``"04A1..."``).

    Raises:
        ShortUidError: 8 hex digits (4 bytes), e.g. ``"88041A2B"``.
        BadUidError: anything else that is not 14 hex digits.
    """
    if not isinstance(uid, str):
        raise BadUidError(f"UID must be a hex string, got {uid!r}")
    u = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    u = u.removeprefix("0X")
    if not u or not set(u) <= _HEX:
        raise BadUidError(f"bad UID {uid!r}: expected {UID_DIGITS} hex digits (7 bytes)")
    if len(u) == SHORT_UID_DIGITS:
        why = (" (starts with the cascade tag 0x88: a truncated 7-byte UID)"
               if u.startswith(CASCADE_TAG) else "")
        raise ShortUidError(
            f"short UID {uid!r}: 4 bytes{why}; the reader must report the full 7-byte UID"
        )
    if len(u) != UID_DIGITS:
        raise BadUidError(f"bad UID {uid!r}: {len(u)} hex digits, expected {UID_DIGITS} (7 bytes)")
    return u


def is_short_uid(uid: str) -> bool:
    """True for an 8-hex-digit (4-byte) UID, the truncation some reader drivers produce."""
    u = uid.replace(":", "").replace(" ", "").upper() if isinstance(uid, str) else ""
    return len(u) == SHORT_UID_DIGITS and set(u) <= _HEX


@dataclass(frozen=True)
class DeckCheck:
    """The result of accounting for all 52 cards of a deck.

    ``counts``: destination -> number of cards (``hole``, ``mucked``, ``burn``, ``board``,
    ``set_aside``, ``stub``...).  ``missing``: cards of the deck in no destination;
    ``duplicated``: cards counted in two places (or twice); ``foreign``: UIDs not of this
    deck.  ``ok`` is True when all three are empty and the counts sum to 52.
    """

    ok: bool
    counts: tuple[tuple[str, int], ...]
    missing: tuple[Card, ...] = ()
    duplicated: tuple[Card, ...] = ()
    foreign: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line, e.g. ``"deck OK: hole 6, burn 3, board 5, stub 38"`` (no card names)."""
        parts = ", ".join(f"{k} {n}" for k, n in self.counts)
        if self.ok:
            return f"deck OK: {parts}"
        return (f"deck check FAILED: {parts}; missing {len(self.missing)}, "
                f"duplicated {len(self.duplicated)}, foreign {len(self.foreign)}")


class DeckRegistry:
    """52 UIDs -> 52 cards.  Immutable once built.

    Args:
        uid_to_card: mapping of UID (any case, separators allowed) to :class:`Card`.
        name: a label for the deck (e.g. ``"red-1"``).

    Raises:
        ShortUidError, BadUidError, DuplicateUidError, DuplicateCardError, DeckCountError.
    """

    __slots__ = ("_by_card", "_by_uid", "name")

    def __init__(self, uid_to_card: Mapping[str, Card] | Iterable[tuple[str, Card]],
                 name: str = "deck") -> None:
        items = list(uid_to_card.items()) if isinstance(uid_to_card, Mapping) else list(uid_to_card)
        by_uid: dict[str, Card] = {}
        by_card: dict[Card, str] = {}
        for raw, card in items:
            uid = normalize_uid(raw)
            if not isinstance(card, Card):
                card = Card.parse(card)
            if uid in by_uid:
                raise DuplicateUidError(f"UID {uid} registered twice ({by_uid[uid]} and {card})")
            if card in by_card:
                raise DuplicateCardError(f"card {card} registered twice (UIDs {by_card[card]} "
                                         f"and {uid})")
            by_uid[uid] = card
            by_card[card] = uid
        if len(by_uid) != DECK_SIZE:
            raise DeckCountError(f"deck {name!r} has {len(by_uid)} cards, expected {DECK_SIZE}")
        self.name = name
        self._by_uid = by_uid
        self._by_card = by_card

    def __len__(self) -> int:
        return len(self._by_uid)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and uid.upper() in self._by_uid

    def card(self, uid: str) -> Card | None:
        """The card for ``uid`` (exact 14-digit upper-case form is fastest), None if foreign."""
        c = self._by_uid.get(uid)
        if c is None and isinstance(uid, str):
            c = self._by_uid.get(uid.replace(":", "").upper())
        return c

    def uid_of(self, card: Card) -> str:
        """The UID registered for ``card``."""
        return self._by_card[card]

    def uids(self) -> tuple[str, ...]:
        """All UIDs in card-id order (2c first)."""
        return tuple(self._by_card[c] for c in ALL_CARDS)

    def uids_in_order(self, deck: Sequence[Card]) -> tuple[str, ...]:
        """The UIDs the shoe would report when ``deck`` (top first) is drawn."""
        return tuple(self._by_card[c] for c in deck)

    def check(self, **destinations: Iterable[str | Card]) -> DeckCheck:
        """Account for all 52 cards.

        Each keyword is a destination (``hole=``, ``mucked=``, ``burn=``, ``board=``,
        ``stub=``...) with UIDs or cards.  Every card of the deck must appear exactly once.
        """
        seen: dict[Card, int] = {}
        counts = []
        foreign: list[str] = []
        for dest, items in destinations.items():
            n = 0
            for it in items:
                card = it if isinstance(it, Card) else self.card(it)
                if card is None:
                    foreign.append(str(it))
                    continue
                seen[card] = seen.get(card, 0) + 1
                n += 1
            counts.append((dest, n))
        missing = tuple(c for c in ALL_CARDS if c not in seen)
        dup = tuple(sorted(c for c, n in seen.items() if n > 1))
        ok = not missing and not dup and not foreign and sum(n for _, n in counts) == DECK_SIZE
        return DeckCheck(ok, tuple(counts), missing, dup, tuple(foreign))

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., "cards": {uid: "As", ...}}`` (JSON-able)."""
        return {"name": self.name, "cards": {u: str(c) for u, c in self._by_uid.items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DeckRegistry:
        """Inverse of :meth:`to_dict`.  Raises the registry errors on bad content."""
        if not isinstance(d, Mapping) or not isinstance(d.get("cards"), Mapping):
            raise RegistryError("a deck registry needs {'name': ..., 'cards': {uid: card}}")
        return cls({u: Card.parse(c) for u, c in d["cards"].items()}, name=str(d.get("name", "deck")))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeckRegistry) and other._by_uid == self._by_uid

    def __hash__(self) -> int:
        return hash(frozenset(self._by_uid))

    def __repr__(self) -> str:
        return f"DeckRegistry(name={self.name!r}, cards=52)"


class DeckRegistration:
    """Registering a deck by drawing it through the shoe in a known order.

    >>> reg = DeckRegistration()            # expects the standard order 2c, 2d, ..., As
    >>> for uid in make_test_deck(1).uids(): _ = reg.add(uid)
    >>> reg.finish().name
    'deck'

    :meth:`add` raises (and changes nothing) on a short, malformed or repeated UID, or
    after 52 cards; :meth:`finish` raises :class:`DeckCountError` before 52.
    """

    def __init__(self, order: Sequence[Card] | None = None, name: str = "deck") -> None:
        self.order = tuple(order) if order is not None else tuple(Deck.standard())
        if len(self.order) != DECK_SIZE or len(set(self.order)) != DECK_SIZE:
            raise DeckCountError("the registration order must hold the 52 distinct cards")
        self.name = name
        self._uids: list[str] = []

    @property
    def count(self) -> int:
        return len(self._uids)

    def next_card(self) -> Card | None:
        """The card the next drawn tag will be registered as (None when complete)."""
        return self.order[len(self._uids)] if len(self._uids) < DECK_SIZE else None

    def add(self, uid: str) -> Card:
        """Register the next drawn tag; returns the card it now stands for."""
        u = normalize_uid(uid)
        if u in self._uids:
            raise DuplicateUidError(
                f"UID {u} already registered as {self.order[self._uids.index(u)]} "
                f"(card {len(self._uids) + 1} of the registration)"
            )
        if len(self._uids) >= DECK_SIZE:
            raise DeckCountError(f"too many cards: the deck already has {DECK_SIZE}")
        self._uids.append(u)
        return self.order[len(self._uids) - 1]

    def finish(self) -> DeckRegistry:
        if len(self._uids) != DECK_SIZE:
            raise DeckCountError(f"registration has {len(self._uids)} cards, expected {DECK_SIZE}")
        return DeckRegistry(zip(self._uids, self.order, strict=True), name=self.name)


def register_from_draws(uids: Sequence[str], order: Sequence[Card] | None = None,
                        name: str = "deck") -> DeckRegistry:
    """Build a registry from the UIDs drawn in ``order`` (default: the standard order).

    Raises:
        ShortUidError, BadUidError, DuplicateUidError, DeckCountError.
    """
    reg = DeckRegistration(order, name=name)
    if len(uids) != DECK_SIZE:
        raise DeckCountError(f"{len(uids)} UIDs drawn, expected {DECK_SIZE}")
    for u in uids:
        reg.add(u)
    return reg.finish()


def make_test_uid(rng: random.Random) -> str:
    """A plausible 7-byte NXP UID: manufacturer byte 0x04, then 6 random bytes."""
    return "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))


def make_test_deck(seed: int, name: str | None = None) -> DeckRegistry:
    """A deterministic test deck: 52 distinct 7-byte UIDs drawn from ``random.Random(seed)``,
    mapped to the cards in standard order.  Same seed, same deck (simulator and tests)."""
    rng = random.Random(f"pokertable-deck-{seed}")
    uids: list[str] = []
    seen: set[str] = set()
    while len(uids) < DECK_SIZE:
        u = make_test_uid(rng)
        if u not in seen:
            seen.add(u)
            uids.append(u)
    return DeckRegistry(zip(uids, ALL_CARDS, strict=True), name=name or f"test-{seed}")
