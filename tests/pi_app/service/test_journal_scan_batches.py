"""The journal's events are read in batches (one query, ``_BATCH`` records at a time),
their chain verified for every record and their JSON read by the C scanner called
straight: whatever the damage and wherever it falls against the batches' edges, the read
gives what the plain record-by-record read gives (written out below as the reference):
the same events, the same first missing, damaged or torn record, the same chain values,
the same refusal of a newer event type."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import UnknownEventError, event_from_dict
from pi_app.service import journal_scan
from pi_app.service.journal_files import JournalNewerError, chain
from pi_app.service.journal_scan import TornRecord, _read_events

JOURNAL_ID = "j" * 32
PATH = Path("journal.db")


def _reference(con: sqlite3.Connection, after: int, prev: str) -> dict:
    """The plain read: every record in turn, its sequence, chain and JSON checked."""
    rows = con.execute("SELECT seq, data, checksum FROM events WHERE seq > ? ORDER BY seq",
                       (after,)).fetchall()
    out = {"events": [], "last_chain": prev, "chains": {after: prev},
           "rows_end": rows[-1][0] if rows else after, "torn": None, "bad": None}
    expected = after + 1
    for i, (seq, data, check) in enumerate(rows):
        if seq != expected:
            out["bad"] = (expected, f"record {expected} is missing (next is {seq})")
            break
        value = chain(out["last_chain"], seq, data)
        if check != value:
            if i == len(rows) - 1:
                out["torn"] = TornRecord(seq, "checksum mismatch")
            else:
                out["bad"] = (seq, f"record {seq} is damaged (checksum mismatch)")
            break
        try:
            event = event_from_dict(json.loads(data))
        except UnknownEventError:
            out["newer"] = seq
            return out
        except (ValueError, TypeError, KeyError) as exc:
            out["bad"] = (seq, f"record {seq} is damaged (unreadable: {exc})")
            break
        out["events"].append((seq, event))
        out["last_chain"] = out["chains"][seq] = value
        expected += 1
    return out


#: what a record may become: (kind, the data written; None: the record is left out)
_DAMAGE = st.sampled_from([
    ("missing", None),
    ("checksum", "checksum"),
    ("unreadable", '{"t":1.0,"type":"clock_tick"'),
    ("two values", '{"t":1.0,"type":"clock_tick"} {}'),
    ("spaces", ' {"t": 1.0, "type": "clock_tick"}\n'),
    ("bom", '\ufeff{"t":1.0,"type":"clock_tick"}'),
    ("not an object", "[1, 2]"),
    ("null", "null"),
    ("bad field", '{"t":"soon","type":"clock_tick"}'),
    ("infinite", '{"t":1e999,"type":"clock_tick"}'),
    ("newer type", '{"t":1.0,"type":"time_travel"}'),
    ("blob", b'{"t":1.0,"type":"clock_tick"}'),
])


def _journal(n: int, damage: dict[int, tuple[str, object]]) -> sqlite3.Connection:
    """``n`` records (seat keys and ticks), each damaged as ``damage`` says; every chain
    made to hold (as a writer that meant it would) except where the damage is the
    checksum itself."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE events(seq INTEGER PRIMARY KEY, t REAL NOT NULL, data TEXT "
                "NOT NULL, checksum TEXT NOT NULL)")
    prev = JOURNAL_ID
    for seq in range(1, n + 1):
        kind, data = damage.get(seq, ("", None))
        if kind == "missing":
            continue
        if data is None or kind == "checksum":
            data = (f'{{"button":"fold","press":"press","seat":{seq % 9 + 1},"t":{seq}.5,'
                    '"type":"seat_button"}' if seq % 3 else f'{{"t":{seq}.0,"type":"clock_tick"}}')
        value = chain(prev, seq, data)  # type: ignore[arg-type]
        check = "0" * 32 if kind == "checksum" else value
        con.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (seq, float(seq), data, check))
        prev = value
    return con


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 14), batch=st.integers(1, 6),
       damage=st.dictionaries(st.integers(1, 14), _DAMAGE, max_size=3),
       after=st.integers(0, 3), marked=st.none() | st.integers(0, 16))
def test_a_batched_read_finds_what_a_plain_read_finds(n, batch, damage, after, marked):
    con = _journal(n, damage)
    row = con.execute("SELECT checksum FROM events WHERE seq = ?", (after,)).fetchone()
    prev = JOURNAL_ID if after == 0 else (row[0] if row else "x")
    want = _reference(con, after, prev)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(journal_scan, "_BATCH", batch)
        if "newer" in want:
            with pytest.raises(JournalNewerError, match=f"record {want['newer']} was written"):
                _read_events(con, PATH, after, prev, marked)
            return
        got = _read_events(con, PATH, after, prev, marked)
    assert got.events == want["events"]
    assert (got.bad, got.torn, got.rows_end) == (want["bad"], want["torn"], want["rows_end"])
    assert got.last_chain == want["last_chain"]
    assert got.marked == (None if marked is None else want["chains"].get(marked))


def test_a_journal_of_several_batches_is_read_whole() -> None:
    """Past the first batch: every record read, in order, the chain carried across."""
    n = 2 * journal_scan._BATCH + 7
    con = _journal(n, {})
    got = _read_events(con, PATH, 0, JOURNAL_ID, n - 3)
    want = _reference(con, 0, JOURNAL_ID)
    assert [s for s, _ in got.events] == list(range(1, n + 1))
    assert got.events == want["events"] and got.last_chain == want["last_chain"]
    assert got.marked == want["chains"][n - 3]
    assert got.bad is None and got.torn is None
