"""Heads-up preflop odds from a precomputed table: exact, in microseconds.

Two hands all in before the flop, with no card known out of the deck, have
C(48, 5) = 1,712,304 boards to come.  :func:`heads_up_preflop` reads each hand's count of
boards won and the count of boards tied from ``data/preflop_heads_up.bin``, shipped with
the package and written by :mod:`engine.betting.preflop_table_build` (which counts every
board of every matchup, by suit classes; ``data/PREFLOP_TABLE.md`` gives its provenance).  The counts
are the exact enumeration's, so ``Fraction(wins, 1712304)`` equals what enumerating the
boards gives.

**Matchups by suit isomorphism.**  Renaming the suits (24 permutations of clubs,
diamonds, hearts, spades) changes no hand's value on any board, so two matchups that one
renaming maps onto each other have the same counts.  A matchup's key is the smallest code
over the 24 renamings and the two orders of the hands, a hand coded ``high * 52 + low``
(card ids, ``rank_index * 4 + suit_index``) and a matchup ``first * 2704 + second``; the
1,624,350 ordered pairs of disjoint hands fall into :data:`MATCHUPS` keys.

**File format** (little-endian): the 8-byte magic ``PTHU1\\r\\n\\x1a``, the entry count
(uint32), the SHA-256 of the uncompressed payload (32 bytes), then the payload compressed
with zlib: the sorted keys, the first hand's wins, the second hand's wins (each ``count``
uint32, column after column).  Ties are ``BOARDS - wins_first - wins_second``.  A file
that is not a regular file, is larger than :data:`MAX_FILE_BYTES`, has another magic,
count or digest, or holds counts that cannot be (unsorted keys, wins over the boards)
raises :class:`PreflopTableError`: a damaged file stops the odds instead of giving them.

>>> from engine.cards import parse_cards
>>> odds = heads_up_preflop(parse_cards("AhKh"), parse_cards("QsQd"))
>>> odds.wins, odds.ties, odds.boards
((787966, 917606), (6732, 6732), 1712304)
"""

from __future__ import annotations

import hashlib
import operator
import os
import stat
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import islice, permutations
from pathlib import Path

from engine.cards import Card
from engine.errors import InvalidCardError, PokerTableError

#: Boards to come for two hands preflop with nothing else out of the deck: C(48, 5).
BOARDS = 1_712_304
#: Matchups of two disjoint hands up to renaming suits and swapping the hands.
MATCHUPS = 47_008
#: The file's first bytes (a version digit, then bytes that text transfers mangle).
MAGIC = b"PTHU1\r\n\x1a"
#: The largest table file read (the shipped one is about a third of this).
MAX_FILE_BYTES = 2 * 1024 * 1024
#: The packaged table: ``engine/betting/data/preflop_heads_up.bin``.
TABLE_PACKAGE, TABLE_NAME = "engine.betting.data", "preflop_heads_up.bin"

_HEADER = struct.Struct("<8sI32s")
_U32 = "I" if array("I").itemsize == 4 else "L"  # an array type code of 4-byte unsigned
#: Card maps of the 24 suit renamings: ``SUIT_RENAMINGS[k][card_id]``.
SUIT_RENAMINGS: tuple[tuple[int, ...], ...] = tuple(
    tuple(rank * 4 + perm[suit] for rank in range(13) for suit in range(4))
    for perm in permutations(range(4)))


class PreflopTableError(PokerTableError, ValueError):
    """The heads-up preflop table file is missing, not a regular file, too big, or
    damaged (magic, entry count, checksum or impossible counts); the message says which."""


@dataclass(frozen=True)
class HeadsUpCounts:
    """Exact counts of one heads-up preflop spot.  ``wins``: boards each hand wins outright
    (in the order given); ``ties``: boards split, the same for both; ``boards``: all of
    them (:data:`BOARDS`)."""

    wins: tuple[int, int]
    ties: tuple[int, int]
    boards: int


@dataclass(frozen=True)
class PreflopTable:
    """The loaded table: ``keys`` sorted, ``first``/``second`` the wins of the key's first
    and second hand, one entry per matchup key."""

    keys: array[int]
    first: array[int]
    second: array[int]

    def counts(self, key: int) -> tuple[int, int]:
        """(wins of the key's first hand, wins of its second) for a matchup key.

        Raises:
            PreflopTableError: the key is not in the table (a table missing matchups).
        """
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise PreflopTableError(f"the heads-up preflop table has no matchup {key}")
        return self.first[i], self.second[i]


def matchup_key(first: tuple[int, int], second: tuple[int, int]) -> tuple[int, bool]:
    """(key, swapped) of two disjoint hands given as card ids: ``swapped`` is True when the
    key lists ``second`` first."""
    forward = backward = 1 << 30
    a0, a1 = first
    b0, b1 = second
    for m in SUIT_RENAMINGS:
        x, y, u, v = m[a0], m[a1], m[b0], m[b1]
        ha = x * 52 + y if x > y else y * 52 + x
        hb = u * 52 + v if u > v else v * 52 + u
        forward = min(forward, ha * 2704 + hb)
        backward = min(backward, hb * 2704 + ha)
    return (backward, True) if backward < forward else (forward, False)


