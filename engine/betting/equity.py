"""Live all-in odds: each live hand's chance to win and to tie, per pot.

Given the hole cards of two or more all-in hands, the board so far and any dead cards
(mucked or burned cards seen face up), :func:`all_in_odds` deals out the rest of the board:

* **From the flop on: exact.**  Every runout of the remaining board is enumerated (at most
  C(45, 2) = 990 heads-up on the flop); win, tie and share are exact
  :class:`fractions.Fraction` values over the runouts.
* **Heads-up preflop: exact, from a table.**  Two hands and a full deck of 48 cards to
  come (no dead card): the counts over all C(48, 5) = 1,712,304 boards are read from the
  precomputed table of :mod:`engine.betting.preflop_table` (microseconds, where
  enumerating takes seconds).
* **Other preflop spots (three hands or more, or dead cards): seeded Monte Carlo.**
  :data:`PREFLOP_SAMPLES` boards are drawn with ``random.Random(seed)``: the same spot and
  seed give the same figures.
  *Bound*: each figure is a mean of independent 0/1 draws, whose standard error is at most
  sqrt(0.25 / 120,000) = 0.144 percentage points; 0.5 points is 3.46 standard errors, so
  each figure is within 0.5 points of the exact value with probability 99.95 % (normal
  approximation; Hoeffding's inequality alone gives 99.5 %: 2 exp(-2 N 0.005²)).
  ``exact=True`` enumerates every preflop board instead (seconds per heads-up spot).

Win means the hand alone takes the pot; tie means it splits the pot with one or more
other hands; share is its expected fraction of the pot (a two-way tie counts 1/2).
Side pots: each pot lists the hands eligible to win it (indices into the hands given, as
:func:`engine.betting.pots.build_pots` gives them); odds are worked out per pot over the
same runouts, only the eligible hands competing for that pot.

>>> from engine.cards import parse_cards
>>> odds = all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")], parse_cards("2c7d9hQh"))
>>> odds.exact, odds.runouts, odds.main.win
(True, 44, (Fraction(7, 44), Fraction(37, 44)))
>>> odds.main.tie
(Fraction(0, 1), Fraction(0, 1))
>>> preflop = all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")])
>>> preflop.exact, preflop.runouts, preflop.main.tie[0]
(True, 1712304, Fraction(17, 4324))
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm

from engine.betting.preflop_table import heads_up_preflop
from engine.cards import Card
from engine.errors import InvalidCardError, InvalidInputError
from engine.evaluation import evaluate_7_ids

#: Boards drawn for a preflop spot (the 0.5-point bound above rests on this number).
PREFLOP_SAMPLES = 120_000
#: The most boards a preflop draw may take (about a minute on a Pi).
MAX_SAMPLES = 10_000_000
#: Board sizes that can be given: preflop, flop, turn, river.
BOARD_SIZES = (0, 3, 4, 5)


class EquityInputError(InvalidInputError):
    """Hands, board or pots that cannot be run out (fewer than two hands, a hand of other
    than two cards, a board of 1, 2 or more than 5 cards, a pot naming no hand or an
    unknown one).  A repeated card raises :class:`engine.errors.InvalidCardError`."""


@dataclass(frozen=True)
class PotOdds:
    """Odds for one pot.  ``eligible``: indices (0-based, into the hands given) of the hands
    that can win it, in the order of the pot; ``win``, ``tie``, ``share``: one
    :class:`~fractions.Fraction` from 0 to 1 per eligible hand, in that order."""

    eligible: tuple[int, ...]
    win: tuple[Fraction, ...]
    tie: tuple[Fraction, ...]
    share: tuple[Fraction, ...]


@dataclass(frozen=True)
class AllInOdds:
    """The odds of every pot.  ``pots``: main pot first; ``runouts``: boards enumerated
    (exact) or drawn (Monte Carlo); ``exact``: True when every runout was enumerated."""

    pots: tuple[PotOdds, ...]
    runouts: int
    exact: bool

    @property
    def main(self) -> PotOdds:
        """The main pot's odds (every hand given is eligible unless pots said otherwise)."""
        return self.pots[0]


