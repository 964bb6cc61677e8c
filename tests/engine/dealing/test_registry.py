"""Deck registry: registration, typed rejections, deck check."""

from __future__ import annotations

import pytest

from engine.cards import ALL_CARDS, Card, Deck
from engine.dealing.registry import (
    BadUidError,
    DeckCountError,
    DeckRegistration,
    DeckRegistry,
    DuplicateCardError,
    DuplicateUidError,
    ShortUidError,
    make_test_deck,
    normalize_uid,
    register_from_draws,
)
from engine.errors import InvalidInputError


def test_make_test_deck_is_deterministic_and_full():
    a, b, c = make_test_deck(3), make_test_deck(3), make_test_deck(4)
    assert a == b and a != c
    assert len(set(a.uids())) == 52
    assert all(len(u) == 14 and u.startswith("04") for u in a.uids())
    assert {a.card(u) for u in a.uids()} == set(ALL_CARDS)


def test_register_from_draws_in_a_known_order():
    src = make_test_deck(9)
    order = list(reversed(Deck.standard()))
    uids = [src.uid_of(c) for c in Deck.standard()]  # physical tags, drawn in some order
    reg = register_from_draws(uids, order=order, name="blue")
    assert reg.card(uids[0]) == Card.parse("As")  # first drawn = first of the order
    assert reg.card(uids[-1]) == Card.parse("2c")
    assert reg.name == "blue"
    assert DeckRegistry.from_dict(reg.to_dict()) == reg


def test_short_uid_rejected_with_cascade_tag_named():
    with pytest.raises(ShortUidError, match="cascade tag"):
        normalize_uid("88041A2B")
    with pytest.raises(ShortUidError):
        normalize_uid("04A1B2C3")
    with pytest.raises(BadUidError):
        normalize_uid("04A1B2C3D4E5")  # 6 bytes
    with pytest.raises(BadUidError):
        normalize_uid("ZZ A1B2C3D4E5F6")
    assert normalize_uid("04:a1:b2:c3:d4:e5:f6") == "04A1B2C3D4E5F6"


def test_registration_rejects_duplicates_and_wrong_counts_changing_nothing():
    src = make_test_deck(1).uids()
    reg = DeckRegistration()
    for u in src[:10]:
        reg.add(u)
    with pytest.raises(DuplicateUidError):
        reg.add(src[3])
    with pytest.raises(ShortUidError):
        reg.add("88041A2B")
    assert reg.count == 10 and reg.next_card() == Deck.standard()[10]
    with pytest.raises(DeckCountError):
        reg.finish()
    with pytest.raises(DeckCountError):
        register_from_draws(src[:51])
    with pytest.raises(DuplicateUidError):
        register_from_draws(list(src[:51]) + [src[0]])
    assert issubclass(DuplicateUidError, InvalidInputError) and issubclass(ShortUidError, ValueError)


def test_registry_rejects_two_uids_for_one_card():
    src = make_test_deck(2)
    m = {u: src.card(u) for u in src.uids()}
    u0 = src.uids()[0]
    m[u0] = Card.parse("As")
    with pytest.raises(DuplicateCardError):
        DeckRegistry(m)


def test_deck_check_accounts_for_all_52():
    reg = make_test_deck(5)
    cards = list(Deck.shuffled(__import__("random").Random(1)))
    ok = reg.check(hole=cards[:8], burn=cards[8:11], board=cards[11:16], stub=cards[16:])
    assert ok.ok and dict(ok.counts) == {"hole": 8, "burn": 3, "board": 5, "stub": 36}
    missing = reg.check(hole=cards[:8], stub=cards[9:])
    assert not missing.ok and missing.missing == (cards[8],)
    dup = reg.check(hole=cards[:8], stub=cards[7:] + ["04FFFFFFFFFF01"])
    assert not dup.ok and dup.duplicated == (cards[7],) and dup.foreign == ("04FFFFFFFFFF01",)
    assert "FAILED" in dup.summary()
