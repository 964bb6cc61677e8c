"""Card and Deck value objects: symmetric parse/format, clear errors."""

import random

import pytest

from engine.cards import ALL_CARDS, Card, Deck, format_cards, parse_cards
from engine.errors import InvalidCardError, PokerTableError


def test_every_card_round_trips():
    assert len({str(c) for c in ALL_CARDS}) == 52
    for c in ALL_CARDS:
        assert Card.parse(str(c)) is c
        assert Card.from_id(c.id) is c


def test_ids_match_phevaluator():
    from phevaluator.card import Card as PhCard

    for c in ALL_CARDS:
        assert PhCard(str(c)).id_ == c.id


@pytest.mark.parametrize("bad", ["", "A", "1s", "Ax", "Asd", "10s", None, 5])
def test_bad_cards_raise_typed_error(bad):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, PokerTableError)


def test_parse_cards_forms():
    assert format_cards(parse_cards("AsKd2c")) == "AsKd2c"
    assert parse_cards("As Kd, 2c") == parse_cards(["As", "Kd", "2c"])
    with pytest.raises(InvalidCardError):
        parse_cards("AsK")


def test_deck_rejects_duplicates_and_shuffles_reproducibly():
    with pytest.raises(InvalidCardError, match="twice"):
        Deck(parse_cards("AsKdAs"))
    d1 = Deck.shuffled(random.Random(7))
    d2 = Deck.shuffled(random.Random(7))
    assert d1 == d2 and sorted(d1) == sorted(Deck.standard())
    assert Deck.parse(str(d1)) == d1
    assert len(d1.without(parse_cards("AsKd"))) == 50


def test_card_is_immutable():
    c = Card.parse("As")
    with pytest.raises(AttributeError):
        c.rank = "K"  # type: ignore[misc]
