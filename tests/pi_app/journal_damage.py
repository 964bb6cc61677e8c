"""Every kind of journal damage the issue names (and a few more), done to a copy of one
simulated table killed at record 250 (its newest snapshot at record 200, records 201-250
only in the ``-wal``), then tried with ``state`` and ``sim --resume`` as a user would.

A loss, a newer pokertable's journal or a file that is not a journal must be *refused*:
both commands exit 2 with one line and leave the journal's files (database, ``-wal``,
mark, hand histories) byte for byte.  A power cut's torn last record and a damaged
snapshot are *recovered*: ``state`` exits 0 without writing, and the resumed tournament
ends exactly as the one never stopped.  Counted by :mod:`tests.pi_app.census`, checked one
by one by ``tests/pi_app/test_census.py``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pi_app.service.journal_files import chain
from pi_app.service.journal_mark import Mark, create_mark, mark_path
from tests.data_paths import REPO
from tests.pi_app.census import Outcome, run
from tests.pi_app.cli.helpers import run_cli

SIM = ["sim", "--preset", "phat-ace", "--players", "3", "--seed", "2", "--until-winner",
       "--direct", "--json"]
JOURNAL = "journal.db"


def base_night(folder: Path) -> str:
    """Play the reference tournament and leave in ``folder/base`` one killed at record
    250; returns the reference's last stdout line."""
    (folder / "ref").mkdir()  # sim makes no folder for its --journal
    ref = run(SIM + ["--journal", str(folder / "ref" / JOURNAL)], timeout=600)
    assert ref.rc == 0, ref.err[-2000:]

    (folder / "base").mkdir()
    killed = run_cli(SIM + ["--journal", str(folder / "base" / JOURNAL)], REPO,
                     POKERTABLE_TEST_KILL_AT="journal_commit:250")
    assert killed.returncode == -9, killed.stderr[-2000:]
    return ref.out.strip().splitlines()[-1]


# --- the damage ------------------------------------------------------------------------
def _wal(d: Path) -> Path:
    return d / (JOURNAL + "-wal")


def _rewrite_wal(d: Path, change: Callable[[bytearray], None]) -> None:
    data = bytearray(_wal(d).read_bytes())
    assert len(data) > 8192, "the killed table left records in its -wal"
    change(data)
    _wal(d).write_bytes(bytes(data))


def _flip(data: bytearray) -> None:
    mid = len(data) // 2
    data[mid:mid + 16] = bytes(b ^ 0xFF for b in data[mid:mid + 16])


def _sql(d: Path, *statements: str) -> None:
    con = sqlite3.connect(d / JOURNAL, isolation_level=None)
    for s in statements:
        con.execute(s)
    con.close()


def _journal_id(d: Path) -> str:
    con = sqlite3.connect(f"file:{d / JOURNAL}?mode=ro", uri=True)
    try:
        return str(dict(con.execute("SELECT key, value FROM meta").fetchall())["journal_id"])
    finally:
        con.close()


def _insert(d: Path, at: int | None, data: str, *, good_chain: bool = True,
            move_mark: bool = True) -> None:
    """Record ``at`` (None: a new last record) becomes ``data``; the later ones move up,
    every chained checksum is made to hold (unless ``good_chain``: the new record's is
    wrong) and the mark is moved to the end (unless ``move_mark``)."""
    con = sqlite3.connect(d / JOURNAL, isolation_level=None)
    rows = con.execute("SELECT seq, t, data FROM events ORDER BY seq").fetchall()
    at = len(rows) + 1 if at is None else at
    rows = rows[:at - 1] + [(at, rows[at - 2][1], data)] + [(s + 1, t, x)
                                                            for s, t, x in rows[at - 1:]]
    prev = _journal_id(d)
    con.execute("BEGIN")
    con.execute("DELETE FROM events")
    for seq, t, x in rows:
        prev = chain(prev, seq, x) if good_chain or seq != at else "0" * 32
        con.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (seq, t, x, prev))
    con.execute("COMMIT")
    con.close()
    if move_mark:
        mark_path(d / JOURNAL).unlink()
        create_mark(d / JOURNAL, Mark(_journal_id(d), len(rows), prev))


NEWER = json.dumps({"seat": 1, "t": 100.0, "type": "seat_photo"}, separators=(",", ":"),
                   sort_keys=True)


def _other_mark(d: Path) -> None:
    mark_path(d / JOURNAL).unlink()
    create_mark(d / JOURNAL, Mark("f" * 32, 250, "0" * 32))


def _empty_beside_lock(d: Path) -> None:
    for suffix in ("-wal", "-shm", ".mark"):
        (d / (JOURNAL + suffix)).unlink(missing_ok=True)
    (d / JOURNAL).write_bytes(b"")


def _other_file(d: Path) -> None:
    _empty_beside_lock(d)
    (d / JOURNAL).write_text("the league's notes for tonight\n", encoding="utf-8")


def _copied_alone(d: Path) -> None:
    for suffix in ("-wal", "-shm", ".mark"):
        (d / (JOURNAL + suffix)).unlink(missing_ok=True)