def heads_up_preflop(first: Sequence[Card], second: Sequence[Card],
                     table: PreflopTable | None = None) -> HeadsUpCounts:
    """The exact heads-up preflop counts of two hands (two :class:`Card` each, no card
    shared), from ``table`` (default the packaged one, read once).

    Raises:
        InvalidCardError: a hand not of two cards, or a card given twice.
        PreflopTableError: the packaged table is missing or damaged.
    """
    cards = [*first, *second]
    if len(first) != 2 or len(second) != 2:
        raise InvalidCardError("heads-up preflop takes two hands of two cards")
    if len({c.id for c in cards}) != 4:
        raise InvalidCardError("a card is given twice")
    key, swapped = matchup_key((first[0].id, first[1].id), (second[0].id, second[1].id))
    w_key_first, w_key_second = (table or packaged_table()).counts(key)
    wins = (w_key_second, w_key_first) if swapped else (w_key_first, w_key_second)
    tie = BOARDS - wins[0] - wins[1]
    return HeadsUpCounts(wins, (tie, tie), BOARDS)


@cache
def packaged_table() -> PreflopTable:
    """The table shipped in the package, read and checked on first use.

    Raises:
        PreflopTableError: as :func:`load_table`.
    """
    with resources.as_file(resources.files(TABLE_PACKAGE).joinpath(TABLE_NAME)) as path:
        return load_table(path)


def load_table(path: str | os.PathLike[str]) -> PreflopTable:
    """Read and check a table file (format in the module's docstring).

    Raises:
        PreflopTableError: missing, not a regular file, too big, or damaged.
    """
    return parse_table(_read_file(Path(path)), str(path))


def _read_file(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise PreflopTableError(f"{path}: cannot open the preflop table: "
                                f"{exc.strerror}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PreflopTableError(f"{path}: the preflop table is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise PreflopTableError(f"{path}: the preflop table is over {MAX_FILE_BYTES:,} bytes")
    return data


def parse_table(data: bytes, where: str = "preflop table") -> PreflopTable:
    """The table held in ``data`` (a whole file), checked.

    Raises:
        PreflopTableError: another magic, entry count or checksum, a payload that does not
            decompress to exactly ``count * 12`` bytes, keys not strictly increasing, or a
            matchup whose wins exceed :data:`BOARDS`.
    """
    if len(data) < _HEADER.size:
        raise PreflopTableError(f"{where}: truncated ({len(data)} bytes)")
    magic, count, digest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise PreflopTableError(f"{where}: not a heads-up preflop table (magic {magic!r})")
    if count != MATCHUPS:
        raise PreflopTableError(f"{where}: {count:,} matchups, expected {MATCHUPS:,}")
    size = count * 12
    unpack = zlib.decompressobj()
    try:
        payload = unpack.decompress(data[_HEADER.size:], size + 1)
    except zlib.error as exc:
        raise PreflopTableError(f"{where}: the payload does not decompress: {exc}") from exc
    if len(payload) != size or not unpack.eof or unpack.unused_data:
        raise PreflopTableError(f"{where}: the payload is not {size:,} bytes")
    if hashlib.sha256(payload).digest() != digest:
        raise PreflopTableError(f"{where}: checksum mismatch (the file is damaged)")
    cols = [array(_U32), array(_U32), array(_U32)]
    for k, col in enumerate(cols):
        col.frombytes(payload[k * count * 4:(k + 1) * count * 4])
        if sys.byteorder == "big":  # pragma: no cover - the Pi and CI are little-endian
            col.byteswap()
    keys, first, second = cols
    _check_counts(keys, first, second, where)
    return PreflopTable(keys, first, second)


def _check_counts(keys: array[int], first: array[int], second: array[int],
                  where: str) -> None:
    if not all(map(operator.lt, keys, islice(keys, 1, None))):
        raise PreflopTableError(f"{where}: the matchup keys are not strictly increasing")
    if max(map(operator.add, first, second)) > BOARDS:
        raise PreflopTableError(f"{where}: a matchup wins more than {BOARDS:,} boards")


def encode_table(keys: Sequence[int], first: Sequence[int], second: Sequence[int]) -> bytes:
    """A table file holding the given columns (keys sorted, one entry per matchup)."""
    payload = b"".join(_le_bytes(array(_U32, col)) for col in (keys, first, second))
    header = _HEADER.pack(MAGIC, len(keys), hashlib.sha256(payload).digest())
    return header + zlib.compress(payload, 9)


def _le_bytes(col: array[int]) -> bytes:
    if sys.byteorder == "big":  # pragma: no cover - the Pi and CI are little-endian
        col.byteswap()
    return col.tobytes()
