"""Independent oracles for heads-up preflop counts: every one of the 1,712,304 boards of a
matchup enumerated directly, with phevaluator's C evaluator or eval7's (both dev
dependencies from PyPI), without the precomputed table's suit classes or class sums."""

from __future__ import annotations

import operator
from itertools import combinations, starmap

import eval7
from phevaluator._pheval import evaluate_7cards

from engine.cards import ALL_CARDS, Card


def enumerate_phevaluator(first: tuple[Card, ...], second: tuple[Card, ...]) -> tuple[int, ...]:
    """(wins of first, wins of second, ties) over every board, lower value stronger."""
    h0, h1 = (first[0].id, first[1].id), (second[0].id, second[1].id)
    stub = [c.id for c in ALL_CARDS if c.id not in h0 + h1]
    v0 = list(starmap(evaluate_7cards, (h0 + b for b in combinations(stub, 5))))
    v1 = list(starmap(evaluate_7cards, (h1 + b for b in combinations(stub, 5))))
    w0, w1 = sum(map(operator.lt, v0, v1)), sum(map(operator.gt, v0, v1))
    return w0, w1, len(v0) - w0 - w1


def enumerate_eval7(first: tuple[Card, ...], second: tuple[Card, ...]) -> tuple[int, ...]:
    """The same counts with eval7's evaluator (higher value stronger)."""
    e7 = {c: eval7.Card(str(c)) for c in ALL_CARDS}
    h0, h1 = [e7[c] for c in first], [e7[c] for c in second]
    stub = [e7[c] for c in ALL_CARDS if c not in first + second]
    ev = eval7.evaluate
    w0 = w1 = n = 0
    for board in combinations(stub, 5):
        a, b = ev(h0 + list(board)), ev(h1 + list(board))
        n += 1
        w0 += a > b
        w1 += b > a
    return w0, w1, n - w0 - w1
