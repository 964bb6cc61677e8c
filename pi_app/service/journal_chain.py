"""The chained checksums of the records before the snapshot a replay starts from.

:func:`pi_app.service.journal_scan.scan` verifies, record by record, the events it
replays (those after the newest intact snapshot).  The records before that snapshot are
not replayed, but a record changed in place there (a flipped byte, bytes that are not
UTF-8) is damage all the same: :func:`first_break` checks their chain at open, by hash
alone (no JSON is read), and names the first record that breaks it, outside the replay's
loop.  It costs about 45 ms of CPU for 10,000 records on the development machine, 0.15-0.4x
of reading the same journal (``bench/bench_service.py``, whole-chain check).

A break accepted knowingly (``--accept-journal-loss``) leaves the records as they are and
records in ``meta`` (:data:`ANCHOR_KEY`) the record the chain is checked from afterwards:
the snapshot the table goes on from, whose record's stored checksum starts the chain.
"""

from __future__ import annotations

import sqlite3

from pi_app.service.journal_files import chain_bytes

#: meta key: records up to this seq were accepted with a broken chain; the check starts
#: from the stored checksum of this record
ANCHOR_KEY = "chain_checked_from"

_BATCH = 4096


def anchor_of(meta: dict[str, str]) -> int:
    """The record the whole-chain check starts after (0: the journal's first record)."""
    value = meta.get(ANCHOR_KEY, "0")
    return int(value) if value.isdigit() else 0


def _start(con: sqlite3.Connection, journal_id: str, anchor: int) -> bytes | None:
    if anchor == 0:
        return journal_id.encode()
    row = con.execute("SELECT CAST(checksum AS BLOB) FROM events WHERE seq = ?",
                      (anchor,)).fetchone()
    return None if row is None else bytes(row[0])


def first_break(con: sqlite3.Connection, journal_id: str, upto: int,
                anchor: int = 0) -> tuple[int, str] | None:
    """The first record in ``anchor + 1 .. upto`` that is missing or whose chained
    checksum (:func:`pi_app.service.journal_files.chain_bytes`) does not hold, as
    ``(seq, what)``;
    None when the chain holds.  Data and checksums are read as bytes, so text that is not
    UTF-8 is a mismatch, never a decoding error."""
    if upto <= anchor:
        return None
    prev = _start(con, journal_id, anchor)
    if prev is None:
        return anchor, f"record {anchor} is missing"
    expected = anchor + 1
    cur = con.execute("SELECT seq, CAST(data AS BLOB), CAST(checksum AS BLOB) FROM events "
                      "WHERE seq > ? AND seq <= ? ORDER BY seq", (anchor, upto))
    while rows := cur.fetchmany(_BATCH):
        for seq, data, check in rows:
            if seq != expected:
                return expected, f"record {expected} is missing (next is {seq})"
            if chain_bytes(prev, seq, data) != check:
                return seq, f"record {seq} is damaged (checksum mismatch)"
            prev = check
            expected += 1
    if expected <= upto:
        return expected, f"record {expected} is missing"
    return None
