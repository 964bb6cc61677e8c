"""The showdown's rules: who shows first, and how the pots are awarded.  Pure functions on
positions (indexes into the hand's seating order) and chips; the rules and sources are in
docs/rules.md.

>>> showdown_order(2, [False, True, False, False])
(2, 3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from engine.betting.pots import build_pots, split_pot
from engine.evaluation import showdown_values

#: one awarded pot: (amount, eligible positions, ((position, chips), ...))
Award = tuple[int, list[int], list[tuple[int, int]]]


def showdown_order(start: int, folded: Sequence[bool]) -> tuple[int, ...]:
    """The positions still in, in the order they show or muck, from ``start``: the last
    aggressor on the river, else the first position left of the button (TDA 17)."""
    n = len(folded)
    if not n:
        return ()
    k = start % n
    return tuple([j for j in (*range(k, n), *range(k)) if not folded[j]])


def award_pots(committed: Sequence[int], live: Sequence[bool], dead: int,
               hole_ids: Sequence[tuple[int, ...]], board_ids: tuple[int, ...],
               odd_chip: int) -> list[Award]:
    """Award every pot (:func:`engine.betting.pots.build_pots`) to the best hand among its
    eligible ``live`` positions; a split pot is shared in ``odd_chip`` units, the odd
    chips in TDA 20-A order (:func:`engine.betting.pots.split_pot`).  ``hole_ids`` (each
    position's hole card ids) and ``board_ids`` are the ids the hand kept as it dealt its
    cards, which the deal has checked (five board cards, two a live position, no card
    twice): they are evaluated unchecked (:func:`engine.evaluation.showdown_values`)."""
    contenders = list(compress(range(len(live)), live))
    values: dict[int, int] = {}
    if len(contenders) > 1:  # the dealt cards' ids, checked as dealt: one native call a hand
        values = showdown_values(board_ids, hole_ids, contenders)
    awards: list[Award] = []
    for amount, elig in build_pots(committed, live, dead):
        if len(elig) == 1:
            winners = elig
        else:
            best = min(map(values.__getitem__, elig))
            winners = [j for j in elig if values[j] == best]
        awards.append((amount, elig, split_pot(amount, winners, odd_chip)))
    return awards
