"""The journal's files, checked without writing anything: the path, the SQLite header, the
tables; the errors of the journal; and the checksums of its records.

Checksums are SHA-256 (hex, first 32 digits).  A snapshot's is :func:`checksum` of
``"<seq>\\x1f<data>"``.  An event record's is chained (:func:`chain`): the checksum of
the previous record's checksum (the journal id for record 1), the seq and the data, so a
record cannot be dropped, moved or swapped without breaking every later checksum.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import DeviceError, InvalidInputError


class JournalSchemaError(InvalidInputError):
    """The journal was written by a newer (or unknown) schema; it is left untouched."""


class JournalCorruptError(InvalidInputError):
    """The file is not a journal, or a record other than the last one is damaged."""


class JournalNewerError(JournalSchemaError):
    """A record holds an event this pokertable does not know: it was written by a newer
    one.  Nothing is written."""


class JournalLossError(JournalCorruptError):
    """The journal has lost records that were committed (its ``-wal`` deleted or damaged,
    records cut or flipped); ``missing`` is how many (None when it cannot be told).
    Nothing is written; ``--accept-journal-loss`` opens it knowingly."""

    def __init__(self, message: str, missing: int | None = None) -> None:
        super().__init__(message)
        self.missing = missing


class JournalPathError(InvalidInputError):
    """The journal path is not a regular file (a device, a folder, a FIFO...) or its
    parent is not a directory; nothing was touched."""


class JournalSizeError(JournalPathError):
    """The journal, or its ``-wal``/``-shm``, is larger than any journal can be
    (:data:`MAX_JOURNAL_BYTES`, :data:`MAX_SIDECAR_BYTES`); nothing was touched."""


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


def chain(prev: str, seq: int, data: str) -> str:
    """The chained checksum of event record ``seq``: SHA-256 (first 32 hex digits) of
    ``"<prev>\\x1f<seq>\\x1f<data>"``, ``prev`` being the previous record's chained
    checksum (the journal id for record 1)."""
    return hashlib.sha256(f"{prev}\x1f{seq}\x1f{data}".encode()).hexdigest()[:32]


def chain_bytes(prev: bytes, seq: int, data: bytes) -> bytes:
    """:func:`chain` of the record's stored bytes, as ASCII bytes: the same formula on
    bytes, so text that is not UTF-8 gives a mismatch, not a decoding error (the
    whole-chain check, :mod:`pi_app.service.journal_chain`)."""
    return hashlib.sha256(b"%s\x1f%d\x1f%s" % (prev, seq, data)).hexdigest()[:32].encode()


def dumps(obj: Any) -> str:
    """The canonical JSON used in the journal (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_UNAVAILABLE_ERRNOS = {errno.ENOSPC: "disk full", errno.EROFS: "read-only file system",
                       errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large",
                       errno.EIO: "I/O error", errno.EACCES: "permission denied"}


def _no_room(path: Path | str) -> bool:
    """Whether the file system of ``path`` has (almost) no room left: SQLite reports a
    failure to grow its ``-shm`` or ``-wal`` there as a "disk I/O error"."""
    folder = Path(path).parent
    try:
        st = os.statvfs(folder if folder.exists() else folder.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 1024 * 1024


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
            reason = "disk full" if _no_room(path) else "disk I/O error"
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


SQLITE_MAGIC = b"SQLite format 3\x00"


def has_wal(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def ro_uri(path: Path) -> str:
    """A read-only URI that creates no ``-wal``/``-shm`` file when there is no WAL to read."""
    quoted = str(path.resolve()).replace("?", "%3f").replace("#", "%23")
    return f"file:{quoted}?mode=ro" + ("" if has_wal(path) else "&immutable=1")


#: The largest ``journal.db`` opened: 1 GiB.  ``make run``'s whole simulated tournament
#: (58 hands, 6 players) leaves a 0.3 MB journal, a venue's night a few MB: this is a few
#: hundred nights at one table (docs/operations.md).
MAX_JOURNAL_BYTES = 1 << 30
#: The largest ``-wal`` or ``-shm`` opened: 256 MiB.  The WAL is checkpointed at most 4,096
#: records after the last checkpoint (:mod:`pi_app.service.journal_wal`): a few MB.
MAX_SIDECAR_BYTES = 256 << 20

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


_BESIDE = (("-wal", "-wal"), ("-shm", "-shm"), (".mark", "high-water mark"),
           (".lock", "lock file"))


def _check_sidecars(path: Path) -> None:
    """Refuse a ``-wal``, ``-shm``, ``.mark`` or ``.lock`` beside ``path`` that is not a
    regular file (a symbolic link, a FIFO...): SQLite would follow or block on the first
    two, and the mark and lock are opened without following links, so a link there would
    fail only after the journal's permissions were tightened."""
    for suffix, what in _BESIDE:
        side = path.with_name(path.name + suffix)
        try:
            st = os.lstat(side)
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(st.st_mode):
            raise JournalPathError(
                f"{side}: is {_kind(st.st_mode)}, not a regular file; the journal's {what} "
                "must be a regular file beside it (the files were not changed)")
        if suffix in ("-wal", "-shm"):
            _check_size(side, st.st_size, MAX_SIDECAR_BYTES)


def _check_size(path: Path, size: int, limit: int) -> None:
    """Raises JournalSizeError when ``size`` (bytes, the apparent size: a sparse file
    counts whole) is over ``limit``."""
    if size > limit:
        raise JournalSizeError(
            f"{path}: is {size / 2**20:,.0f} MiB, more than a journal's file can be (at most "
            f"{limit >> 20:,} MiB; a night's journal is a few MB): not opened, the files were "
            "not changed")


def check_journal_path(path: Path) -> bool:
    """Whether ``path`` exists, after checking that it may hold a journal at all.

    Nothing is created, opened for writing or chmodded here: this runs before anything
    else touches the path.  Symbolic links are not followed: a journal that is one, or
    whose ``-wal``/``-shm``/``.mark``/``.lock`` is one, is refused (SQLite would read the
    ``-wal`` beside the link and write through it).

    Raises:
        JournalPathError: ``path`` exists but is not a regular file (a symbolic link,
            ``/dev/null``, a folder, a FIFO), its ``-wal``, ``-shm``, ``.mark`` or
            ``.lock`` is not a regular file, or its parent exists but is not a directory.
        JournalSizeError: ``path`` is over :data:`MAX_JOURNAL_BYTES`, or its ``-wal`` or
            ``-shm`` over :data:`MAX_SIDECAR_BYTES`.
    """
    try:
        st = os.lstat(path)
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
        if stat.S_ISDIR(st.st_mode):
            raise JournalPathError(f"{path}: is a directory, not a journal file")
        raise JournalPathError(
            f"{path}: is {_kind(st.st_mode)}, not a regular file; the journal must be a "
            "regular file")
    _check_size(path, st.st_size, MAX_JOURNAL_BYTES)
    _check_sidecars(path)
    return True


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def verify_journal(path: Path, version: int) -> None:
    """Check, read-only, that ``path`` is one of our journals (``meta`` with a
    ``schema_version`` and, from version 2, a ``journal_id``; ``events``, ``snapshots``)
    before anything writes to it.

    Raises:
        JournalCorruptError: "<path> is not a pokertable journal (...)".
    """
    try:
        con = sqlite3.connect(ro_uri(path), uri=True)
        try:
            tables = {row[0] for row in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = sorted({"meta", "events", "snapshots"} - tables)
            if missing:
                raise JournalCorruptError(
                    f"{path} is not a pokertable journal (missing tables: "
                    f"{', '.join(missing)}); the file was not changed")
            keys = {row[0] for row in con.execute(
                "SELECT key FROM meta WHERE key IN ('schema_version', 'journal_id')")}
            if "schema_version" not in keys or (version >= 2 and "journal_id" not in keys):
                raise JournalCorruptError(
                    f"{path} is not a pokertable journal (no schema_version or journal_id "
                    "in meta); the file was not changed")
            if version >= 2:
                _check_columns(con, path, version)
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise damage_from(exc, path) from None


def damage_from(exc: sqlite3.DatabaseError, path: Path) -> JournalCorruptError:
    """The one-line error for a journal SQLite cannot read (a damaged page, schema...)."""
    return JournalCorruptError(
        f"{path} is not a pokertable journal or is damaged (unreadable: {exc}); "
        f"the file was not changed{damaged_hint(exc)}")


#: every column of the journal's tables as ``PRAGMA table_info`` tells it (name, declared
#: type, NOT NULL, place in the primary key): the schema ``Journal.create`` writes
_COLUMNS = {
    "meta": (("key", "TEXT", 0, 1), ("value", "TEXT", 1, 0)),
    "events": (("seq", "INTEGER", 0, 1), ("t", "REAL", 1, 0), ("data", "TEXT", 1, 0),
               ("checksum", "TEXT", 1, 0)),
    "snapshots": (("seq", "INTEGER", 0, 1), ("data", "TEXT", 1, 0), ("checksum", "TEXT", 1, 0)),
}


def _damaged(path: Path, what: str) -> JournalCorruptError:
    return JournalCorruptError(f"{path} is not a pokertable journal or is damaged ({what}); "
                               "the file was not changed")


def _check_columns(con: sqlite3.Connection, path: Path, version: int) -> None:
    """Raises JournalCorruptError when a table's columns or the meta rows that say what the
    file is are not those a journal is written with (a flipped bit in the schema's text
    can leave SQLite's own integrity check content: "PRMMARY KEY" is a column type)."""
    for table, columns in _COLUMNS.items():
        found = tuple((str(name), str(kind).upper(), int(notnull), int(pk)) for
                      _cid, name, kind, notnull, _default, pk in
                      con.execute(f"PRAGMA table_info({table})"))
        if found != columns:
            raise _damaged(path, f"the {table} table's columns are not a journal's")
    rows = dict(con.execute("SELECT key, CAST(value AS BLOB) FROM meta WHERE key IN "
                            "('schema_version', 'journal_id') AND typeof(value) = 'text'"))
    if rows.get("schema_version") != str(version).encode() or "journal_id" not in rows:
        raise _damaged(path, f"its meta table does not say schema version {version}")


@dataclass(frozen=True)
class Head:
    """What a journal says about itself on opening: ``meta`` (text; bytes that are not
    UTF-8 read as U+FFFD), its last record (seq, time in table seconds, chained checksum;
    0, None and the journal id when it has none) and its newest snapshot's seq."""

    meta: dict[str, str]
    last_seq: int
    last_t: float | None
    last_chain: str
    last_snapshot_seq: int


def _text(raw: object) -> str:
    if not isinstance(raw, bytes):
        raise TypeError(f"{type(raw).__name__} where text belongs")
    return raw.decode("utf-8", "replace")


def read_head(con: sqlite3.Connection, path: Path) -> Head:
    """Read the journal's :class:`Head`, checking every value's type.

    Raises:
        JournalCorruptError: a value is not of its column's type (a NULL, a number where
            text belongs...), or SQLite cannot read the file (damage, not a write failure).
    """
    try:
        meta = {_text(k): _text(v) for k, v in con.execute(
            "SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM meta")}
        tail = con.execute("SELECT seq, t, CAST(checksum AS BLOB) FROM events ORDER BY seq "
                           "DESC LIMIT 1").fetchone()
        snap = con.execute("SELECT coalesce(max(seq), 0) FROM snapshots").fetchone()[0]
        journal_id = meta.get("journal_id", "")
        if tail is None:
            tail = (0, None, journal_id.encode())
        elif not isinstance(tail[1], (int, float)) or isinstance(tail[1], bool):
            raise TypeError(f"record {tail[0]}'s time is {tail[1]!r}")
        if not isinstance(tail[0], int) or not isinstance(snap, int):
            raise TypeError("a record's or a snapshot's seq is not a number")
        return Head(meta, tail[0], None if tail[1] is None else float(tail[1]),
                    _text(tail[2]), snap)
    except TypeError as exc:
        raise _damaged(path, str(exc)) from None
    except sqlite3.DatabaseError as exc:
        if disk_trouble(exc):
            raise
        raise damage_from(exc, path) from None


def disk_trouble(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite's error is the disk's (full, read-only, I/O, locked), not the file's."""
    text = str(exc).lower()
    return any(w in text for w in ("full", "readonly", "read-only", "i/o", "locked", "busy"))


def damaged_hint(exc: BaseException) -> str:
    """What to do about a journal SQLite finds damaged ("database disk image is
    malformed"): restore the newest backup (docs/operations.md, Backup); "" otherwise."""
    if "malformed" not in str(exc):
        return ""
    return ": if it is this table's journal, restore the newest backup (keep this file)"


def read_user_version(path: Path) -> int:
    """``PRAGMA user_version`` of ``path``, without writing (or creating) any file.

    Without a WAL the header is read directly (offset 60, big-endian); with one, through a
    read-only connection (the newest header may be in the WAL).
    """
    with open(path, "rb") as fh:
        header = fh.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        what = "empty file" if not header else "not an SQLite file"
        raise JournalCorruptError(
            f"{path} is not a pokertable journal ({what}); the file was not changed")
    if not has_wal(path):
        return int.from_bytes(header[60:64], "big")
    try:
        con = sqlite3.connect(ro_uri(path), uri=True)
        try:
            return int(con.execute("PRAGMA user_version").fetchone()[0])
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise JournalCorruptError(
            f"{path} is not a pokertable journal ({exc}); the file was not changed") from None