def all_in_odds(hands: Sequence[Sequence[Card]], board: Sequence[Card] = (),
                dead: Sequence[Card] = (), *, pots: Sequence[Sequence[int]] | None = None,
                samples: int = PREFLOP_SAMPLES, seed: int = 0,
                exact: bool = False) -> AllInOdds:
    """Each hand's chance to win, tie and share of each pot, the rest of the board to come.

    Args:
        hands: two or more hands of two hole cards each.
        board: 0, 3, 4 or 5 board cards dealt so far.
        dead: cards known out of the deck (burned or mucked face up); may be empty.
        pots: eligible hand indices of each pot, main pot first; default one pot that
            every hand is eligible for.
        samples: boards drawn for a preflop spot (default :data:`PREFLOP_SAMPLES`).
        seed: seed of the preflop draw.
        exact: enumerate every preflop board too (seconds); a heads-up preflop spot
            with no dead card is exact without it (the table).

    Raises:
        EquityInputError: as described on the class; ``samples`` not 1 to
            :data:`MAX_SAMPLES`.
        InvalidCardError: a card given twice (in hands, board or dead cards).
        engine.betting.preflop_table.PreflopTableError: the packaged heads-up preflop
            table is missing or damaged.
    """
    holes, board_ids, stub = _check_cards(hands, board, dead)
    pot_list = _check_pots(pots, len(holes))
    need = 5 - len(board_ids)
    if len(stub) < need:
        raise EquityInputError(f"only {len(stub)} cards left to deal {need} board cards")
    if need == 5 and not exact and not 1 <= samples <= MAX_SAMPLES:
        raise EquityInputError(f"samples must be 1 to {MAX_SAMPLES:,}, got {samples}")
    if need == 5 and len(holes) == 2 and len(stub) == 48:
        return _heads_up_from_table(hands, pot_list)
    if need == 5 and not exact:
        runouts: Iterator[tuple[int, ...]] = _drawn(stub, samples, random.Random(seed))
        is_exact = False
    else:
        runouts = combinations(stub, need)
        is_exact = True
    tally = _Tally(len(holes), pot_list)
    count = tally.run(holes, tuple(board_ids), runouts)
    return AllInOdds(tally.odds(count), count, is_exact)


def _heads_up_from_table(hands: Sequence[Sequence[Card]],
                         pots: list[tuple[int, ...]]) -> AllInOdds:
    """Heads-up preflop odds from the exact counts of the table, per pot."""
    counts = heads_up_preflop(hands[0], hands[1])
    total, tie = counts.boards, counts.ties[0]
    out = []
    for elig in pots:
        if len(elig) == 1:  # a pot one hand alone is eligible for
            one = (Fraction(1),)
            out.append(PotOdds(elig, one, (Fraction(0),), one))
            continue
        win = tuple(Fraction(counts.wins[i], total) for i in elig)
        ties = (Fraction(tie, total),) * 2
        out.append(PotOdds(elig, win, ties,
                           tuple(Fraction(2 * counts.wins[i] + tie, 2 * total) for i in elig)))
    return AllInOdds(tuple(out), total, True)


