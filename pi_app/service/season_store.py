"""The league's season, kept in SQLite (``<state directory>/season.db``).

Tables:

* ``players``: one row per player (``name`` as first seen, ``key`` its
  :func:`engine.tournament.season.name_key`);
* ``spellings``: every name key that means a player (its own, and each one merged into it);
* ``nights``: one row per night (``date``, ``event`` label, ``source``: ``table`` for a night
  played here, else the imported file's name); a date and event are one night only;
* ``results``: a player's place, points (exact: whole hundredths of a point, an INTEGER),
  knockouts and bounty on a night.

Every change is one transaction: an import, a night recorded at the end of a tournament or
a merge either all happens or nothing does.  Rules (ranking, tie-break, CSV format) are in
:mod:`engine.tournament.season`.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

from engine.input_file import read_text
from engine.tournament.season import (
    SeasonInputError,
    SeasonResult,
    Standing,
    Totals,
    check_event,
    check_nights,
    check_player,
    name_key,
    parse_csv,
    rank,
)

SEASON_NAME = "season.db"
MAX_CSV_BYTES = 8 * 1024 * 1024  #: the largest CSV imported
NIGHT_EVERY = dt.timedelta(days=7)  #: seed 000: the league plays a night a week
_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, key TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS spellings (
    key TEXT PRIMARY KEY, player INTEGER NOT NULL REFERENCES players(id));
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY, date TEXT NOT NULL, event TEXT NOT NULL, source TEXT NOT NULL,
    UNIQUE (date, event));
CREATE TABLE IF NOT EXISTS results (
    night INTEGER NOT NULL REFERENCES nights(id), player INTEGER NOT NULL
    REFERENCES players(id), place INTEGER, cents INTEGER NOT NULL, knockouts INTEGER
    NOT NULL, bounty INTEGER NOT NULL, PRIMARY KEY (night, player));
"""


def season_path(state_dir: str | os.PathLike[str]) -> Path:
    """``<state_dir>/season.db``."""
    return Path(state_dir) / SEASON_NAME


def default_state_dir(env: dict[str, str] | None = None) -> Path:
    """``$STATE_DIRECTORY`` (its first entry), else ``./state`` (as the table's config)."""
    env = dict(os.environ) if env is None else env
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    return Path.cwd() / "state"


