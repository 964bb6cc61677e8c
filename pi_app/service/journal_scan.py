"""Reading a journal back: the newest intact snapshot, the events after it with their
chained checksums verified, and the comparison with the high-water mark
(:mod:`pi_app.service.journal_mark`) that tells a power cut from a loss.

* A power cut can only tear the record being written, which is past the mark: it is
  reported in ``torn`` and dropped on resume, without a question (as SQLite itself does).
* Anything else is a loss: the journal ends before its mark (a deleted or damaged ``-wal``,
  cut or flipped bytes, ``journal.db`` copied alone), a record at or below the mark is
  damaged, a record is missing, the mark is missing or belongs to another journal.
  :func:`scan` raises :class:`JournalLossError` (one line: the file, how many records are
  missing) unless the loss is accepted; then it is returned in ``loss``.
* A record whose checksum holds but whose event type is unknown was written by a newer
  pokertable: :class:`JournalNewerError`, always (accepting a loss does not cover it).
  Records before the newest snapshot are not replayed, but their event types are checked
  too: a newer pokertable's record there means the snapshot was made by it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.events import EVENT_TYPES, Event, UnknownEventError, event_from_dict
from pi_app.service.journal_files import (
    JournalCorruptError,
    JournalLossError,
    JournalNewerError,
    chain,
    checksum,
)
from pi_app.service.journal_mark import Mark, MarkError, mark_path, read_mark


@dataclass(frozen=True)
class TornRecord:
    """The last record failed its checksum and is past the high-water mark (a write cut
    by a power failure): dropped on recovery."""

    seq: int
    reason: str


@dataclass(frozen=True)
class Loss:
    """Records the journal lost: ``missing`` of them (None: cannot be told), ``keep_to``
    the last record that is kept, ``text`` the one-line explanation."""

    missing: int | None
    keep_to: int
    text: str


@dataclass
class ScanResult:
    """What :func:`scan` found: the newest good snapshot and the events after it."""

    snapshot_seq: int
    snapshot: dict[str, Any]
    events: list[tuple[int, Event]]
    torn: TornRecord | None = None
    bad_snapshots: list[int] = field(default_factory=list)
    loss: Loss | None = None
    last_chain: str = ""

    @property
    def last_seq(self) -> int:
        return self.events[-1][0] if self.events else self.snapshot_seq


@dataclass
class _Events:
    events: list[tuple[int, Event]]
    last_chain: str
    chains: dict[int, str]
    rows_end: int  # the highest seq stored
    torn: TornRecord | None = None
    bad: tuple[int, str] | None = None  # (seq, what) of the first damaged/missing record


def _newest_snapshot(con: sqlite3.Connection, path: Path) -> tuple[int, dict[str, Any],
                                                                   list[int]]:
    bad: list[int] = []
    for seq, data, check in con.execute(
            "SELECT seq, data, checksum FROM snapshots ORDER BY seq DESC"):
        if check == checksum(seq, data):
            try:
                return seq, json.loads(data), bad
            except ValueError:
                pass
        bad.append(seq)
    raise JournalCorruptError(f"{path}: no intact snapshot (not even the genesis); the file "
                              "was not changed")


def _read_events(con: sqlite3.Connection, path: Path, after: int, prev: str) -> _Events:
    """The verified events after ``after`` (``prev``: the chain value of record
    ``after``), with the chain value of each."""
    rows = con.execute("SELECT seq, data, checksum FROM events WHERE seq > ? ORDER BY seq",
                       (after,)).fetchall()
    out = _Events([], prev, {after: prev}, rows[-1][0] if rows else after)
    expected = after + 1
    for i, (seq, data, check) in enumerate(rows):
        if seq != expected:
            out.bad = (expected, f"record {expected} is missing (next is {seq})")
            break
        value = chain(out.last_chain, seq, data)
        if check != value:
            if i == len(rows) - 1:
                out.torn = TornRecord(seq, "checksum mismatch")
            else:
                out.bad = (seq, f"record {seq} is damaged (checksum mismatch)")
            break
        try:
            event = event_from_dict(json.loads(data))
        except UnknownEventError as exc:
            raise JournalNewerError(
                f"{path}: record {seq} was written by a newer pokertable ({exc}); upgrade "
                "pokertable to resume it; the file was not changed") from None
        except (ValueError, TypeError, KeyError) as exc:
            out.bad = (seq, f"record {seq} is damaged (unreadable: {exc})")
            break
        out.events.append((seq, event))
        out.last_chain = out.chains[seq] = value
        expected += 1
    return out


def _refuse_newer_types(con: sqlite3.Connection, path: Path, upto: int) -> None:
    """Raises JournalNewerError: a record up to ``upto`` names an unknown event type."""
    known = sorted(EVENT_TYPES)
    row = con.execute(
        "SELECT seq, json_extract(data, '$.type') FROM events WHERE seq <= ? AND "
        "json_valid(data) AND json_type(data, '$.type') = 'text' AND "
        f"json_extract(data, '$.type') NOT IN ({', '.join('?' * len(known))}) "
        "ORDER BY seq LIMIT 1", (upto, *known)).fetchone()
    if row is not None:
        raise JournalNewerError(
            f"{path}: record {row[0]} was written by a newer pokertable (unknown event type "
            f"{str(row[1])[:40]!r}); upgrade pokertable to resume it; the file was not changed")


def _stored_chain(con: sqlite3.Connection, seq: int, journal_id: str) -> str | None:
    if seq == 0:
        return journal_id
    row = con.execute("SELECT checksum FROM events WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else str(row[0])


def _read_mark(path: Path) -> tuple[Mark | None, str | None]:
    try:
        mark = read_mark(path)
    except MarkError as exc:
        return None, str(exc)
    if mark is None:
        return None, (f"its high-water mark {mark_path(path).name} is missing, so whether "
                      "records were lost cannot be told")
    return mark, None


def _judge(con: sqlite3.Connection, path: Path, journal_id: str, mark: Mark | None,
           mark_problem: str | None, ev: _Events, snap_seq: int) -> Loss | None:
    """The loss the journal shows against its mark, or None."""
    end = ev.events[-1][0] if ev.events else snap_seq
    if mark_problem is not None or mark is None:
        return Loss(None, end, f"{path}: {mark_problem}")
    if mark.journal_id != journal_id:
        return Loss(None, end, f"{path}: its high-water mark {mark_path(path).name} belongs to "
                               "another journal")
    top = max(mark.seq, ev.rows_end)
    if ev.bad is not None:
        seq, what = ev.bad
        return Loss(top - seq + 1, seq - 1, f"{path}: {top - seq + 1} journal records are "
                                            f"missing or damaged ({what})")
    if ev.torn is not None and ev.torn.seq <= mark.seq:
        return Loss(mark.seq - ev.torn.seq + 1, ev.torn.seq - 1,
                    f"{path}: {mark.seq - ev.torn.seq + 1} journal records are missing "
                    f"(record {ev.torn.seq} is damaged; the high-water mark says {mark.seq})")
    if mark.seq > end:
        return Loss(mark.seq - end, end,
                    f"{path}: {mark.seq - end} journal records are missing (the journal ends "
                    f"at record {end}, its high-water mark says {mark.seq})")
    known = ev.chains.get(mark.seq) if mark.seq >= snap_seq else \
        _stored_chain(con, mark.seq, journal_id)
    if known != mark.chain:
        return Loss(None, end, f"{path}: record {mark.seq} differs from the one its "
                               "high-water mark recorded (records were replaced)")
    return None


def scan(con: sqlite3.Connection, path: Path, journal_id: str, *,
         accept_loss: bool = False) -> ScanResult:
    """Read the journal on ``con`` (see the module docstring).

    Raises:
        JournalLossError: records were lost (unless ``accept_loss``); nothing is written.
        JournalNewerError: a record of an event type this pokertable does not know.
        JournalCorruptError: no intact snapshot, or a snapshot whose record is gone.
    """
    mark, mark_problem = _read_mark(path)  # before the events: the mark is never ahead
    snap_seq, snap, bad_snaps = _newest_snapshot(con, path)
    prev = _stored_chain(con, snap_seq, journal_id)
    if prev is None:
        raise JournalCorruptError(f"{path}: record {snap_seq} of the newest snapshot is gone; "
                                  "the file was not changed")
    _refuse_newer_types(con, path, snap_seq)
    ev = _read_events(con, path, snap_seq, prev)
    loss = _judge(con, path, journal_id, mark, mark_problem, ev, snap_seq)
    if loss is not None and not accept_loss:
        raise JournalLossError(
            f"{loss.text}; the file was not changed: restore the journal with its -wal, or "
            f"add --accept-journal-loss to go on from record {loss.keep_to}", loss.missing)
    events = [(s, e) for s, e in ev.events if loss is None or s <= loss.keep_to]
    last_chain = ev.chains[loss.keep_to] if loss is not None else ev.last_chain
    return ScanResult(snap_seq, snap, events, None if loss else ev.torn, bad_snaps, loss,
                      last_chain)