def _check_cards(hands: Sequence[Sequence[Card]], board: Sequence[Card],
                 dead: Sequence[Card]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    if len(hands) < 2:
        raise EquityInputError(f"need at least two hands, got {len(hands)}")
    for i, hand in enumerate(hands, 1):
        if len(hand) != 2:
            raise EquityInputError(f"hand {i} has {len(hand)} cards; a hand is two hole cards")
    if len(board) not in BOARD_SIZES:
        raise EquityInputError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    seen: set[int] = set()  # ids: a set of ints calls no Card.__hash__ or __eq__
    for card in [c for h in hands for c in h] + list(board) + list(dead):
        if not isinstance(card, Card):
            raise InvalidCardError(f"not a card: {type(card).__name__}")
        if card.id in seen:
            raise InvalidCardError(f"card {card} is given twice")
        seen.add(card.id)
    holes = [(h[0].id, h[1].id) for h in hands]
    stub = [i for i in range(52) if i not in seen]
    return holes, [c.id for c in board], stub


def _check_pots(pots: Sequence[Sequence[int]] | None, n: int) -> list[tuple[int, ...]]:
    if pots is None:
        return [tuple(range(n))]
    if not pots:
        raise EquityInputError("pots is empty: give at least the main pot")
    out = []
    for k, pot in enumerate(pots, 1):
        elig = tuple(pot)
        if not elig:
            raise EquityInputError(f"pot {k} has no eligible hand")
        bad = [i for i in elig if not isinstance(i, int) or not 0 <= i < n]
        if bad or len(set(elig)) != len(elig):
            raise EquityInputError(f"pot {k} names hands {list(elig)}; hands are 0..{n - 1}, "
                                   "each once")
        out.append(elig)
    return out


def _drawn(stub: list[int], samples: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    """``samples`` random 5-card boards from ``stub`` (a partial Fisher-Yates shuffle each)."""
    d = list(stub)
    n = len(d)
    rand = rng.random
    for _ in range(samples):  # the five steps unrolled: this is the preflop hot loop
        k = int(rand() * n)
        d[0], d[k] = d[k], d[0]
        k = 1 + int(rand() * (n - 1))
        d[1], d[k] = d[k], d[1]
        k = 2 + int(rand() * (n - 2))
        d[2], d[k] = d[k], d[2]
        k = 3 + int(rand() * (n - 3))
        d[3], d[k] = d[k], d[3]
        k = 4 + int(rand() * (n - 4))
        d[4], d[k] = d[k], d[4]
        yield d[0], d[1], d[2], d[3], d[4]


class _Tally:
    """Win, tie and share counts per pot and eligible hand over a stream of runouts."""

    def __init__(self, hands: int, pots: list[tuple[int, ...]]):
        self.pots = pots
        self.scale = lcm(*range(1, hands + 1))  # shares of a k-way tie are scale // k
        self.win = [[0] * len(p) for p in pots]
        self.tie = [[0] * len(p) for p in pots]
        self.share = [[0] * len(p) for p in pots]

    def run(self, holes: list[tuple[int, int]], board: tuple[int, ...],
            runouts: Iterator[tuple[int, ...]]) -> int:
        """Count every runout; returns how many there were."""
        single = len(self.pots) == 1 and self.pots[0] == tuple(range(len(holes)))
        if single and len(holes) == 2:
            return self._run_heads_up(holes, board, runouts)
        count = 0
        ev = evaluate_7_ids
        for extra in runouts:
            full = board + extra
            values = [ev(*(hole + full)) for hole in holes]  # one tuple, passed as is
            count += 1
            if single:
                self._score(0, values)
            else:
                for p, elig in enumerate(self.pots):
                    self._score(p, [values[i] for i in elig])
        return count

    def _run_heads_up(self, holes: list[tuple[int, int]], board: tuple[int, ...],
                      runouts: Iterator[tuple[int, ...]]) -> int:
        """:meth:`run` for one pot between two hands (the preflop hot path)."""
        a, b = holes
        ev = evaluate_7_ids
        first = second = ties = count = 0
        for extra in runouts:
            full = board + extra
            v0 = ev(*(a + full))  # the native call takes its arguments as one tuple
            v1 = ev(*(b + full))
            count += 1
            if v0 < v1:
                first += 1
            elif v1 < v0:
                second += 1
            else:
                ties += 1
        self.win[0] = [first, second]
        self.tie[0] = [ties, ties]
        self.share[0] = [first * self.scale + ties, second * self.scale + ties]  # scale is 2
        return count

    def _score(self, p: int, values: list[int]) -> None:
        best = min(values)  # phevaluator: lower is stronger
        winners = [j for j, v in enumerate(values) if v == best]
        if len(winners) == 1:
            self.win[p][winners[0]] += 1
            self.share[p][winners[0]] += self.scale
            return
        part = self.scale // len(winners)
        for j in winners:
            self.tie[p][j] += 1
            self.share[p][j] += part

    def odds(self, count: int) -> tuple[PotOdds, ...]:
        total = max(count, 1)
        return tuple(
            PotOdds(elig,
                    tuple(Fraction(w, total) for w in self.win[p]),
                    tuple(Fraction(t, total) for t in self.tie[p]),
                    tuple(Fraction(s, total * self.scale) for s in self.share[p]))
            for p, elig in enumerate(self.pots))