def _journal_gone(d: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (d / (JOURNAL + suffix)).unlink(missing_ok=True)


def _history_past(d: Path) -> None:
    hands = d / "journal-hands"
    last = max(hands.glob("hand-*.phh"))
    (hands / "hand-000099.phh").write_bytes(last.read_bytes())


def _bad_snapshot(d: Path) -> None:
    _sql(d, "UPDATE snapshots SET checksum = 'x' WHERE seq = 200")


REFUSED: dict[str, Callable[[Path], None]] = {
    "-wal deleted": lambda d: _wal(d).unlink(),
    "-wal's first page overwritten": lambda d: _rewrite_wal(
        d, lambda b: b.__setitem__(slice(0, 4096), b"\0" * 4096)),
    "-wal cut in half": lambda d: _rewrite_wal(d, lambda b: b.__delitem__(
        slice(len(b) // 2, None))),
    "16 bytes flipped in the -wal": lambda d: _rewrite_wal(d, _flip),
    "journal.db copied alone": _copied_alone,
    "an empty journal.db beside its lock": _empty_beside_lock,
    "another file at the journal path": _other_file,
    "the journal gone, its mark left": _journal_gone,
    "high-water mark missing": lambda d: mark_path(d / JOURNAL).unlink(),
    "high-water mark of another journal": _other_mark,
    "high-water mark overwritten": lambda d: mark_path(d / JOURNAL).write_bytes(b"\0" * 64),
    "last 10 records cut": lambda d: _sql(d, "DELETE FROM events WHERE seq > 240"),
    "a record deleted in the middle": lambda d: _sql(d, "DELETE FROM events WHERE seq = 220"),
    "a record's data changed": lambda d: _sql(
        d, "UPDATE events SET data = replace(data, '\"seat\":1', '\"seat\":2') "
           "WHERE seq = (SELECT min(seq) FROM events WHERE seq > 210 "
           "AND data LIKE '%\"seat\":1%')"),
    "newer pokertable's record, last": lambda d: _insert(d, None, NEWER),
    "newer pokertable's record, after the snapshot": lambda d: _insert(d, 230, NEWER),
    "newer pokertable's record, before the snapshot": lambda d: _insert(d, 100, NEWER),
    "newer schema version": lambda d: _sql(d, "PRAGMA user_version=3"),
    "hand histories past the journal": _history_past,
}
RECOVERED: dict[str, Callable[[Path], None]] = {
    "torn last record (power cut)": lambda d: _insert(
        d, None, '{"t":', good_chain=False, move_mark=False),
    "newest snapshot damaged": _bad_snapshot,
}
CASES = {**dict.fromkeys(REFUSED, "refused"), **dict.fromkeys(RECOVERED, "recovered")}


# --- trying a case ---------------------------------------------------------------------
def digest(d: Path) -> dict[str, str]:
    """The journal's files and hand histories (not SQLite's scratch ``-shm``, not the lock)."""
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(d.rglob("*")) if p.is_file()
            and not p.name.endswith(("-shm", ".lock"))}


@dataclass(frozen=True)
class Tried:
    name: str
    expected: str
    state: Outcome
    resume: Outcome
    state_unchanged: bool
    resume_unchanged: bool
    reference: str

    @property
    def held(self) -> bool:
        """The case went as it must (see the module docstring)."""
        if self.expected == "refused":
            return (self.state.clear and self.resume.clear and self.state_unchanged
                    and self.resume_unchanged)
        last = self.resume.out.strip().splitlines()[-1:] or [""]
        return (self.state.rc == 0 and self.state_unchanged and self.resume.rc == 0
                and last[0] == self.reference)


def try_case(name: str, base: Path, work: Path, reference: str) -> Tried:
    d = work / "night"
    shutil.copytree(base, d)
    (REFUSED.get(name) or RECOVERED[name])(d)
    journal = str(d / JOURNAL)
    before = digest(d)
    state = run(["state", "--journal", journal])
    after_state = digest(d)
    resume = run(SIM + ["--journal", journal, "--resume"], timeout=600)
    return Tried(name, CASES[name], state, resume, after_state == before,
                 digest(d) == before, reference)


def _row(t: Tried) -> str:
    def said(o: Outcome) -> str:
        return "exit 2, one line" if o.clear else f"exit {o.rc}"

    resume = said(t.resume)
    if t.expected == "recovered" and t.held:
        resume += ", same tournament"
    by_resume = "yes" if t.resume_unchanged else \
        "no (recovered)" if t.expected == "recovered" else "NO"
    cells = [t.name, t.expected, said(t.state), resume,
             "yes" if t.state_unchanged else "NO", by_resume, "yes" if t.held else "NO"]
    return "| " + " | ".join(cells) + " |"


def census_table() -> str:
    """The journal damage table of the census (plays the base night first)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="census-journal-") as tmp:
        root = Path(tmp)
        reference = base_night(root)
        rows = []
        for i, name in enumerate(CASES):
            work = root / f"case{i}"
            work.mkdir()
            rows.append(_row(try_case(name, root / "base", work, reference)))
    head = ("| damage | must be | state | sim --resume | unchanged by state | "
            "unchanged by resume | held |\n|---|---|---|---|---|---|---|")
    return head + "\n" + "\n".join(rows)
