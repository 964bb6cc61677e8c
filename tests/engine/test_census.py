"""The 5-card census through engine.evaluation."""

import json

import pytest

from engine.census import CensusSizeError, census
from engine.errors import PokerTableError
from pi_app.cli.main import main

# Standard five-card hand counts (Wikipedia "Poker probability").
EXPECTED_5 = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}


@pytest.fixture(scope="module")
def five():
    return census(5)


def test_five_card_counts(five):
    assert five.categories == EXPECTED_5
    assert five.hands == 2_598_960
    assert five.distinct_values == 7_462


def test_every_value_is_used(five):
    assert sorted(five.value_counts) == list(range(1, 7463))
    assert five.value_counts[1] == 4  # four royal flushes


def test_partial_censuses_merge_to_the_whole(five):
    low = census(5, lowest_cards=range(20))
    high = census(5, lowest_cards=range(20, 52))
    assert low.merged(high).categories == five.categories
    assert low.hands + high.hands == five.hands


def test_cli_prints_json(capsys):
    assert main(["census", "--cards", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["categories"] == EXPECTED_5
    assert out["distinct_values"] == 7_462
    assert out["hands"] == 2_598_960


def test_bad_size_is_typed():
    with pytest.raises(CensusSizeError) as e:
        census(4)
    assert isinstance(e.value, PokerTableError) and isinstance(e.value, ValueError)
    with pytest.raises(CensusSizeError):
        census(5, lowest_cards=[52])
