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
* Records before the newest snapshot are not replayed, but their chain is verified too
  (:mod:`pi_app.service.journal_chain`, hash only): a record damaged there is a loss like
  any other; accepted, the table goes on from the snapshot, which holds its state.
* A record whose text is not UTF-8 is damaged like one whose checksum fails (never a
  decoding error).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from json.scanner import make_scanner
from operator import itemgetter
from pathlib import Path
from typing import Any

from engine.events import EVENT_TYPES, Event, UnknownEventError, event_from_dict
from pi_app.service.journal_chain import first_break
from pi_app.service.journal_files import (
    JournalCorruptError,
    JournalLossError,
    JournalNewerError,
    chain_bytes,
    checksum,
    damage_from,
    disk_trouble,
)
from pi_app.service.journal_mark import Mark, MarkError, mark_path, read_mark

#: records read from the journal at a time (one query; a night's journal is read in a few)
_BATCH = 4096
#: the C JSON scanner ``json.loads`` ends in (its default decoder's ``scan_once``), called
#: straight
_SCAN_ONCE = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # its context


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
    anchor: int | None = None  #: a break before this snapshot's record is accepted with it


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
    rows_end: int  # the highest seq stored
    marked: str | None = None  # the chain value of the record the mark names, when read
    torn: TornRecord | None = None
    bad: tuple[int, str] | None = None  # (seq, what) of the first damaged/missing record


def _newest_snapshot(con: sqlite3.Connection, path: Path) -> tuple[int, dict[str, Any],
                                                                   list[int]]:
    bad: list[int] = []
    for seq, raw, check in con.execute(  # as bytes: text that is not UTF-8 is damage
            "SELECT seq, CAST(data AS BLOB), CAST(checksum AS BLOB) FROM snapshots "
            "ORDER BY seq DESC"):
        data = bytes(raw).decode("utf-8", "replace")
        if bytes(check) == checksum(seq, data).encode():
            try:
                return seq, json.loads(data), bad
            except ValueError:
                pass
        bad.append(seq)
    raise JournalCorruptError(f"{path}: no intact snapshot (not even the genesis); the file "
                              "was not changed")


def _read_events(con: sqlite3.Connection, path: Path, after: int, prev: str,
                 marked: int | None) -> _Events:
    """The verified events after ``after`` (``prev``: the chain value of record
    ``after``), read in one query, ``_BATCH`` records at a time, with the chain value of
    record ``marked`` when it is ``after`` or among them (the record the high-water mark
    names).  Stops at the first record missing, damaged or torn (told in the result)."""
    top = con.execute("SELECT max(seq) FROM events WHERE seq > ?", (after,)).fetchone()[0]
    out = _Events([], prev, after if top is None else top)
    if marked == after:
        out.marked = prev
    query = "SELECT seq, data, checksum FROM events WHERE seq > ? ORDER BY seq"
    cur = con.execute(query, (after,))
    expected = after + 1
    while out.bad is None and out.torn is None:
        try:
            rows = cur.fetchmany(_BATCH)
        except sqlite3.OperationalError:  # a record's text is not UTF-8: read it again
            if con.text_factory is not str:  # with U+FFFD in place (its checksum fails)
                raise
            con.text_factory = _lenient
            try:
                rows = con.execute(query, (expected - 1,)).fetchall()
            finally:
                con.text_factory = str
            cur = con.execute("SELECT 1 WHERE 0")  # every row is in hand now
        if not rows:
            break
        taken = _decode(rows, _verified(rows, out, expected), out, path)
        if taken:
            out.last_chain = rows[taken - 1][2]
            if marked is not None and expected <= marked < expected + taken:
                out.marked = rows[marked - expected][2]
        expected += taken
    return out


