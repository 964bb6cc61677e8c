"""The SQLite journal: every input event, written before it is applied, plus snapshots.

File layout (one SQLite database, WAL mode, ``synchronous=FULL``, mode 0600)::

    meta(key TEXT PRIMARY KEY, value TEXT)        -- schema_version, journal_id, core, ...
    events(seq INTEGER PRIMARY KEY, t REAL, data TEXT, checksum TEXT)
    snapshots(seq INTEGER PRIMARY KEY, data TEXT, checksum TEXT)

``PRAGMA user_version`` holds :data:`SCHEMA_VERSION` (2: chained checksums and the
high-water mark; 1 had neither).  ``events.data`` is the compact JSON of
:func:`engine.events.event_to_dict`; ``seq`` is 1, 2, 3, ... without gaps; ``checksum`` is
chained (:func:`pi_app.service.journal_files.chain`: the previous record's checksum, the
journal's random ``journal_id`` for record 1).  ``snapshots`` holds the core's
:meth:`snapshot` *after* event ``seq`` was applied; seq 0 is the genesis (the core before
any event); its checksum is :func:`pi_app.service.journal_files.checksum`.

Beside the database: ``<journal>.lock`` (one writer at a time) and ``<journal>.mark``, the
high-water mark (:mod:`pi_app.service.journal_mark`), advanced after every commit.  A
journal shorter than its mark has lost records and is refused (:mod:`pi_app.service.journal_scan`),
and so is one that ends before the hand histories beside it
(:mod:`pi_app.service.journal_hands`).

Durability: each append is its own transaction, committed (WAL fsync, ``synchronous=FULL``)
before :meth:`Journal.append` returns, so an event the loop applies is on disk.  The WAL
is copied into ``journal.db`` at the loop's idle time after each snapshot
(:meth:`Journal.idle`, :mod:`pi_app.service.journal_wal`), never inside an event's commit.  A new journal is built whole under a
temporary name (schema, genesis and meta in one file) and linked into place, so a creation
cut short leaves no journal at the path, and no file at the path is ever initialised over.

Errors:
    JournalSchemaError: written by another schema (nothing is written);
        JournalNewerError: a record of an event type only a newer pokertable knows.
    JournalCorruptError: not a journal, or no intact snapshot;
        JournalLossError: records were lost (``accept_loss`` opens it knowingly).
    JournalBusyError: another process holds the journal open for writing.
    JournalUnavailable: the disk is full or read-only (the loop raises an alarm).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import secrets
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.events import Event, event_from_dict, event_to_dict
from pi_app.service.journal_chain import ANCHOR_KEY, anchor_of
from pi_app.service.journal_files import (  # noqa: F401 - re-exported
    SQLITE_MAGIC,
    JournalBusyError,
    JournalCorruptError,
    JournalLossError,
    JournalNewerError,
    JournalPathError,
    JournalSchemaError,
    JournalSizeError,
    JournalUnavailable,
    chain,
    check_journal_path,
    checksum,
    dumps,
    lock_path,
    read_head,
    read_user_version,
    ro_uri,
    unavailable_from,
    verify_journal,
)
from pi_app.service.journal_mark import (
    Mark,
    MarkError,
    MarkWriter,
    create_mark,
    fsync_dir,
    read_mark,
)
from pi_app.service.journal_scan import Loss, ScanResult, TornRecord, scan  # noqa: F401
from pi_app.service.journal_wal import WalUpkeep, configure
from pi_app.service.testhooks import kill_point

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
DEFAULT_SNAPSHOT_EVERY = 200
KEEP_SNAPSHOTS = 3  # besides the genesis

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events(seq INTEGER PRIMARY KEY, t REAL NOT NULL, data TEXT NOT NULL,
                    checksum TEXT NOT NULL);
CREATE TABLE snapshots(seq INTEGER PRIMARY KEY, data TEXT NOT NULL, checksum TEXT NOT NULL);
"""


