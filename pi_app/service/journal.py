"""The SQLite journal: every input event, written before it is applied, plus snapshots.

File layout (one SQLite database, WAL mode, ``synchronous=FULL``, mode 0600)::

    meta(key TEXT PRIMARY KEY, value TEXT)        -- schema_version, core, created_by, ...
    events(seq INTEGER PRIMARY KEY, t REAL, data TEXT, checksum TEXT)
    snapshots(seq INTEGER PRIMARY KEY, data TEXT, checksum TEXT)

``PRAGMA user_version`` holds :data:`SCHEMA_VERSION`.  ``events.data`` is the compact JSON
of :func:`engine.events.event_to_dict`; ``seq`` is 1, 2, 3, ... without gaps.
``snapshots`` holds the core's :meth:`snapshot` *after* event ``seq`` was applied; seq 0 is
the genesis (the core before any event).  Checksums are SHA-256 (hex, 32 digits) of
``"<seq>\\x1f<data>"``: a record that fails it was torn by a power cut.

Durability: each append is its own transaction, committed (WAL fsync, ``synchronous=FULL``)
before :meth:`Journal.append` returns, so an event the loop applies is on disk.

Errors:
    JournalSchemaError: the file was written by a newer schema (nothing is written).
    JournalCorruptError: not a journal, or a damaged record that is not the last one.
    JournalBusyError: another process holds the journal open for writing.
    JournalUnavailable: the disk is full or read-only (the loop raises an alarm).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import DeviceError, InvalidInputError
from engine.events import Event, UnknownEventError, event_from_dict, event_to_dict
from pi_app.service.testhooks import kill_point

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
DEFAULT_SNAPSHOT_EVERY = 200
KEEP_SNAPSHOTS = 3  # besides the genesis

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events(seq INTEGER PRIMARY KEY, t REAL NOT NULL, data TEXT NOT NULL,
                    checksum TEXT NOT NULL);
CREATE TABLE snapshots(seq INTEGER PRIMARY KEY, data TEXT NOT NULL, checksum TEXT NOT NULL);
"""


class JournalSchemaError(InvalidInputError):
    """The journal was written by a newer (or unknown) schema; it is left untouched."""


class JournalCorruptError(InvalidInputError):
    """The file is not a journal, or a record other than the last one is damaged."""


class JournalPathError(InvalidInputError):
    """The journal path is not a regular file (a device, a folder, a FIFO...) or its
    parent is not a directory; nothing was touched."""


class JournalBusyError(InvalidInputError):
    """Another process already has this journal open for writing."""


class JournalUnavailable(DeviceError):
    """The journal cannot be written now (disk full, read-only file system, I/O error).

    ``reason`` is a short phrase for the alarm ("disk full", "read-only", ...).
    """

    def __init__(self, message: str, reason: str = "unavailable") -> None:
        super().__init__(message)
        self.reason = reason


def checksum(seq: int, data: str) -> str:
    """SHA-256 hex (first 32 digits) of ``"<seq>\\x1f<data>"``."""
    return hashlib.sha256(f"{seq}\x1f{data}".encode()).hexdigest()[:32]


