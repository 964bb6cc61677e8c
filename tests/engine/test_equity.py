"""All-in odds (issue 15) against eval7, an independent evaluator from PyPI.

From the flop on the odds are exact: on 120 seeded random spots (2 to 4 hands, flop, turn
or river, some with dead cards and side pots) every win, tie and share equals, within
1e-9, the one counted by enumerating the same runouts with eval7's evaluator.  Heads-up
preflop with a full deck the odds are exact (the precomputed table, checked entry by entry
in tests/engine/betting/test_preflop_table.py); here they are also held against eval7's
own Monte Carlo of 2,000,000 boards, whose standard error is at most 0.035 points, so the
allowance is 0.2 points (5.7 of eval7's standard errors).  Other preflop spots are a
seeded Monte Carlo within 0.5 percentage points: 2- to 4-way spots with enough dead cards
for eval7 to enumerate every board are checked against that exact count (win, tie and
share, per pot).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import eval7
import pytest

from engine.betting.equity import EquityInputError, all_in_odds
from engine.cards import ALL_CARDS, parse_cards
from engine.errors import InvalidCardError, PokerTableError

# eval7's range parser calls pyparsing names that pyparsing 3.3 deprecates
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

EVAL7 = {c: eval7.Card(str(c)) for c in ALL_CARDS}


def oracle(hands, board, dead, pots):
    """(win, tie, share) per pot and eligible hand, counted over every runout with eval7."""
    used = {c for h in hands for c in h} | set(board) | set(dead)
    stub = [c for c in ALL_CARDS if c not in used]
    counts = [([0] * len(p), [0] * len(p), [Fraction(0)] * len(p)) for p in pots]
    total = 0
    for extra in combinations(stub, 5 - len(board)):
        full = [EVAL7[c] for c in (*board, *extra)]
        score = [eval7.evaluate([EVAL7[h[0]], EVAL7[h[1]], *full]) for h in hands]
        total += 1
        for (win, tie, share), elig in zip(counts, pots, strict=True):
            best = max(score[i] for i in elig)  # eval7: higher is stronger
            winners = [j for j, i in enumerate(elig) if score[i] == best]
            for j in winners:
                (win if len(winners) == 1 else tie)[j] += 1
                share[j] += Fraction(1, len(winners))
    return [([Fraction(w, total) for w in win], [Fraction(t, total) for t in tie],
             [s / total for s in share]) for win, tie, share in counts]


def random_spot(rng: random.Random):
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    n = rng.randint(2, 4)
    hands = [tuple(deck[2 * i:2 * i + 2]) for i in range(n)]
    rest = deck[2 * n:]
    board = tuple(rest[:rng.choice((3, 4, 5))])
    dead = tuple(rest[5:5 + rng.choice((0, 0, 1, 3))])
    pots = [list(range(n))]
    if n > 2 and rng.random() < 0.5:  # a side pot among the hands still with chips behind
        pots.append(sorted(rng.sample(range(n), rng.randint(2, n - 1))))
    return hands, board, dead, pots


@pytest.mark.parametrize("chunk", range(4))
def test_exact_odds_equal_eval7_on_random_spots(chunk):
    rng = random.Random(1500 + chunk)
    for _ in range(30):
        hands, board, dead, pots = random_spot(rng)
        odds = all_in_odds(hands, board, dead, pots=pots)
        assert odds.exact
        for got, (win, tie, share) in zip(odds.pots, oracle(hands, board, dead, pots),
                                           strict=True):
            assert all(abs(a - b) <= 1e-9 for a, b in zip(got.win, win, strict=True))
            assert all(abs(a - b) <= 1e-9 for a, b in zip(got.tie, tie, strict=True))
            assert list(got.share) == share
            assert sum(got.share) == 1


def test_odds_are_fractions_over_the_runouts():
    odds = all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")], parse_cards("2c7d9h"))
    assert odds.runouts == 990 and all(isinstance(w, Fraction) for w in odds.main.win)
    assert odds.main.win[0] + odds.main.win[1] + odds.main.tie[0] == 1


def eval7_share(hero: str, villain: str, samples: int) -> float:
    hand = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
    return float(eval7.py_hand_vs_range_monte_carlo(hand, eval7.HandRange(villain), [],
                                                      samples))


@pytest.mark.parametrize("hero,villain", [
    ("AhKh", "QsQd"), ("As2d", "KcQc"), ("7c7d", "Ah8s"), ("JsTs", "9h9c"), ("AcKd", "AsKc"),
])
def test_preflop_heads_up_is_exact_and_agrees_with_eval7s_monte_carlo(hero, villain):
    odds = all_in_odds([parse_cards(hero), parse_cards(villain)])
    assert odds.exact and odds.runouts == 1_712_304  # the table: every board counted
    main = odds.main
    assert main.share[0] == main.win[0] + main.tie[0] / 2  # heads-up, a tie is half
    assert abs(float(main.share[0]) - eval7_share(hero, villain, 2_000_000)) <= 0.002


@pytest.mark.parametrize("seed", range(8))
def test_preflop_draw_is_within_half_a_point_of_exact_multiway_and_per_pot(seed):
    # dead cards leave 12 to 16 cards, so eval7 can enumerate every board exactly
    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    n = rng.randint(2, 4)
    hands = [tuple(deck[2 * i:2 * i + 2]) for i in range(n)]
    dead = tuple(deck[2 * n:52 - rng.randint(12, 16)])
    pots = [list(range(n))] + ([[0, n - 1]] if n > 2 else [])
    odds = all_in_odds(hands, (), dead, pots=pots, seed=seed)
    assert not odds.exact
    for got, want in zip(odds.pots, oracle(hands, (), dead, pots), strict=True):
        for ours, exact in zip((got.win, got.tie, got.share), want, strict=True):
            assert max(abs(float(a - b)) for a, b in zip(ours, exact, strict=True)) <= 0.005


def test_preflop_draw_is_repeatable_and_follows_its_seed():
    hands = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("8c8d")]
    a = all_in_odds(hands, samples=3000, seed=7)
    assert a == all_in_odds(hands, samples=3000, seed=7)
    assert a != all_in_odds(hands, samples=3000, seed=8)
    assert sum(a.main.share) == 1 and a.runouts == 3000


def test_exact_preflop_enumerates_every_board():
    # two hands plus 43 dead cards leave 5 cards: exactly one board
    hands = [parse_cards("AhAd"), parse_cards("KhKd")]
    left = parse_cards("2c3c4c5c9s")
    dead = [c for c in ALL_CARDS if c not in {*hands[0], *hands[1], *left}]
    odds = all_in_odds(hands, (), dead, exact=True)
    assert odds.exact and odds.runouts == 1 and odds.main.win == (1, 0)


def test_a_pot_one_hand_is_eligible_for_is_won_outright():
    hands = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("2s2d")]
    odds = all_in_odds(hands, parse_cards("2c7d9h"), pots=[[0, 1, 2], [1]])
    assert odds.pots[1].eligible == (1,) and odds.pots[1].win == (1,)


@pytest.mark.parametrize("hands,board,dead,pots,error,words", [
    (["AhKh"], "", "", None, EquityInputError, "two hands"),
    (["AhKh", "QsQdJc"], "", "", None, EquityInputError, "hand 2 has 3 cards"),
    (["AhKh", "QsQd"], "2c", "", None, EquityInputError, "got 1"),
    (["AhKh", "QsQd"], "2c3c", "", None, EquityInputError, "got 2"),
    (["AhKh", "QsQd"], "2c3c4c5c6c7c", "", None, EquityInputError, "got 6"),
    (["AhKh", "AhQd"], "", "", None, InvalidCardError, "Ah is given twice"),
    (["AhKh", "QsQd"], "2c7d9h", "9h", None, InvalidCardError, "9h is given twice"),
    (["AhKh", "QsQd"], "", "", [], EquityInputError, "pots is empty"),
    (["AhKh", "QsQd"], "", "", [[0, 2]], EquityInputError, "pot 1"),
    (["AhKh", "QsQd"], "", "", [[0, 1], []], EquityInputError, "pot 2 has no"),
])
def test_bad_input_is_a_typed_error(hands, board, dead, pots, error, words):
    with pytest.raises(error, match=words) as info:
        all_in_odds([parse_cards(h) for h in hands], parse_cards(board), parse_cards(dead),
                    pots=pots)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)


def test_too_few_cards_left_for_the_board():
    hands = [(ALL_CARDS[2 * i], ALL_CARDS[2 * i + 1]) for i in range(24)]
    with pytest.raises(EquityInputError, match="cards left"):
        all_in_odds(hands)
    with pytest.raises(InvalidCardError):
        all_in_odds([("As", "Kd"), parse_cards("QsQd")])  # text, not cards


def test_one_pot_in_another_order_than_the_hands_keeps_its_own_order():
    hands = [parse_cards("AhKh"), parse_cards("QsQd")]
    board = parse_cards("2c7d9h")
    given = all_in_odds(hands, board)
    turned = all_in_odds(hands, board, pots=[[1, 0]])
    assert turned.main.eligible == (1, 0)
    assert turned.main.win == given.main.win[::-1] and turned.main.share == given.main.share[::-1]
