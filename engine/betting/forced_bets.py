"""How a hand opens: the seating order, the blind positions, the forced bets and the seat
the preflop betting starts from.  Pure functions of a :class:`HandConfig`; the rules and
their sources are listed in docs/rules.md.

Positions are indexes into the seating order (0 = the first dealt-in seat left of the
button, clockwise); chips are ints.

>>> cfg = HandConfig(stacks={1: 1000, 3: 800, 4: 1200}, button=4, small_blind=10,
...                  big_blind=20)
>>> seating_order(cfg), blind_positions(cfg, {1: 0, 3: 1, 4: 2})
([1, 3, 4], (0, 1))
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import repeat

from engine.betting.hand_config import HandConfig, InvalidHandConfigError
from engine.betting.operations import (
    AddBonus,
    Operation,
    PostAnte,
    PostBlind,
    RawOperation,
    build_records,
)


def seating_order(cfg: HandConfig) -> list[int]:
    """The seats dealt in, clockwise from the first seat left of the button (the order
    the hole cards are dealt in, and the TDA 20-A order for odd chips)."""
    ordered = sorted(cfg.stacks)
    k = bisect_right(ordered, cfg.button)  # the first seat above the button (none: 0)
    return ordered[k:] + ordered[:k]


def blind_positions(cfg: HandConfig, index: dict[int, int]) -> tuple[int | None, int | None]:
    """The positions of the small and big blind (None: no such blind).  Dead button by
    explicit blind seats (TDA 32); heads-up the button posts the small blind (TDA 34-B).

    Raises:
        InvalidHandConfigError: both blinds on one seat, or a big-blind ante without a
            big blind.
    """
    n = len(index)
    if cfg.small_blind_seat is not None:
        sb = index.get(cfg.small_blind_seat)
    else:
        sb = (1 if n == 2 else 0) if cfg.small_blind else None
    if cfg.big_blind_seat is not None:
        bb = index.get(cfg.big_blind_seat)
    else:
        bb = (0 if n == 2 else 1) if cfg.big_blind else None
    if cfg.small_blind == 0:
        sb = None
    if cfg.big_blind == 0:
        bb = None
    if sb is not None and sb == bb:
        raise InvalidHandConfigError("bad hand config: small and big blind on the same seat")
    if cfg.big_blind_ante and bb is None:
        raise InvalidHandConfigError("bad hand config: a big-blind ante needs a big blind")
    return sb, bb


def preflop_start(cfg: HandConfig, index: dict[int, int], sb: int | None,
                  bb: int | None) -> int:
    """The position the preflop betting starts from: the configured seat, else left of
    the big blind, else left of the small blind, else left of the button (no blinds)."""
    n = len(index)
    if cfg.preflop_first_seat is not None:
        return index[cfg.preflop_first_seat]
    if bb is not None:
        return (bb + 1) % n
    if sb is not None:
        return (sb + 1) % n
    return 0


@dataclass(slots=True)
class ForcedBets:
    """The chips put in before any card: per position the stack left, the live bet and
    the ante committed; the dead money (big-blind ante, bonus) and the chips already in
    the pot (antes and dead money); the operations that record them, in order, as a
    hand keeps them (``raw``, :data:`engine.betting.operations.RawOperation`) and as
    records (:attr:`ops`)."""

    stack: list[int]
    bet: list[int]
    committed: list[int]
    dead: int = 0
    pot_total: int = 0
    raw: list[RawOperation] = field(default_factory=list)

    @property
    def ops(self) -> list[Operation]:
        """The operation records, in order."""
        return build_records(self.raw)


def post_forced(cfg: HandConfig, seats: list[int], sb: int | None,
                bb: int | None) -> ForcedBets:
    """Post the antes (live: they count toward side pots), the blinds, the big-blind ante
    (dead money in the main pot; the big blind comes first when the stack cannot cover
    both), the live posts and the bonus.  A short blind or ante is posted all-in."""
    n = len(seats)
    st = list(map(cfg.stacks.__getitem__, seats))
    bet = [0] * n
    ante = cfg.ante
    if ante:  # each stack's ante, all of it when short; the records in seating order
        committed = [a if a < ante else ante for a in st]
        st = [a - c for a, c in zip(st, committed, strict=True)]
        ops: list[RawOperation] = list(zip(repeat(PostAnte), seats, committed, strict=False))
        pot_total = sum(committed)
    else:
        committed = [0] * n
        ops = []
        pot_total = 0
    dead = 0
    if sb is not None:
        a = cfg.small_blind
        if a > st[sb]:  # short: all-in
            a = st[sb]
        st[sb] -= a
        bet[sb] += a
        ops.append((PostBlind, seats[sb], a, "small_blind"))
    if bb is not None:
        a = cfg.big_blind
        if a > st[bb]:
            a = st[bb]
        st[bb] -= a
        bet[bb] += a
        ops.append((PostBlind, seats[bb], a, "big_blind"))
        if cfg.big_blind_ante:
            a = min(cfg.big_blind_ante, st[bb])  # the blind takes priority over the ante
            st[bb] -= a
            dead += a
            ops.append((PostBlind, seats[bb], a, "big_blind_ante"))
    if cfg.posts:
        index = dict(zip(seats, range(n), strict=True))
        for seat in sorted(cfg.posts, key=index.__getitem__):
            i = index[seat]
            a = min(cfg.posts[seat], st[i])
            st[i] -= a
            bet[i] += a
            ops.append((PostBlind, seat, a, "post"))
    if cfg.bonus:
        dead += cfg.bonus
        ops.append((AddBonus, cfg.bonus))
    return ForcedBets(st, bet, committed, dead, pot_total + dead, ops)
