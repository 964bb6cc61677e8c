"""PHH reading and writing (engine.history.phh): real files, cents, round trips, bad input."""

import tomllib
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import InvalidCardError, PokerTableError
from engine.history.phh import (
    PhhCardError,
    PhhError,
    UnknownVariantError,
    format_amount,
    loads_hand,
    loads_hands,
    parse_action,
)
from engine.history.phh_write import _toml_key, _toml_string, dumps_hand, dumps_hands
from tests.data_paths import REAL_PHH, data, real_phh_files


def test_real_files_parse_with_the_counts_of_source_md():
    counts = {p.name: len(loads_hands(p.read_text(), p.name)) for p in real_phh_files()}
    assert counts == {"ABS-400NLH-143.phhs": 247, "IPN-400NLH-1149.phhs": 135,
                      "WSOP-2019-E42-D3-00-01-07.phh": 1}


@pytest.mark.parametrize("name", ["ABS-400NLH-143.phhs", "IPN-400NLH-1149.phhs",
                                  "WSOP-2019-E42-D3-00-01-07.phh"])
def test_real_files_write_back_byte_for_byte(name):
    text = (REAL_PHH / name).read_text()
    hands = loads_hands(text, name)
    out = (dumps_hands(hands, public=False) if name.endswith(".phhs")
           else dumps_hand(hands[0], public=False))
    # Same bytes except the final newline (the handhq files have none).
    assert out.rstrip("\n") == text.rstrip("\n")
    assert loads_hands(out) == hands


def test_amounts_with_cents_become_integer_chips_and_go_back():
    abs1 = loads_hands((REAL_PHH / "ABS-400NLH-143.phhs").read_text())[0]
    assert abs1.chips_per_unit == 100
    assert abs1.starting_stacks[0] == 81955          # 819.55
    assert abs1.antes == (100,) * 6 and abs1.blinds_or_straddles[:2] == (200, 400)
    assert abs1.winnings[4] == 1600
    assert abs1.actions[8].amount == 2000              # 'p5 cbr 20'
    assert format_amount(81955, 100) == "819.55"
    assert format_amount(73630, 100) == "736.30"
    assert format_amount(47500, 100) == "475"
    assert abs1.to_units(81955) == Decimal("819.55")


def test_inf_stacks_are_unknown():
    ipn = loads_hands((REAL_PHH / "IPN-400NLH-1149.phhs").read_text())
    assert all(s is None for h in ipn for s in h.starting_stacks)
    assert "starting_stacks = [inf, inf]" in dumps_hands(ipn[:1], public=False)


def test_actions_parse_and_format_symmetrically():
    for text in ["d dh p1 AsKd", "d dh p3 ????", "d db 9dKhAd", "d db Jc", "p2 f", "p4 cc",
                 "p5 cbr 20", "p6 sm ????", "p2 sm 8h7d", "p1 sm", "p1 sm -", "p2 cc # tanks"]:
        assert str(parse_action(text, 6)) == text
    a = parse_action("p2 cbr 22.50", 6, 100)
    assert (a.kind, a.player, a.amount) == ("bet_or_raise_to", 2, 2250)
    assert a.format(100) == "p2 cbr 22.50"
    assert parse_action("d dh p1 As??", 2).cards == (Card.parse("As"), None)


def test_public_history_hides_unrevealed_hole_cards():
    h = loads_hand((data("phh") / "wrong_winner.phh").read_text())
    public = dumps_hand(h, public=True)
    # p1 and p2 showed at the river: their cards stay; p3 folded unseen: hidden.
    assert "'d dh p1 QsQd'" in public and "'d dh p2 KsKd'" in public
    assert "'d dh p3 ????'" in public and "7c2d" not in public
    private = dumps_hand(h, public=False)
    assert "7c2d" in private
    assert loads_hand(private) == h
    assert loads_hand(public) == h.public() != h


def test_mucked_cards_stay_hidden_in_public():
    text = (data("phh") / "wrong_winner.phh").read_text().replace("'p1 sm QsQd'", "'p1 sm'")
    h = loads_hand(text)
    public = dumps_hand(h)
    assert "QsQd" not in public and "'p1 sm'" in public


def test_field_order_and_extra_fields_survive():
    h = loads_hand((REAL_PHH / "WSOP-2019-E42-D3-00-01-07.phh").read_text())
    assert h.extra["author"] == "Juho Kim" and h.extra["year"] == 2019
    text = dumps_hand(h, public=False)
    assert text.index("author =") > text.index("actions =")
    assert "Hold’em" in text  # non-ASCII kept verbatim


@pytest.mark.parametrize("name, error, words", [
    ("broken.phh", PhhError, "broken TOML"),
    ("unknown_variant.phh", UnknownVariantError, "'FR'"),
    ("bad_card.phh", PhhCardError, "'Xx'"),
])
def test_bad_files_raise_typed_errors(name, error, words):
    with pytest.raises(error) as info:
        loads_hands((data("phh") / name).read_text(), name)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)
    assert words in str(info.value)


def test_bad_card_is_also_an_invalid_card_error():
    with pytest.raises(InvalidCardError):
        parse_action("d db 9dKhAx", 6)


@pytest.mark.parametrize("edit, words", [
    (("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100]"), "entries"),
    (("'p3 f'", "'p7 f'"), "out of range"),
    (("'p3 f'", "'p3 raise'"), "not a No-Limit"),
    (("min_bet = 2", "min_bet = 'two'"), "not an amount"),
    (("min_bet = 2\n", ""), "missing field 'min_bet'"),
    (("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100.1234567, 100]"),
     "decimals"),
])
def test_malformed_hands(edit, words):
    text = (data("phh") / "bad_card.phh").read_text().replace("AsXx", "AsKs")
    text = text.replace(*edit)
    with pytest.raises(PhhError) as info:
        loads_hand(text)
    assert words in str(info.value)


@pytest.mark.parametrize("name", ["engine.history.phh", "engine.history.phh_write",
                                  "engine.census"])
def test_doctests(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


@settings(max_examples=500)
@given(st.text(max_size=40), st.text(max_size=12))
def test_any_text_is_written_as_toml_that_reads_back_the_same(value, key):
    """The writer quotes a string or key only as TOML 1.0 allows (literal when it can,
    else escaped), so every text, control characters and quotes included, reads back."""
    assert tomllib.loads(f"{_toml_key(key)} = {_toml_string(value)}\n") == {key: value}