def dumps(obj: Any) -> str:
    """The canonical JSON used in the journal (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_UNAVAILABLE_ERRNOS = {errno.ENOSPC: "disk full", errno.EROFS: "read-only file system",
                       errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large",
                       errno.EIO: "I/O error", errno.EACCES: "permission denied"}


def unavailable_from(exc: BaseException, path: Path | str) -> JournalUnavailable | None:
    """Map a write failure to :class:`JournalUnavailable`, or None if it is not one."""
    if isinstance(exc, sqlite3.OperationalError) or (
            isinstance(exc, sqlite3.DatabaseError)
            and not isinstance(exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError))):
        text = str(exc).lower()
        if "full" in text:
            reason = "disk full"
        elif "readonly" in text or "read-only" in text:
            reason = "read-only"
        elif "i/o" in text:
            reason = "disk I/O error"
        elif "locked" in text or "busy" in text:
            reason = "database locked"
        else:
            reason = text
        return JournalUnavailable(f"{path}: journal unavailable ({exc})", reason)
    if isinstance(exc, OSError) and not isinstance(exc, DeviceError):
        why = _UNAVAILABLE_ERRNOS.get(exc.errno or 0)
        if why:
            return JournalUnavailable(f"{path}: journal unavailable ({exc})", why)
    return None


@dataclass(frozen=True)
class TornRecord:
    """The last record failed its checksum or did not parse: dropped on recovery."""

    seq: int
    reason: str


@dataclass
class ScanResult:
    """What :meth:`Journal.scan` found: the newest good snapshot and the events after it."""

    snapshot_seq: int
    snapshot: dict[str, Any]
    events: list[tuple[int, Event]]
    torn: TornRecord | None = None
    bad_snapshots: list[int] = field(default_factory=list)

    @property
    def last_seq(self) -> int:
        return self.events[-1][0] if self.events else self.snapshot_seq


SQLITE_MAGIC = b"SQLite format 3\x00"


def _has_wal(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _ro_uri(path: Path) -> str:
    """A read-only URI that creates no ``-wal``/``-shm`` file when there is no WAL to read."""
    quoted = str(path.resolve()).replace("?", "%3f").replace("#", "%23")
    return f"file:{quoted}?mode=ro" + ("" if _has_wal(path) else "&immutable=1")


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"))


def check_journal_path(path: Path) -> bool:
    """Whether ``path`` exists, after checking that it may hold a journal at all.

    Nothing is created, opened for writing or chmodded here: this runs before anything
    else touches the path.

    Raises:
        JournalPathError: ``path`` exists but is not a regular file (``/dev/null``, a
            folder, a FIFO), or its parent exists but is not a directory.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        try:
            pst = os.stat(path.parent)
        except FileNotFoundError:
            return False  # create() makes the missing folders
        except NotADirectoryError:
            raise JournalPathError(
                f"{path}: a parent of the journal is not a directory") from None
        if not stat.S_ISDIR(pst.st_mode):
            raise JournalPathError(f"{path}: parent {path.parent} is not a directory") from None
        return False
    except NotADirectoryError:
        raise JournalPathError(f"{path}: a parent of the journal is not a directory") from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        if stat.S_ISDIR(st.st_mode):
            raise JournalPathError(f"{path}: is a directory, not a journal file")
        raise JournalPathError(
            f"{path}: is {kind}, not a regular file; the journal must be a regular file")
    return True


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _verify_journal(path: Path) -> None:
    """Check, read-only, that ``path`` is one of our journals (``meta`` with a
    ``schema_version``, ``events``, ``snapshots``) before anything writes to it.

    Raises:
        JournalCorruptError: "<path> is not a pokertable journal (...)".
    """
    try:
        con = sqlite3.connect(_ro_uri(path), uri=True)
        try:
            tables = {row[0] for row in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = sorted({"meta", "events", "snapshots"} - tables)
            if missing:
                raise JournalCorruptError(
                    f"{path} is not a pokertable journal (missing tables: {', '.join(missing)})")
            row = con.execute(
                "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                raise JournalCorruptError(
                    f"{path} is not a pokertable journal (no schema_version in meta)")
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise JournalCorruptError(
            f"{path} is not a pokertable journal or is damaged (unreadable: {exc}); "
            f"the file was not changed") from None


def _read_user_version(path: Path) -> int:
    """``PRAGMA user_version`` of ``path``, without writing (or creating) any file.

    Without a WAL the header is read directly (offset 60, big-endian); with one, through a
    read-only connection (the newest header may be in the WAL).
    """
    with open(path, "rb") as fh:
        header = fh.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        what = "empty file" if not header else "not an SQLite file"
        raise JournalCorruptError(f"{path} is not a pokertable journal ({what})")
    if not _has_wal(path):
        return int.from_bytes(header[60:64], "big")
    try:
        con = sqlite3.connect(_ro_uri(path), uri=True)
        try:
            return int(con.execute("PRAGMA user_version").fetchone()[0])
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise JournalCorruptError(f"{path} is not a pokertable journal ({exc})") from None


class Journal:
    """An open journal.  Use :meth:`create`, :meth:`open` or :meth:`open_readonly`.

    Not thread-safe: the service loop is its only user.
    """

    def __init__(self, path: Path, con: sqlite3.Connection, *, readonly: bool,
                 snapshot_every: int, lock_fd: int | None) -> None:
        self.path = path
        self._con = con
        self.readonly = readonly
        self.snapshot_every = max(1, int(snapshot_every))
        self._lock_fd = lock_fd
        self.last_seq = 0
        self.last_t: float | None = None
        self.last_snapshot_seq = 0
        self.meta: dict[str, str] = dict(con.execute("SELECT key, value FROM meta").fetchall())

    # --- opening ------------------------------------------------------------------------
    @staticmethod
    def _lock(path: Path) -> int:
        lock_path = _lock_path(path)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise JournalPathError(f"{lock_path}: the lock file is not a regular file")
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
    def _unlock(fd: int, lock_path: Path, created: bool) -> None:
        """Release a lock taken for an open that failed; remove the lock file if that
        open created it."""
        os.close(fd)
        if created:
            try:
                lock_path.unlink()
            except OSError:
                pass

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        return con

    @staticmethod
    def in_use(path: str | os.PathLike[str]) -> bool:
        """Whether another process holds the journal at ``path`` open for writing (its
        lock); nothing is created or changed."""
        lock_path = _lock_path(Path(path))
        if not lock_path.is_file():
            return False
        fd = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    @classmethod
    def exists(cls, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` holds a journal (or some other file: then :meth:`open` says
        what is wrong).  An SQLite file with nothing in it (a creation cut short by a power
        failure, maybe copied), or an empty file next to its ``.lock`` (a creation cut
        before SQLite wrote anything) does not count: :meth:`create` may reuse it.  An
        empty file without a ``.lock`` is someone else's: it counts, and :meth:`open`
        refuses it ("is not a pokertable journal").

        Raises:
            JournalPathError: ``path`` is not a regular file (``/dev/null``, a folder).
        """
        p = Path(path)
        if not check_journal_path(p):
            return False
        ours = _lock_path(p).is_file()
        if p.stat().st_size == 0:
            return not ours
        try:
            if _read_user_version(p) != 0:
                return True
            con = sqlite3.connect(_ro_uri(p), uri=True)
            try:
                return con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
            finally:
                con.close()
        except (JournalCorruptError, sqlite3.DatabaseError):
            return True

    @classmethod
    def create(cls, path: str | os.PathLike[str], genesis: dict[str, Any], *,
               meta: dict[str, str] | None = None,
               snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Journal:
        """Create a new journal at ``path`` (mode 0600; parent made with mode 0700).

        ``genesis`` is the core's snapshot before any event (stored as snapshot 0).
        Schema and genesis are written in one transaction.

        Raises:
            FileExistsError: ``path`` already holds a journal (or another file).
            JournalPathError: ``path`` is not a regular file or its parent is not a folder.
            JournalUnavailable: the disk is full or read-only.
        """
        p = Path(path)
        if cls.exists(p):
            raise FileExistsError(f"{p}: a journal already exists (use resume)")
        try:
            p.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            lock_fd = cls._lock(p)
            fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            os.close(fd)
            os.chmod(p, 0o600)
            con = cls._connect(p)
            data = dumps(genesis)
            con.execute("BEGIN IMMEDIATE")
            for stmt in filter(None, (s.strip() for s in _SCHEMA.split(";"))):
                con.execute(stmt)
            rows = {"schema_version": str(SCHEMA_VERSION), **(meta or {})}
            con.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", sorted(rows.items()))
            con.execute("INSERT INTO snapshots(seq, data, checksum) VALUES (0, ?, ?)",
                        (data, checksum(0, data)))
            con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            kill_point("journal_create")
            con.execute("COMMIT")
        except (sqlite3.DatabaseError, OSError) as exc:
            err = unavailable_from(exc, p)
            if err is not None:
                raise err from exc
            raise
        return cls(p, con, readonly=False, snapshot_every=snapshot_every, lock_fd=lock_fd)

    @classmethod
    def _check_schema(cls, p: Path) -> None:
        """Refuse, without writing anything, a path that is not one of our journals."""
        if not check_journal_path(p):
            raise FileNotFoundError(f"{p}: no journal")
        version = _read_user_version(p)
        if version > SCHEMA_VERSION:
            raise JournalSchemaError(
                f"{p}: journal schema version {version} is newer than this pokertable "
                f"supports ({SCHEMA_VERSION}); upgrade pokertable (the file was not changed)")
        if version < 1:
            raise JournalCorruptError(f"{p} is not a pokertable journal (no schema version)")
        _verify_journal(p)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Journal:
        """Open an existing journal for writing (checks the schema before writing anything).

        Only a file verified (read-only) to be one of our journals is locked, chmodded
        (to 0600 when wider) or opened for writing.

        Raises:
            FileNotFoundError, JournalPathError, JournalSchemaError, JournalCorruptError,
            JournalBusyError, JournalUnavailable.
        """
        p = Path(path)
        cls._check_schema(p)
        lock_created = not os.path.lexists(_lock_path(p))
        lock_fd = cls._lock(p)
        try:
            if p.stat().st_mode & 0o077:
                os.chmod(p, 0o600)
                log.warning("%s: permissions were wider than 0600; tightened", p)
            con = cls._connect(p)
            try:
                journal = cls(p, con, readonly=False, snapshot_every=snapshot_every,
                              lock_fd=lock_fd)
            except BaseException:
                con.close()
                raise
        except (sqlite3.DatabaseError, OSError) as exc:
            cls._unlock(lock_fd, _lock_path(p), lock_created)
            err = unavailable_from(exc, p)
            if err is not None:
                raise err from exc
            raise
        except BaseException:
            cls._unlock(lock_fd, _lock_path(p), lock_created)
            raise
        return journal

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str]) -> Journal:
        """Open for reading only (``pokertable state``): never writes to the journal."""
        p = Path(path)
        cls._check_schema(p)
        con = sqlite3.connect(_ro_uri(p), uri=True, isolation_level=None,
                              check_same_thread=False)
        return cls(p, con, readonly=True, snapshot_every=DEFAULT_SNAPSHOT_EVERY, lock_fd=None)

    def close(self) -> None:
        """Close the database (checkpointing the WAL when writable) and release the lock."""
        try:
            if not self.readonly:
                try:
                    self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.DatabaseError:
                    pass
            self._con.close()
        finally:
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ------------------------------------------------------------------------
    def _snapshots_newest_first(self) -> Iterator[tuple[int, str, str]]:
        yield from self._con.execute(
            "SELECT seq, data, checksum FROM snapshots ORDER BY seq DESC")

    def scan(self) -> ScanResult:
        """Find the newest intact snapshot and the verified events after it.

        The last event record, if torn (bad checksum, bad JSON, unknown event), is
        reported in ``torn`` and left out.  Sets :attr:`last_seq`, :attr:`last_t`.

        Raises:
            JournalCorruptError: no intact snapshot, a gap in ``seq``, or a damaged record
                that is not the last one.
        """
        bad: list[int] = []
        chosen: tuple[int, dict[str, Any]] | None = None
        for seq, data, check in self._snapshots_newest_first():
            if check != checksum(seq, data):
                bad.append(seq)
                continue
            try:
                chosen = (seq, json.loads(data))
            except ValueError:
                bad.append(seq)
                continue
            break
        if chosen is None:
            raise JournalCorruptError(f"{self.path}: no intact snapshot (not even the genesis)")
        snap_seq, snap = chosen
        rows = self._con.execute(
            "SELECT seq, t, data, checksum FROM events WHERE seq > ? ORDER BY seq",
            (snap_seq,)).fetchall()
        events: list[tuple[int, Event]] = []
        torn: TornRecord | None = None
        expected = snap_seq + 1
        for i, (seq, _t, data, check) in enumerate(rows):
            problem = None
            if seq != expected:
                raise JournalCorruptError(
                    f"{self.path}: journal record {expected} is missing (next is {seq})")
            if check != checksum(seq, data):
                problem = "checksum mismatch"
            else:
                try:
                    event = event_from_dict(json.loads(data))
                except (ValueError, UnknownEventError) as exc:
                    problem = f"unreadable record ({exc})"
            if problem:
                if i == len(rows) - 1:
                    torn = TornRecord(seq, problem)
                    break
                raise JournalCorruptError(
                    f"{self.path}: journal record {seq} is damaged ({problem}) and is not "
                    f"the last one; restore the journal from a backup")
            events.append((seq, event))
            expected += 1
        result = ScanResult(snap_seq, snap, events, torn, bad)
        self.last_seq = result.last_seq
        self.last_t = events[-1][1].t if events else self._event_t(snap_seq)
        self.last_snapshot_seq = snap_seq
        return result

    def _event_t(self, seq: int) -> float | None:
        row = self._con.execute("SELECT t FROM events WHERE seq = ?", (seq,)).fetchone()
        return float(row[0]) if row else None

    def events(self, after: int = 0) -> Iterator[tuple[int, Event]]:
        """Every stored event with ``seq > after`` (checksums verified; a torn record is
        skipped), in order."""
        for seq, _t, data, check in self._con.execute(
                "SELECT seq, t, data, checksum FROM events WHERE seq > ? ORDER BY seq",
                (after,)):
            if check == checksum(seq, data):
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

    def drop_torn(self, torn: TornRecord) -> None:
        """Delete the torn last record found by :meth:`scan`."""
        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("DELETE FROM events WHERE seq >= ?", (torn.seq,))
            self._con.execute("COMMIT")
        self._write(do)
        log.warning("%s: dropped torn last record %d (%s)", self.path, torn.seq, torn.reason)

    def append(self, event: Event) -> int:
        """Write ``event`` durably as record ``last_seq + 1``; returns its seq.

        Raises:
            JournalUnavailable: nothing was written (the caller must not apply the event).
        """
        data = dumps(event_to_dict(event))
        seq = self.last_seq + 1
        kill_point("journal_append")

        def do() -> None:
            self._con.execute("BEGIN IMMEDIATE")
            self._con.execute("INSERT INTO events(seq, t, data, checksum) VALUES (?, ?, ?, ?)",
                              (seq, float(event.t), data, checksum(seq, data)))
            kill_point("journal_write")
            self._con.execute("COMMIT")
        self._write(do)
        self.last_seq = seq
        self.last_t = float(event.t)
        kill_point("journal_commit")
        return seq

    def snapshot_due(self) -> bool:
        return self.last_seq - self.last_snapshot_seq >= self.snapshot_every

    def write_snapshot(self, state: dict[str, Any], seq: int | None = None) -> None:
        """Store ``state`` (the core after record ``seq``, default :attr:`last_seq`) and
        prune old snapshots (keeps the genesis and the newest :data:`KEEP_SNAPSHOTS`).

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