def _build_file(tmp: Path, genesis: dict[str, Any], meta: dict[str, str]) -> None:
    """Write a whole new journal (schema, meta, genesis) to ``tmp``, durably, in the
    rollback-journal mode (everything is in the one file when this returns)."""
    tmp.unlink(missing_ok=True)  # a creation of ours cut short
    os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC | os.O_NOFOLLOW,
                     0o600))
    con = sqlite3.connect(str(tmp), isolation_level=None)
    try:
        con.execute("PRAGMA synchronous=FULL")
        data = dumps(genesis)
        con.execute("BEGIN IMMEDIATE")
        for stmt in filter(None, (s.strip() for s in _SCHEMA.split(";"))):
            con.execute(stmt)
        rows = {"schema_version": str(SCHEMA_VERSION), **meta}
        con.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", sorted(rows.items()))
        con.execute("INSERT INTO snapshots(seq, data, checksum) VALUES (0, ?, ?)",
                    (data, checksum(0, data)))
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        con.execute("COMMIT")
    finally:
        con.close()


class Journal:
    """An open journal.  Use :meth:`create`, :meth:`open` or :meth:`open_readonly`.

    Not thread-safe: the service loop is its only user.
    """

    def __init__(self, path: Path, con: sqlite3.Connection, *, readonly: bool,
                 snapshot_every: int, lock_fd: int | None, accept_loss: bool = False) -> None:
        self.path = path
        self._con = con
        self.readonly = readonly
        self.accept_loss = accept_loss
        self.snapshot_every = max(1, int(snapshot_every))
        self._lock_fd = lock_fd
        self._mark: MarkWriter | None = None
        self._mark_failed = False
        self.wal = WalUpkeep(con, path)  #: when the WAL is checkpointed
        # as bytes: text that is not UTF-8 is damage the checks report, not a decoding error
        head = read_head(con, path)
        self.meta: dict[str, str] = head.meta
        self.journal_id = self.meta.get("journal_id", "")
        self.last_seq = head.last_seq
        self.last_t: float | None = head.last_t
        self.last_chain = head.last_chain
        self.last_snapshot_seq = head.last_snapshot_seq

    # --- opening ------------------------------------------------------------------------
    @staticmethod
    def _lock(path: Path) -> int:
        lock = lock_path(path)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise JournalPathError(f"{lock}: the lock file is not a regular file")
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalBusyError(
                f"{path}: journal is in use by another pokertable process") from None
        except BaseException:
            os.close(fd)
            raise
        return fd

    @staticmethod
    def _unlock(fd: int, lock: Path, created: bool) -> None:
        """Release a lock taken for an open that failed; remove the lock file if that
        open created it."""
        os.close(fd)
        if created:
            try:
                lock.unlink()
            except OSError:
                pass

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        configure(con)  # checkpoints at idle, not inside a commit
        return con

    @staticmethod
    def in_use(path: str | os.PathLike[str]) -> bool:
        """Whether another process holds the journal at ``path`` open for writing (its
        lock); nothing is created or changed."""
        lock = lock_path(Path(path))
        if not lock.is_file():
            return False
        fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    @classmethod
    def exists(cls, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` holds a file: a journal, or some other file that :meth:`open`
        refuses (an empty file too).  No file at the path is ever initialised over.

        Raises:
            JournalPathError: ``path`` is not a regular file (``/dev/null``, a folder).
        """
        return check_journal_path(Path(path))

    @staticmethod
    def _refuse_orphan_mark(p: Path) -> None:
        """A mark without its journal: the journal was lost (unless the mark is at 0)."""
        try:
            mark = read_mark(p)
        except MarkError as exc:
            raise JournalLossError(f"{p}: no journal, and {exc}: move the mark away to start "
                                   "a new journal") from None
        if mark is not None and mark.seq > 0:
            raise JournalLossError(
                f"{p}: the journal is gone but its high-water mark {p.name}.mark says it held "
                f"{mark.seq} records: restore it, or move the mark away to start a new one",
                mark.seq)

    @classmethod
    def create(cls, path: str | os.PathLike[str], genesis: dict[str, Any], *,
               meta: dict[str, str] | None = None,
               snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Journal:
        """Create a new journal at ``path`` (mode 0600; parent made with mode 0700).

        ``genesis`` is the core's snapshot before any event (stored as snapshot 0).  The
        whole file is built under a temporary name and linked into place.

        Raises:
            FileExistsError: ``path`` already holds a journal (or another file).
            JournalLossError: no journal, but a high-water mark of one that held records.
            JournalPathError: ``path`` is not a regular file or its parent is not a folder.
            JournalUnavailable: the disk is full or read-only.
        """
        p = Path(path)
        if cls.exists(p):
            raise FileExistsError(f"{p}: a journal already exists (use resume)")
        cls._refuse_orphan_mark(p)
        try:
            p.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            lock_fd = cls._lock(p)
            try:
                journal_id = secrets.token_hex(16)
                tmp = p.with_name(f".{p.name}.creating")
                _build_file(tmp, genesis, {**(meta or {}), "journal_id": journal_id})
                create_mark(p, Mark(journal_id, 0, journal_id))
                kill_point("journal_create")
                os.link(tmp, p)  # never replaces a file that appeared meanwhile
                os.unlink(tmp)
                fsync_dir(p.parent)
                con = cls._connect(p)
                journal = cls(p, con, readonly=False, snapshot_every=snapshot_every,
                              lock_fd=lock_fd)
                journal._mark = MarkWriter(p, journal_id)
            except BaseException:
                os.close(lock_fd)
                raise
        except (sqlite3.DatabaseError, OSError) as exc:
            err = unavailable_from(exc, p)
            if err is not None:
                raise err from exc
            raise
        return journal

    @classmethod
    def _check_schema(cls, p: Path) -> None:
        """Refuse, without writing anything, a path that is not one of our journals."""
        if not check_journal_path(p):
            raise FileNotFoundError(f"{p}: no journal")
        version = read_user_version(p)
        if version > SCHEMA_VERSION:
            raise JournalSchemaError(
                f"{p}: journal schema version {version} is newer than this pokertable "
                f"supports ({SCHEMA_VERSION}): it was written by a newer pokertable; upgrade "
                "pokertable (the file was not changed)")
        if version < 1:
            raise JournalCorruptError(f"{p} is not a pokertable journal (no schema version); "
                                      "the file was not changed")
        verify_journal(p, version)
        if version < SCHEMA_VERSION:
            raise JournalSchemaError(
                f"{p}: journal schema version {version} was written by an older pokertable, "
                "without loss detection; finish it with that version or move it away to "
                "start a new journal (the file was not changed)")

    @classmethod
    def open(cls, path: str | os.PathLike[str], *,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
             accept_loss: bool = False,
             precheck: Callable[[Journal], object] | None = None) -> Journal:
        """Open an existing journal for writing.

        Before anything is written (the lock file aside), the file is checked read-only:
        that it is one of our journals, and that it lost no records (:func:`scan`, or
        ``precheck(readonly_journal)``, which must scan it and may refuse it by raising).
        With ``accept_loss`` a loss is logged, and :func:`pi_app.service.recovery.recover`
        cuts the journal back to its last intact record and moves the mark there.

        Raises:
            FileNotFoundError, JournalPathError, JournalSchemaError, JournalNewerError,
            JournalCorruptError, JournalLossError, JournalBusyError, JournalUnavailable.
        """
        p = Path(path)
        cls._check_schema(p)
        lock_created = not os.path.lexists(lock_path(p))
        lock_fd = cls._lock(p)
        try:
            with cls.open_readonly(p, accept_loss=accept_loss) as ro:
                # refuses a loss before anything is written (closing a writable
                # connection would fold the -wal into the file)
                precheck(ro) if precheck is not None else ro.scan()
            if p.stat().st_mode & 0o077:
                os.chmod(p, 0o600)
                log.warning("%s: permissions were wider than 0600; tightened", p)
            con = cls._connect(p)
            try:
                journal = cls(p, con, readonly=False, snapshot_every=snapshot_every,
                              lock_fd=lock_fd, accept_loss=accept_loss)
                journal._open_mark()
            except BaseException:
                con.close()
                raise
        except (sqlite3.DatabaseError, OSError) as exc:
            cls._unlock(lock_fd, lock_path(p), lock_created)
            err = unavailable_from(exc, p)
            if err is not None:
                raise err from exc
            raise
        except BaseException:
            cls._unlock(lock_fd, lock_path(p), lock_created)
            raise
        return journal

    def _open_mark(self) -> None:
        try:
            self._mark = MarkWriter(self.path, self.journal_id)
        except (FileNotFoundError, MarkError):
            if not self.accept_loss:
                raise
            create_mark(self.path, Mark(self.journal_id, self.last_seq, self.last_chain))
            self._mark = MarkWriter(self.path, self.journal_id)

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str], *,
                      accept_loss: bool = False) -> Journal:
        """Open for reading only (``pokertable state``): never writes to the journal."""
        p = Path(path)
        cls._check_schema(p)
        con = sqlite3.connect(ro_uri(p), uri=True, isolation_level=None,
                              check_same_thread=False)
        try:
            return cls(p, con, readonly=True, snapshot_every=DEFAULT_SNAPSHOT_EVERY,
                       lock_fd=None, accept_loss=accept_loss)
        except BaseException:
            con.close()
            raise

    def close(self) -> None:
        """Close the database (checkpointing the WAL when writable) and release the lock."""
        try:
            if not self.readonly:
                self.checkpoint()
            self._con.close()
        finally:
            self.sync_mark()
            if self._mark is not None:
                self._mark.close()
                self._mark = None
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ------------------------------------------------------------------------
    def scan(self) -> ScanResult:
        """Find the newest intact snapshot and the verified events after it
        (:func:`pi_app.service.journal_scan.scan`).  Sets :attr:`last_seq`,
        :attr:`last_t`, :attr:`last_chain`.

        Raises:
            JournalLossError (unless opened with ``accept_loss``), JournalNewerError,
            JournalCorruptError.
        """
        result = scan(self._con, self.path, self.journal_id, accept_loss=self.accept_loss,
                      anchor=anchor_of(self.meta))
        self.last_seq = result.last_seq
        self.last_chain = result.last_chain
        self.last_t = result.events[-1][1].t if result.events else \
            self._event_t(result.snapshot_seq)
        self.last_snapshot_seq = result.snapshot_seq
        return result

    def _event_t(self, seq: int) -> float | None:
        row = self._con.execute("SELECT t FROM events WHERE seq = ?", (seq,)).fetchone()
        return float(row[0]) if row else None

    def events(self, after: int = 0) -> Iterator[tuple[int, Event]]:
        """Every stored event with ``seq > after``, in order, while their chained
        checksums hold (it stops at the first that does not)."""
        row = self._con.execute("SELECT checksum FROM events WHERE seq = ?", (after,)).fetchone()
        prev = self.journal_id if after == 0 else (row[0] if row else "")
        for seq, data, check in self._con.execute(
                "SELECT seq, data, checksum FROM events WHERE seq > ? ORDER BY seq", (after,)):
            if check != chain(prev, seq, data):
                return
            prev = check
            yield seq, event_from_dict(json.loads(data))

    def count_events(self) -> int:
        return int(self._con.execute("SELECT count(*) FROM events").fetchone()[0])

    def schema_version(self) -> int:
        return int(self._con.execute("PRAGMA user_version").fetchone()[0])

    # --- writing ------------------------------------------------------------------------
    def _write(self, do: Any) -> None:
        if self.readonly:
            raise JournalUnavailable(f"{self.path}: journal opened read-only", "read-only")
        try:
            do()
        except (sqlite3.DatabaseError, OSError) as exc:
            try:
                if self._con.in_transaction:
                    self._con.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
            err = unavailable_from(exc, self.path)
            if err is not None:
                raise err from exc
            raise

    def _advance_mark(self, seq: int, value: str, sync: bool = True) -> None:
        """Move the high-water mark (after a commit; fsynced now or by :meth:`sync_mark`).
        A failure only makes it lag."""
        if self._mark is None:
            return
        try:
            self._mark.advance(seq, value, sync=sync)
            self._mark_failed = False
        except OSError as exc:
            if not self._mark_failed:
                log.warning("%s: the high-water mark could not be updated (%s); it lags",
                            self.path, exc)
            self._mark_failed = True

    def drop_torn(self, torn: TornRecord) -> None:
        """Delete the torn last record found by :meth:`scan` (past the mark)."""
        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("DELETE FROM events WHERE seq >= ?", (torn.seq,))
            self._con.execute("COMMIT")
        self._write(do)
        log.warning("%s: dropped torn last record %d (%s)", self.path, torn.seq, torn.reason)

    def accept(self, loss: Loss) -> None:
        """Go on knowingly after ``loss`` (found by :meth:`scan` with ``accept_loss``):
        records after ``loss.keep_to`` (damaged or after a damaged one) are deleted, and the
        mark moved to the last kept record.  A break before the snapshot the table goes on
        from (``loss.anchor``) is kept as it is: the chain is checked from that snapshot's
        record afterwards (:data:`pi_app.service.journal_chain.ANCHOR_KEY`)."""
        keep = loss.keep_to

        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("DELETE FROM events WHERE seq > ?", (keep,))
            self._con.execute("DELETE FROM snapshots WHERE seq > ?", (keep,))
            if loss.anchor is not None:
                self._con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                  (ANCHOR_KEY, str(loss.anchor)))
            self._con.execute("COMMIT")
        self._write(do)
        if loss.anchor is not None:
            self.meta[ANCHOR_KEY] = str(loss.anchor)
        if self._mark is not None:
            self._mark.reset(self.last_seq, self.last_chain)
        log.warning("%s: journal loss accepted (--accept-journal-loss): %s; going on from "
                    "record %d", self.path, loss.text, keep)

    def append(self, event: Event, *, sync_mark: bool = True) -> int:
        """Write ``event`` durably as record ``last_seq + 1`` (committed: the WAL
        fsynced), then advance the mark; returns its seq.  ``sync_mark=False`` leaves the
        mark's fsync to :meth:`sync_mark` (the loop's idle time): the event is on disk
        either way, only the mark may lag after a power cut.

        Raises:
            JournalUnavailable: nothing was written (the caller must not apply the event).
        """
        data = dumps(event_to_dict(event))
        seq = self.last_seq + 1
        value = chain(self.last_chain, seq, data)
        kill_point("journal_append")

        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("INSERT INTO events(seq, t, data, checksum) VALUES (?, ?, ?, ?)",
                              (seq, float(event.t), data, value))
            kill_point("journal_write")
            self._con.execute("COMMIT")
        self._write(do)
        self.last_seq = seq
        self.last_t = float(event.t)
        self.last_chain = value
        self._advance_mark(seq, value, sync_mark)
        kill_point("journal_commit")
        self.wal.committed()
        return seq

    def sync_mark(self) -> None:
        """fsync the mark's writes left by ``append(..., sync_mark=False)``.  A failure
        only makes it lag (logged once)."""
        if self._mark is None:
            return
        try:
            self._mark.sync()
        except OSError as exc:
            if not self._mark_failed:
                log.warning("%s: the high-water mark could not be synced (%s); it may lag",
                            self.path, exc)
            self._mark_failed = True

    def idle(self) -> None:
        """The journal's work left for the loop's idle time: the mark's fsync
        (:meth:`sync_mark`), then the WAL's checkpoint when one is due
        (:meth:`pi_app.service.journal_wal.WalUpkeep.at_idle`)."""
        self.sync_mark()
        if not self.readonly:
            self.wal.at_idle()

    def snapshot_due(self) -> bool:
        return self.last_seq - self.last_snapshot_seq >= self.snapshot_every

    def write_snapshot(self, state: dict[str, Any], seq: int | None = None) -> None:
        """Store ``state`` (the core after record ``seq``, default :attr:`last_seq`), prune
        old snapshots (keeps the genesis and the newest :data:`KEEP_SNAPSHOTS`); the WAL
        is then checkpointed into the main file at the next :meth:`idle` (so
        ``journal.db`` alone loses little).

        Raises:
            JournalUnavailable: nothing was stored.
        """
        seq = self.last_seq if seq is None else seq
        data = dumps(state)

        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute(
                "INSERT OR REPLACE INTO snapshots(seq, data, checksum) VALUES (?, ?, ?)",
                (seq, data, checksum(seq, data)))
            kill_point("snapshot")
            self._con.execute(
                "DELETE FROM snapshots WHERE seq > 0 AND seq NOT IN "
                "(SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)", (KEEP_SNAPSHOTS,))
            self._con.execute("COMMIT")
        self._write(do)
        self.last_snapshot_seq = seq
        kill_point("snapshot_commit")
        self.wal.snapshot_written()

    def checkpoint(self) -> bool:
        """Copy the WAL into ``journal.db`` and empty it; False if that failed now (the
        WAL then still holds everything: nothing is lost)."""
        return self.wal.checkpoint()

    def probe(self) -> None:
        """Check the journal is writable now (a 4 KiB write, committed and fsynced).

        Raises:
            JournalUnavailable
        """
        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('probe', ?)",
                              ("x" * 4096,))
            self._con.execute("COMMIT")
        self._write(do)