class Season:
    """A season in one SQLite file.  Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.executescript(_SCHEMA)

    def __enter__(self) -> Season:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ writing
    def _player(self, name: str) -> int:
        key = name_key(name)
        row = self.db.execute("SELECT player FROM spellings WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return int(row[0])
        pid = self.db.execute("INSERT INTO players (name, key) VALUES (?, ?)",
                              (name, key)).lastrowid
        self.db.execute("INSERT INTO spellings (key, player) VALUES (?, ?)", (key, pid))
        return int(pid or 0)

    def _add_nights(self, rows: Sequence[SeasonResult], source: str) -> int:
        """Add rows (checked) inside the open transaction; returns the nights added."""
        nights: dict[tuple[dt.date, str], int] = {}
        for i, r in enumerate(rows, 1):
            night = nights.get((r.date, r.event))
            if night is None:
                if self.db.execute("SELECT 1 FROM nights WHERE date = ? AND event = ?",
                                   (r.date.isoformat(), r.event)).fetchone():
                    label = f" ({r.event})" if r.event else ""
                    raise SeasonInputError(f"the night of {r.date}{label} is already in the "
                                           "season")
                night = int(self.db.execute(
                    "INSERT INTO nights (date, event, source) VALUES (?, ?, ?)",
                    (r.date.isoformat(), r.event, source)).lastrowid or 0)
                nights[(r.date, r.event)] = night
            player = self._player(r.player)
            try:
                self.db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
                                (night, player, r.place, int(r.points * 100), r.knockouts,
                                 int(r.bounty)))
            except sqlite3.IntegrityError:
                raise SeasonInputError(f"result {i}: {r.player} is on the night of {r.date} "
                                       "twice (two spellings of one player)") from None
        return len(nights)

    def add_results(self, rows: Sequence[SeasonResult], source: str) -> int:
        """Add nights' results in one transaction; returns the number of nights added.

        Raises:
            SeasonInputError: a player or place twice on a night, or a night (date and
                event) already in the season; nothing is added.
        """
        check_nights(rows)
        with self._transaction():
            return self._add_nights(rows, source)

    def import_csv(self, path: str | os.PathLike[str]) -> tuple[int, int]:
        """Import a CSV file (format: :mod:`engine.tournament.season`), read through the
        bounded reader :func:`engine.input_file.read_text`; returns (nights, rows).

        Raises:
            InputFileError: not a regular UTF-8 file of at most 8 MiB.
            SeasonInputError: ``FILE: row N: ...``; the season is unchanged.
        """
        name = os.fsdecode(path)
        try:
            rows = parse_csv(read_text(path, limit=MAX_CSV_BYTES))
            with self._transaction():
                nights = self._add_nights(rows, check_event(Path(name).name[:60]))
        except SeasonInputError as exc:
            raise SeasonInputError(f"{name}: {exc}") from None
        return nights, len(rows)

    def merge(self, spelling: str, into: str) -> int:
        """Merge the player called ``spelling`` into the player called ``into``: every
        result of the first becomes the second's, and ``spelling`` means ``into`` from now
        on (a later night's result under it is the second's).  Returns the results moved.

        Raises:
            SeasonInputError: either name unknown, both one player already, or both played
                one night (then they are two people); nothing changes.
        """
        src, dst = self._known(spelling), self._known(into)
        if src == dst:
            raise SeasonInputError(f"{spelling!r} and {into!r} are one player already")
        with self._transaction() as db:
            both = db.execute(
                "SELECT n.date FROM results a JOIN results b ON a.night = b.night "
                "JOIN nights n ON n.id = a.night WHERE a.player = ? AND b.player = ?",
                (src, dst)).fetchone()
            if both is not None:
                raise SeasonInputError(f"{spelling!r} and {into!r} both played on {both[0]}: "
                                       "they are two players")
            moved = db.execute("UPDATE results SET player = ? WHERE player = ?",
                               (dst, src)).rowcount
            db.execute("UPDATE spellings SET player = ? WHERE player = ?", (dst, src))
            db.execute("DELETE FROM players WHERE id = ?", (src,))
        return int(moved)

    def _known(self, name: str) -> int:
        check_player(name)
        row = self.db.execute("SELECT player FROM spellings WHERE key = ?",
                              (name_key(name),)).fetchone()
        if row is None:
            raise SeasonInputError(f"no player {name!r} in the season")
        return int(row[0])

    # ------------------------------------------------------------------ reading
    def standings(self) -> list[Standing]:
        """The standings, ranked (:func:`engine.tournament.season.rank`)."""
        totals: dict[int, Totals] = {}
        query = ("SELECT p.id, p.name, n.date, n.event, r.place, r.cents, r.knockouts, "
                 "r.bounty FROM results r JOIN players p ON p.id = r.player "
                 "JOIN nights n ON n.id = r.night ORDER BY n.date, n.id")
        for pid, name, date, event, place, cents, kos, bounty in self.db.execute(query):
            totals.setdefault(pid, Totals(name)).add(SeasonResult(
                dt.date.fromisoformat(date), event, name, place,
                Decimal(cents).scaleb(-2), kos, bool(bounty)))
        return rank(totals.values())

    def nights(self) -> list[tuple[dt.date, str, str]]:
        """(date, event, source) of every night, oldest first."""
        return [(dt.date.fromisoformat(d), e, s) for d, e, s in self.db.execute(
            "SELECT date, event, source FROM nights ORDER BY date, id")]

    def next_night(self) -> dt.date | None:
        """The next night's date: the last night's plus a week (seed 000: a night a week);
        None before the first night."""
        row = self.db.execute("SELECT max(date) FROM nights").fetchone()
        return None if row[0] is None else dt.date.fromisoformat(row[0]) + NIGHT_EVERY


def read_standings(state_dir: str | os.PathLike[str]) -> tuple[list[Standing], dt.date | None]:
    """The standings and next night of the season in ``state_dir`` (empty and None when it
    has no season yet; nothing is created then)."""
    path = season_path(state_dir)
    if not path.is_file():
        return [], None
    with Season(path) as season:
        return season.standings(), season.next_night()


def tournament_rows(results: Iterable[dict[str, Any]], date: dt.date,
                    event: str) -> list[SeasonResult]:
    """Season rows from :func:`engine.tournament.results.results` of an ended tournament
    (points None, a structure without league points, count 0)."""
    out = []
    for r in results:
        points = r.get("points")
        out.append(SeasonResult(
            date=date, event=check_event(event), player=check_player(r["name"]),
            place=r.get("place"), points=Decimal(points) if points else Decimal("0.00"),
            knockouts=int(r.get("knockouts") or 0), bounty=bool(r.get("bounty"))))
    return out
