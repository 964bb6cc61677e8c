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

from dataclasses import dataclass, field

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
    k = next((j for j, s in enumerate(ordered) if s > cfg.button), 0)
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


@dataclass
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
    fb = ForcedBets(list(map(cfg.stacks.__getitem__, seats)), [0] * n, [0] * n)
    st, ops = fb.stack, fb.raw
    ante = cfg.ante
    if ante:
        committed = fb.committed
        for i, seat in enumerate(seats):
            a = st[i]
            if a > ante:
                a = ante
            st[i] -= a
            committed[i] = a
            ops.append((PostAnte, seat, a))
        fb.pot_total += sum(committed)
    for pos, amount, kind in ((sb, cfg.small_blind, "small_blind"),
                              (bb, cfg.big_blind, "big_blind")):
        if pos is not None:
            a = min(amount, st[pos])
            st[pos] -= a
            fb.bet[pos] += a
            ops.append((PostBlind, seats[pos], a, kind))
    if cfg.big_blind_ante and bb is not None:
        a = min(cfg.big_blind_ante, st[bb])  # the blind takes priority over the ante
        st[bb] -= a
        fb.dead += a
        fb.pot_total += a
        ops.append((PostBlind, seats[bb], a, "big_blind_ante"))
    index = dict(zip(seats, range(n), strict=True)) if cfg.posts else {}
    for seat in sorted(cfg.posts, key=index.__getitem__):
        i = index[seat]
        a = min(cfg.posts[seat], st[i])
        st[i] -= a
        fb.bet[i] += a
        ops.append((PostBlind, seat, a, "post"))
    if cfg.bonus:
        fb.dead += cfg.bonus
        fb.pot_total += cfg.bonus
        ops.append((AddBonus, cfg.bonus))
    return fb
