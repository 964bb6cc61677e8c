"""The director's journal: one SQLite file in ``[director] state_directory``.

It holds the night id (minted when the journal is made: every message of the night
carries it), the start (players, seed, starting chips, levels; the live director's clock
start in wall time) and, in order, every table report the director applied, with its (table,
seq), written before the report is applied, each tick of the live clock that ended a
level (table 0), every change of a table's presence (online, offline), written before
the director holds or releases that table's commands, and the players registered before
the start (:mod:`pi_app.venue.desk`), each before it is taken.
The director's state is a pure function of these rows (:mod:`engine.tournament.venue`):
a restart replays them, which gives back the same state and the same commands with the
same ``seq``, so the commands a table has not answered are sent again and nothing twice.

Errors: :class:`DirectorJournalError` (an :class:`engine.errors.InvalidInputError`) for a
file that is not this journal, or whose start differs from the one asked for.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.errors import InvalidInputError
from pi_app.venue.messages import MessageError, check_night

SCHEMA = 1


class DirectorJournalError(InvalidInputError):
    """The director's journal cannot be used (another venue's, or not a journal)."""


def tuples(value: Any) -> Any:
    """JSON's lists back into the tuples the state machine takes (recursively)."""
    return tuple(tuples(v) for v in value) if isinstance(value, list) else value


def mint_night(now: float | None = None) -> str:
    """A new night id: the UTC date of ``now`` (seconds; default the wall clock) and 64
    random bits in hex, ``YYYYMMDD-`` and 16 hex digits
    (:data:`engine.table.venue_state.NIGHT_PATTERN`)."""
    day = time.strftime("%Y%m%d", time.gmtime(time.time() if now is None else now))
    return f"{day}-{secrets.token_hex(8)}"


class DirectorJournal:
    """The journal at ``path`` (created with its folder, mode 0700, when missing)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = path
        if not path.exists():
            # made 0600 before SQLite opens it: its -wal and -shm take the file's mode
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600))
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        self.db.execute("CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY, "
                        "table_no INTEGER NOT NULL, seq INTEGER NOT NULL, "
                        "kind TEXT NOT NULL, args TEXT NOT NULL, UNIQUE (table_no, seq))")
        self.db.execute("CREATE TABLE IF NOT EXISTS presence (id INTEGER PRIMARY KEY, "
                        "username TEXT NOT NULL, online INTEGER NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS registrations (id INTEGER PRIMARY KEY, "
                        "name TEXT NOT NULL UNIQUE)")
        for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            if part.exists():
                os.chmod(part, 0o600)
        schema = self._meta("schema")
        if schema is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        elif schema != str(SCHEMA):
            raise DirectorJournalError(f"{path}: a director journal of schema {schema}, "
                                       f"not {SCHEMA}")

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def night_id(self) -> str | None:
        """The journaled night id; None before the director's first start."""
        return self._meta("night")

    def night(self, minted: str) -> tuple[str, bool]:
        """(the night id, whether it is new): ``minted`` journaled on the first call (a new
        night), the journaled one after a restart (the night's messages keep it).

        Raises:
            DirectorJournalError: the journaled one is not a night id.
        """
        held = self._meta("night")
        if held is None:
            self.db.execute("INSERT INTO meta VALUES ('night', ?)", (check_night(minted),))
            return minted, True
        try:
            return check_night(held), False
        except MessageError as exc:
            raise DirectorJournalError(f"{self.path}: {exc}") from None

    def begin(self, start: dict[str, Any]) -> dict[str, Any]:
        """The journal's start: ``start`` written when the journal is new; the one it holds
        otherwise (a restart), which must be the same.

        Raises:
            DirectorJournalError: the journal holds another start.
        """
        text = json.dumps(start, sort_keys=True, separators=(",", ":"))
        held = self._meta("start")
        if held is None:
            self.db.execute("INSERT INTO meta VALUES ('start', ?)", (text,))
            return start
        if held != text:
            raise DirectorJournalError(f"{self.path}: this journal is of another night "
                                       f"(other players, seed or structure)")
        return dict(json.loads(held))

    def clock_start(self, now: float) -> float:
        """The wall time (seconds) the live director's clock started: ``now`` on the first
        call, journaled; the journaled one after a restart (the clock ran on meanwhile)."""
        held = self._meta("clock_start")
        if held is None:
            self.db.execute("INSERT INTO meta VALUES ('clock_start', ?)", (repr(now),))
            return now
        return float(held)

    def append(self, table: int, seq: int, kind: str, args: tuple[Any, ...]) -> None:
        """Journal report ``seq`` of table ``table`` (durably, before it is applied)."""
        self.db.execute("INSERT INTO reports (table_no, seq, kind, args) VALUES (?, ?, ?, ?)",
                        (table, seq, kind, json.dumps(args, separators=(",", ":"))))

    def reports(self) -> Iterator[tuple[int, int, str, tuple[Any, ...]]]:
        """Every report journaled, in the order applied: (table, seq, kind, args)."""
        for table, seq, kind, args in self.db.execute(
                "SELECT table_no, seq, kind, args FROM reports ORDER BY id"):
            yield int(table), int(seq), str(kind), tuples(json.loads(args))

    def register(self, name: str) -> None:
        """Journal the registration of ``name`` before the start (checked by the caller)."""
        self.db.execute("INSERT INTO registrations (name) VALUES (?)", (name,))

    def registered(self) -> list[str]:
        """The players registered before the start, in the order they came."""
        return [str(n) for (n,) in
                self.db.execute("SELECT name FROM registrations ORDER BY id")]

    def start_record(self) -> dict[str, Any] | None:
        """The night's start (players, seed, ...) once the opening draw is journaled."""
        held = self._meta("start")
        return None if held is None else dict(json.loads(held))

    def presence(self, username: str, online: bool) -> None:
        """Journal a change of a table's presence (before it is applied: the commands held
        for an offline table, :mod:`pi_app.venue.held`)."""
        self.db.execute("INSERT INTO presence (username, online) VALUES (?, ?)",
                        (username, int(online)))

    def presences(self) -> list[tuple[str, bool]]:
        """Every change of presence journaled, in order: (user name, online)."""
        return [(str(u), bool(o)) for u, o in
                self.db.execute("SELECT username, online FROM presence ORDER BY id")]

    def count(self) -> int:
        """Reports journaled."""
        return int(self.db.execute("SELECT COUNT(*) FROM reports").fetchone()[0])

    def close(self) -> None:
        self.db.close()
