"""When the journal's WAL is copied into ``journal.db`` (checkpointed): at the loop's idle
time, never inside the commit of an event.

SQLite checkpoints a WAL by itself inside the commit that takes it past 1,000 pages
(``wal_autocheckpoint``), and a checkpoint fsyncs the WAL and the database file: that
commit, and so the event it carries, waits for both.  The journal turns that off
(:func:`configure`) and checkpoints instead:

* at idle (:meth:`WalUpkeep.at_idle`, from :meth:`pi_app.service.journal.Journal.idle`,
  which the service loop calls when no event is queued): after each snapshot (so
  ``journal.db`` alone holds every record up to the last snapshot, as before), or once
  :data:`IDLE_RECORDS` records are past the last checkpoint;
* inside an append only when :data:`FORCE_RECORDS` records are past the last checkpoint
  (a loop that never idles: the WAL stays bounded);
* on close.

A checkpoint is ``TRUNCATE``: it copies the WAL's frames into the database, fsyncs both
and empties the WAL file.  An emptied WAL, not one whose frames are left behind once
copied (``PASSIVE``): a WAL damaged after such a checkpoint (cut short, a byte flipped)
would show a prefix of old frames over a newer database, a mix of two states
(tests/pi_app/service/test_recovery_power_cut.py).  Every record is still committed and
fsynced in the WAL before its event is applied; a process killed between a commit and the
checkpoint finds its records in the WAL on the next open (SQLite's own recovery), as
before.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from pi_app.service.testhooks import kill_point

log = logging.getLogger(__name__)

IDLE_RECORDS = 256  #: records past the last checkpoint that make one due at idle
FORCE_RECORDS = 4096  #: records past the last checkpoint at which an append checkpoints


def configure(con: sqlite3.Connection) -> None:
    """No automatic checkpoint inside a commit on ``con``."""
    con.execute("PRAGMA wal_autocheckpoint=0")


class WalUpkeep:
    """Counts what the WAL holds past its last checkpoint, and checkpoints it when due
    (see the module docstring).  ``checkpoints`` counts the complete ones."""

    def __init__(self, con: sqlite3.Connection, path: Path) -> None:
        self._con = con
        self._path = path
        self.pending = 0  #: records committed since the last complete checkpoint
        self.snapshot_pending = False  #: a snapshot committed since then
        self.checkpoints = 0

    def committed(self) -> None:
        """A record was committed; checkpoints at once past :data:`FORCE_RECORDS`."""
        self.pending += 1
        if self.pending >= FORCE_RECORDS:
            self.checkpoint()

    def snapshot_written(self) -> None:
        """A snapshot was committed: a checkpoint is due at idle."""
        self.snapshot_pending = True

    @property
    def due(self) -> bool:
        return self.snapshot_pending or self.pending >= IDLE_RECORDS

    def at_idle(self) -> bool:
        """Checkpoint if one is due; whether the WAL is now all in the database."""
        return self.checkpoint() if self.due else self.pending == 0

    def checkpoint(self) -> bool:
        """Copy the WAL into the database and empty it; False if it did not now (a reader
        holds old frames, or it failed: the WAL still holds every record; nothing is
        lost)."""
        kill_point("journal_checkpoint")
        try:
            busy, frames, copied = self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)"
                                                     ).fetchone()
        except sqlite3.DatabaseError as exc:
            log.debug("%s: checkpoint failed: %s", self._path, exc)
            return False
        if busy or copied < frames:
            return False
        self.pending, self.snapshot_pending = 0, False
        self.checkpoints += 1
        return True
