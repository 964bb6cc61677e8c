"""The journal's high-water mark: how far the journal is known to have been written, kept
outside the SQLite files (so it survives a lost or damaged ``-wal``).

``<journal>.mark`` (mode 0600) is two slots of :data:`SLOT` bytes.  A slot reads
``PTMARK1 <journal id> <seq> <chain> <crc32>`` (spaces, padded, ending in a newline):
``seq`` is a record known to be committed and ``chain`` that record's chained checksum
(:func:`pi_app.service.journal_files.chain`; the journal id for record 0).  Each update
overwrites one slot in place after the record's commit, so the mark is never ahead of the
journal; the slot written is the one not fsynced last, and it stays the one written until
it is fsynced (:meth:`MarkWriter.sync`: at once, or when the service is idle), so a write
cut by a power failure only spoils that slot (its CRC fails) while the other still holds
an earlier record (the mark lags, which is allowed).  The file is first made under
a temporary name, fsynced and renamed into place, before the journal itself exists.

A journal found shorter than its mark has lost records (a deleted or damaged ``-wal``, a
copy of ``journal.db`` alone): :mod:`pi_app.service.journal` refuses it.
"""

from __future__ import annotations

import errno
import os
import stat
import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InvalidInputError

SLOT = 128
MAGIC = "PTMARK1"
MAX_MARK_BYTES = 4096
_NOT_SMALL_REGULAR = "{path}: the journal's high-water mark is not a small regular file"


class MarkError(InvalidInputError):
    """The high-water mark file is not a regular file, too big, or has no intact slot."""


@dataclass(frozen=True)
class Mark:
    """The high-water mark: journal ``journal_id`` had committed record ``seq``, whose
    chained checksum is ``chain``."""

    journal_id: str
    seq: int
    chain: str


def mark_path(journal: Path) -> Path:
    """``<journal>.mark``."""
    return journal.with_name(journal.name + ".mark")


def _slot(mark: Mark) -> bytes:
    body = f"{MAGIC} {mark.journal_id} {mark.seq} {mark.chain}"
    line = f"{body} {zlib.crc32(body.encode()):08x}"
    return line.encode().ljust(SLOT - 1) + b"\n"


def _parse(raw: bytes) -> Mark | None:
    try:
        parts = raw.decode("ascii").split()
    except UnicodeDecodeError:
        return None
    if len(parts) != 5 or parts[0] != MAGIC:
        return None
    body = " ".join(parts[:4])
    if f"{zlib.crc32(body.encode()):08x}" != parts[4] or not parts[2].isdigit():
        return None
    return Mark(parts[1], int(parts[2]), parts[3])


def read_mark(journal: Path) -> Mark | None:
    """The newest intact slot of ``journal``'s mark, or None when there is no mark file.

    Never blocks (``O_NONBLOCK``) and never follows a symlink.

    Raises:
        MarkError: the mark is not a regular file (a symbolic link, a folder, a pipe), is
            larger than :data:`MAX_MARK_BYTES`, or neither slot is intact.
    """
    path = mark_path(journal)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
            raise MarkError(_NOT_SMALL_REGULAR.format(path=path)) from None
        raise MarkError(f"{path}: cannot read the journal's high-water mark "
                        f"({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MARK_BYTES:
            raise MarkError(_NOT_SMALL_REGULAR.format(path=path))
        raw = os.read(fd, 2 * SLOT)
    finally:
        os.close(fd)
    marks = [m for m in (_parse(raw[:SLOT]), _parse(raw[SLOT:2 * SLOT])) if m is not None]
    if not marks:
        raise MarkError(f"{path}: the journal's high-water mark is damaged (no intact slot)")
    return max(marks, key=lambda m: m.seq)


def fsync_dir(folder: Path) -> None:
    """fsync a folder (so a rename or link in it is durable)."""
    dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def create_mark(journal: Path, mark: Mark) -> None:
    """Write a new mark file holding ``mark`` in both slots: a temporary file, fsynced,
    renamed over ``<journal>.mark``, then the folder fsynced.

    Raises:
        OSError: the disk is full or read-only.
    """
    path = mark_path(journal)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW,
                 0o600)
    try:
        os.write(fd, _slot(mark) * 2)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


class MarkWriter:
    """The open mark of a journal being written: :meth:`advance` after each commit."""

    def __init__(self, journal: Path, journal_id: str) -> None:
        self.path = mark_path(journal)
        self.journal_id = journal_id
        self._slot = 1      # the slot written next: not the one fsynced last
        self._dirty = False  # written since the last fsync
        self._fd: int | None = os.open(
            self.path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):
            self.close()
            raise MarkError(f"{self.path}: the journal's high-water mark is not a regular file")

    def advance(self, seq: int, chain: str, *, sync: bool = True) -> None:
        """Record that ``seq`` (with checksum ``chain``) is committed: written at once (a
        killed process leaves it in the file), fsynced now or, with ``sync=False``, by the
        next :meth:`sync` (a power cut before it leaves an earlier record: the mark lags).

        Raises:
            OSError: the write failed (the mark then lags: it is never ahead).
        """
        if self._fd is None:
            raise OSError(f"{self.path}: the mark is closed")
        os.pwrite(self._fd, _slot(Mark(self.journal_id, seq, chain)), self._slot * SLOT)
        self._dirty = True
        if sync:
            self.sync()

    def sync(self) -> None:
        """fsync what :meth:`advance` wrote since the last fsync (nothing when nothing was).

        Raises:
            OSError: the fsync failed (the mark may lag).
        """
        if self._fd is None or not self._dirty:
            return
        os.fsync(self._fd)
        self._dirty = False
        self._slot = 1 - self._slot

    def reset(self, seq: int, chain: str) -> None:
        """Both slots to ``seq`` (after a loss was knowingly accepted)."""
        if self._fd is None:
            raise OSError(f"{self.path}: the mark is closed")
        os.pwrite(self._fd, _slot(Mark(self.journal_id, seq, chain)) * 2, 0)
        os.fsync(self._fd)
        self._dirty = False

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
