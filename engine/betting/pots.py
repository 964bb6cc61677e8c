"""Side pots, eligibility and the odd chip: pure functions over plain lists of ints.

Players are given by index in clockwise order starting with the first seat left of the
button (index 0), which is also the order TDA 20-A uses for odd chips.

* :func:`build_pots` layers the chips each player put in (all streets, antes included;
  folded players' chips stay in) at every level where a live player is all-in.  Dead
  money (big-blind ante, bonus) goes to the main pot.  A layer that no live player is
  eligible for (only folded players reached it) merges down into the layer below, so no
  chip is ever burned.
* :func:`split_pot` divides a pot between tied winners; the odd chips go one each to
  the winners in clockwise order from the button (TDA 20-A).
* :func:`uncalled` finds the uncalled part of the largest bet of a street.

>>> build_pots([10, 50, 50], [True, True, True])
[(30, [0, 1, 2]), (80, [1, 2])]
>>> split_pot(101, [0, 2, 3])
[(0, 34), (2, 34), (3, 33)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """A pot: ``amount`` in chips and the seats ``eligible`` to win it (in TDA 20-A order)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], live: Sequence[bool],
               dead: int = 0) -> list[tuple[int, list[int]]]:
    """Layer the contributions into pots.

    Args:
        contributions: chips each player put in (ints >= 0), by index.
        live: True for players still contesting (not folded, not mucked).
        dead: dead money (big-blind antes, bonus), added to the main pot.

    Returns:
        ``[(amount, [eligible indices]), ...]``, main pot first; consecutive layers with
        the same eligible players are merged.  The amounts add up to
        ``sum(contributions) + dead`` exactly (chips above the highest live contribution
        merge down into the top pot).  Empty when there is nothing to layer.
    """
    levels = sorted({c for c, lv in zip(contributions, live, strict=True) if lv and c > 0})
    n = len(contributions)
    if len(levels) == 1:  # every live player put in as much (nobody all-in for less): one pot
        level = levels[0]
        return [(sum(contributions) + dead,
                 [i for i in range(n) if live[i] and contributions[i] >= level])]
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > prev:
                amount += (min(c, level)) - prev
        eligible = [i for i in range(n) if live[i] and contributions[i] >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        prev = level
    excess = 0
    for c in contributions:
        if c > prev:
            excess += c - prev
    if not pots:
        total = excess + dead
        if total:
            pots.append((total, [i for i in range(n) if live[i]]))
        return pots
    if excess:  # no live player reached these chips: merge down (nothing is burned)
        pots[-1] = (pots[-1][0] + excess, pots[-1][1])
    if dead:
        pots[0] = (pots[0][0] + dead, pots[0][1])
    return pots


def split_pot(amount: int, winners: Sequence[int], unit: int = 1) -> list[tuple[int, int]]:
    """Split ``amount`` between ``winners`` (indices in clockwise order from the button).

    Each gets an equal share in whole chips of ``unit`` (the smallest chip in play); the
    odd chips left over go one ``unit`` each to the first winners left of the button
    (TDA 20-A), and a remainder smaller than ``unit`` (only with stacks that are not whole
    chips) to the first of them.  Returns ``[(index, chips), ...]`` in the order given.

    >>> split_pot(1500, [0, 1], unit=100)
    [(0, 800), (1, 700)]
    >>> split_pot(1500, [1, 0], unit=100)   # the order given does not move the odd chip
    [(1, 700), (0, 800)]
    """
    k = len(winners)
    if k == 1:  # one winner takes the whole pot, whatever the chip
        return [(winners[0], amount)]
    unit = max(1, unit)
    share = (amount // (k * unit)) * unit
    left = amount - share * k
    got = dict.fromkeys(winners, share)
    clockwise = sorted(winners)  # index order is clockwise from the first seat left of the button
    for w in clockwise:
        extra = min(unit, left)
        left -= extra
        got[w] += extra
    if left:
        got[clockwise[0]] += left
    return [(w, got[w]) for w in winners]


def uncalled(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(index, chips)`` of the uncalled part of the largest bet of a street, or None.

    The largest bet is called only up to the second-largest bet made by anyone (folded
    players included); the rest goes back to the bettor.
    """
    if len(bets) < 2:
        return (0, bets[0]) if bets and bets[0] > 0 else None
    ordered = sorted(bets)
    first, second = ordered[-1], ordered[-2]
    if first > second and first > 0:
        return bets.index(first), first - (second if second > 0 else 0)
    return None