def _lenient(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _verified(rows: list[tuple[Any, Any, Any]], out: _Events, expected: int) -> int:
    """How many of ``rows`` (seq, data, checksum; the first due to be ``expected``, the
    one before it chained to ``out.last_chain``) are in sequence with their chained
    checksum holding (:func:`chain`, inlined); the first that is not is told in ``out``:
    missing, damaged, or torn when it is the last record stored."""
    seqs = list(map(itemgetter(0), rows))
    if seqs != list(range(expected, expected + len(rows))):
        count = next(i for i, seq in enumerate(seqs) if seq != expected + i)
        out.bad = (expected + count, f"record {expected + count} is missing (next is "
                                     f"{seqs[count]})")
        rows = rows[:count]
    prev, sha256 = out.last_chain, hashlib.sha256
    for seq, data, check in rows:
        if sha256(f"{prev}\x1f{seq}\x1f{data}".encode()).hexdigest()[:32] != check:
            if seq == out.rows_end:
                out.torn = TornRecord(seq, "checksum mismatch")
            else:
                out.bad = (seq, f"record {seq} is damaged (checksum mismatch)")
            return int(seq - expected)
        prev = check
    return len(rows)


def _decode(rows: list[tuple[Any, Any, Any]], count: int, out: _Events, path: Path) -> int:
    """The events of the first ``count`` (verified) ``rows`` appended to ``out.events``,
    and how many: each record's JSON read by the C scanner called straight
    (``json.loads`` when the record is anything but one JSON value alone: the same value
    or the same error), then :func:`event_from_dict`.  The first unreadable record is told
    in ``out`` (instead of a later one) and ends the events.

    Raises:
        JournalNewerError: a record names an event type this pokertable does not know.
    """
    events, scan_once, loads, build = out.events, _SCAN_ONCE, json.loads, event_from_dict
    for i, (seq, data, _check) in enumerate(rows[:count] if count < len(rows) else rows):
        try:
            obj, end = scan_once(data, 0)
        except Exception:  # noqa: BLE001 - json.loads below tells it again, as before
            end = -1
        try:
            events.append((seq, build(obj if end == len(data) else loads(data))))
        except UnknownEventError as exc:
            raise JournalNewerError(
                f"{path}: record {seq} was written by a newer pokertable ({exc}); upgrade "
                "pokertable to resume it; the file was not changed") from None
        except (ValueError, TypeError, KeyError) as exc:
            out.bad, out.torn = (seq, f"record {seq} is damaged (unreadable: {exc})"), None
            return i
    return count


def _refuse_newer_types(con: sqlite3.Connection, path: Path, upto: int,
                        journal_id: str) -> None:
    """Raises JournalNewerError: a record up to ``upto`` names an unknown event type and
    its chained checksum holds (against the stored checksum of the record before it).  One
    whose checksum fails is damage, not a newer pokertable's: :func:`first_break` tells it."""
    known = sorted(EVENT_TYPES)
    kind = "CASE WHEN json_valid(e.data) THEN json_extract(e.data, '$.type') END"
    rows = con.execute(
        f"SELECT e.seq, {kind}, CAST(e.data AS BLOB), CAST(e.checksum AS BLOB), "
        "CAST(p.checksum AS BLOB) FROM events e LEFT JOIN events p ON p.seq = e.seq - 1 "
        f"WHERE e.seq <= ? AND typeof({kind}) = 'text' AND "
        f"{kind} NOT IN ({', '.join('?' * len(known))}) ORDER BY e.seq", (upto, *known))
    for seq, name, data, check, prev in rows:
        prev = journal_id.encode() if seq == 1 else prev
        if prev is not None and chain_bytes(bytes(prev), seq, bytes(data)) == check:
            raise JournalNewerError(
                f"{path}: record {seq} was written by a newer pokertable (unknown event type "
                f"{str(name)[:40]!r}); upgrade pokertable to resume it; the file was not "
                "changed")


def _stored_chain(con: sqlite3.Connection, seq: int, journal_id: str) -> str | None:
    if seq == 0:
        return journal_id
    row = con.execute("SELECT CAST(checksum AS BLOB) FROM events WHERE seq = ?",
                      (seq,)).fetchone()
    return None if row is None else bytes(row[0]).decode("utf-8", "replace")


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
    known = ev.marked if mark.seq >= snap_seq else _stored_chain(con, mark.seq, journal_id)
    if known != mark.chain:
        return Loss(None, end, f"{path}: record {mark.seq} differs from the one its "
                               "high-water mark recorded (records were replaced)")
    return None


def _chain_loss(path: Path, brk: tuple[int, str], snap_seq: int, loss: Loss | None,
                end: int) -> Loss:
    """The loss of a break in the chain before snapshot ``snap_seq`` (with ``loss``, the
    one found after it, if any): accepted, the table goes on from the snapshot."""
    what = f"{brk[1]}, before the snapshot of record {snap_seq}"
    if loss is None:
        return Loss(None, end, f"{path}: {what}", snap_seq)
    return Loss(loss.missing, loss.keep_to, f"{loss.text}; and {what}", snap_seq)


def scan(con: sqlite3.Connection, path: Path, journal_id: str, *,
         accept_loss: bool = False, anchor: int = 0) -> ScanResult:
    """Read the journal on ``con`` (see the module docstring).

    ``anchor``: the record the whole-chain check starts after
    (:func:`pi_app.service.journal_chain.anchor_of`).

    Raises:
        JournalLossError: records were lost or damaged, before the snapshot too (unless
            ``accept_loss``); nothing is written.
        JournalNewerError: a record of an event type this pokertable does not know.
        JournalCorruptError: no intact snapshot, a snapshot whose record is gone, or a
            file SQLite finds damaged ("database disk image is malformed"...).
        sqlite3.DatabaseError: the disk failed (I/O error, locked), not the file.
    """
    try:
        return _scan(con, path, journal_id, accept_loss, anchor)
    except sqlite3.DatabaseError as exc:
        if disk_trouble(exc):
            raise
        raise damage_from(exc, path) from None


def _scan(con: sqlite3.Connection, path: Path, journal_id: str, accept_loss: bool,
          anchor: int) -> ScanResult:
    mark, mark_problem = _read_mark(path)  # before the events: the mark is never ahead
    snap_seq, snap, bad_snaps = _newest_snapshot(con, path)
    prev = _stored_chain(con, snap_seq, journal_id)
    if prev is None:
        raise JournalCorruptError(f"{path}: record {snap_seq} of the newest snapshot is gone; "
                                  "the file was not changed")
    _refuse_newer_types(con, path, snap_seq, journal_id)
    ev = _read_events(con, path, snap_seq, prev, None if mark is None else mark.seq)
    loss = _judge(con, path, journal_id, mark, mark_problem, ev, snap_seq)
    brk = first_break(con, journal_id, snap_seq, anchor)  # not in the replay's loop
    if brk is not None:
        loss = _chain_loss(path, brk, snap_seq, loss,
                           ev.events[-1][0] if ev.events else snap_seq)
    if loss is not None and not accept_loss:
        raise JournalLossError(
            f"{loss.text}; the file was not changed: restore the journal with its -wal, or "
            f"add --accept-journal-loss to go on from record {loss.keep_to}", loss.missing)
    # a loss keeps the journal to its last verified record: ev.last_chain's
    return ScanResult(snap_seq, snap, ev.events, None if loss else ev.torn, bad_snaps, loss,
                      ev.last_chain)
