"""The generator of the heads-up preflop table (:mod:`engine.betting.preflop_table`).

``python -m engine.betting.preflop_table_build --write`` enumerates every board of every
heads-up preflop matchup and writes ``engine/betting/data/preflop_heads_up.bin``; without
``--write`` it writes to ``--out FILE``.  It needs numpy (a development dependency; the
table is read without it) and took about 5 minutes of CPU on this project's 2-core machine.

**How.**  Enumerating the 1,712,304 boards of each of the 47,008 matchups one by one is
about 1.6 x 10^11 hand evaluations.  Instead every 5-card board is taken once, up to
renaming the suits: the 2,598,960 boards fall into 134,459 classes, each with the number of
boards in it (its weight).  On a class's board the 7-card value of each of the 1,326 hands
is evaluated (phevaluator, as the engine does), and the matrix ``W[i, j] += weight`` where
hand i beats hand j (both disjoint from the board) is accumulated with numpy.  ``W[i, j]``
is not each pair's own count (only one board per class was seen), but its sum over a
matchup class is exact, because renaming suits maps a class of boards and a class of
matchups onto themselves; every pair of a matchup class has the same count, so a pair's
count is the class sum divided by the class size (a division checked to be exact).  Ties
are the boards neither hand wins.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import chain, combinations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.betting.preflop_table import BOARDS, MATCHUPS, SUIT_RENAMINGS, TABLE_NAME, encode_table
from engine.evaluation import evaluate_7_ids

#: Where ``--write`` puts the table (the package's data directory).
PACKAGED = Path(__file__).resolve().parent / "data" / TABLE_NAME
I64 = npt.NDArray[np.int64]

_HANDS = np.array([(hi, lo) for hi in range(52) for lo in range(hi)], dtype=np.int64)
_HAND_CODE = _HANDS[:, 0] * 52 + _HANDS[:, 1]
_MAPS = np.array(SUIT_RENAMINGS, dtype=np.int64)  # (24, 52)


def board_classes() -> tuple[I64, I64]:
    """(boards, weights): one 5-card board (card ids, ascending) per class of boards under
    renaming suits, and how many of the 2,598,960 boards each class holds."""
    count = comb(52, 5)
    boards = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8,
                         count=5 * count).reshape(count, 5)
    powers = 52 ** np.arange(4, -1, -1, dtype=np.int64)
    best = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    for m in _MAPS.astype(np.int8):
        renamed = np.sort(m[boards], axis=1)
        code = np.zeros(count, dtype=np.int64)
        for column in range(5):
            code = code * 52 + renamed[:, column]
        np.minimum(best, code, out=best)
    codes, weights = np.unique(best, return_counts=True)
    reps = (codes[:, None] // powers) % 52
    return reps, weights.astype(np.int64)


def win_matrix(boards: I64, weights: I64, progress: bool = False) -> I64:
    """``W[i, j]``: boards (weighted) on which hand i beats hand j, both off the board; hands
    indexed as :data:`_HANDS` (lower phevaluator value is stronger)."""
    n = len(_HANDS)
    total = np.zeros((n, n), dtype=np.int64)
    batch = np.zeros((n, n), dtype=np.uint8)
    cmp = np.empty((n, n), dtype=bool)
    touches = np.zeros((52, n), dtype=bool)
    touches[_HANDS[:, 0], np.arange(n)] = touches[_HANDS[:, 1], np.arange(n)] = True
    hands = [(int(a), int(b)) for a, b in _HANDS]
    ev = evaluate_7_ids
    order = np.argsort(weights, kind="stable")
    pending, weight, start = 0, 0, time.monotonic()
    for done, k in enumerate(order, 1):
        if pending and (weights[k] != weight or pending == 255):
            total += weight * batch.astype(np.int64)
            batch[:] = 0
            pending = 0
        weight = int(weights[k])
        b0, b1, b2, b3, b4 = (int(c) for c in boards[k])
        values = np.array([ev(b0, b1, b2, b3, b4, x, y) for x, y in hands], dtype=np.int32)
        off = touches[boards[k]].any(axis=0)
        np.less.outer(np.where(off, 1 << 20, values), np.where(off, -1, values), out=cmp)
        np.add(batch, cmp, out=batch, casting="unsafe")
        pending += 1
        if progress and done % 5000 == 0:
            print(f"{done:,}/{len(order):,} boards, {time.monotonic() - start:.0f} s",
                  file=sys.stderr)
    total += weight * batch.astype(np.int64)
    return total


def pair_keys() -> tuple[I64, I64, I64]:
    """(i, j, key) of every ordered pair of disjoint hands whose order is the key's: the
    pair's smallest code over the renamings in that order is at most the other order's."""
    index = {(int(a), int(b)): k for k, (a, b) in enumerate(_HANDS)}
    renamed_hand = np.array([[index[(max(m[a], m[b]), min(m[a], m[b]))] for a, b in _HANDS]
                             for m in SUIT_RENAMINGS], dtype=np.int64)  # (24, 1326)
    i, j = np.nonzero(_disjoint())
    forward = np.full(len(i), 1 << 40, dtype=np.int64)
    backward = forward.copy()
    for r in renamed_hand:
        ci, cj = _HAND_CODE[r[i]], _HAND_CODE[r[j]]
        np.minimum(forward, ci * 2704 + cj, out=forward)
        np.minimum(backward, cj * 2704 + ci, out=backward)
    keep = forward <= backward
    return i[keep], j[keep], forward[keep]


def _disjoint() -> npt.NDArray[np.bool_]:
    a, b = _HANDS[:, 0], _HANDS[:, 1]
    shared: npt.NDArray[np.bool_] = ((a[:, None] == a[None, :]) | (a[:, None] == b[None, :])
                                     | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :]))
    return np.logical_not(shared)


def table_columns(wins: I64) -> tuple[list[int], list[int], list[int]]:
    """(keys, wins of the key's first hand, wins of its second) from :func:`win_matrix`.

    Raises:
        ArithmeticError: a class sum not divisible by its size, or counts over
            :data:`BOARDS` (the enumeration went wrong).
    """
    i, j, key = pair_keys()
    keys, inverse, sizes = np.unique(key, return_inverse=True, return_counts=True)
    columns = []
    for w in (wins[i, j], wins[j, i]):
        sums = np.bincount(inverse, weights=w.astype(np.float64)).astype(np.int64)
        if np.any(sums % sizes):
            raise ArithmeticError("a matchup class's pairs do not share one count")
        columns.append(sums // sizes)
    first, second = columns
    if len(keys) != MATCHUPS or np.any(first + second > BOARDS):
        raise ArithmeticError(f"{len(keys)} matchups or counts over {BOARDS} boards")
    return keys.tolist(), first.tolist(), second.tolist()


def build(progress: bool = False, limit: int | None = None) -> bytes:
    """The table file's bytes; ``limit`` takes only that many board classes (a quick run
    whose counts are not the table's, for trying the generator)."""
    boards, weights = board_classes()
    if limit is not None:
        boards, weights = boards[:limit], weights[:limit]
    wins = win_matrix(boards, weights, progress)
    if limit is not None:
        return b""
    return encode_table(*table_columns(wins))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the heads-up preflop odds table.")
    ap.add_argument("--write", action="store_true", help=f"write {PACKAGED}")
    ap.add_argument("--out", type=Path, help="write the table to this file instead")
    args = ap.parse_args(argv)
    if not args.write and args.out is None:
        ap.error("give --write or --out FILE")
    data = build(progress=True)
    target = PACKAGED if args.write else args.out
    target.write_bytes(data)
    print(f"wrote {target} ({len(data):,} bytes, {MATCHUPS:,} matchups)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
