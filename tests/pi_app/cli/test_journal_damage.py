"""A record changed in place before the newest snapshot of a closed journal (``printf Q |
dd ... conv=notrunc``), or made of bytes that are not UTF-8, is refused by ``state`` and
``sim --resume`` in one line naming the record, exit 2, files unchanged;
``--accept-journal-loss`` shows (and, resuming, goes on from) the intact snapshot."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli, run_main

SIM = ["sim", "--preset", "gunpowder", "--players", "4", "--seed", "3", "--direct", "--json"]


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """Eight hands played and closed: 210 records, snapshots after 200 and 210."""
    j = tmp_path / "journal.db"
    r = run_cli(SIM + ["--hands", "8", "--journal", str(j)], REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    return j


def _files(j: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(j.parent.iterdir()) if p.is_file()}


def _damage(j: Path, bytes_: bytes) -> None:
    data = bytearray(j.read_bytes())
    needle = b'"t":141.20000000000002'  # record 50's time, once in the file
    assert data.count(needle) == 1
    at = data.index(needle) + 5
    data[at:at + len(bytes_)] = bytes_
    j.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [b"Q", b"\xff\xff\xff\xff"])
def test_damage_before_the_snapshot_is_refused_naming_the_record(played: Path, capsys,
                                                                 damage: bytes) -> None:
    _damage(played, damage)
    before = _files(played)
    for argv in (["state", "--journal", str(played)],
                 SIM + ["--hands", "9", "--journal", str(played), "--resume"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        assert_one_error_line(err, str(played), "record 50 is damaged",
                              "before the snapshot of record 210", "--accept-journal-loss")
        assert _files(played) == before, argv


def test_accepting_it_shows_the_snapshot_state(played: Path, capsys) -> None:
    rc, out, _ = run_main(["state", "--journal", str(played), "--json"], capsys)
    intact = json.loads(out)["summary"]
    _damage(played, b"Q")
    rc, out, err = run_main(["state", "--journal", str(played), "--json",
                             "--accept-journal-loss"], capsys)
    assert rc == 0, err
    report = json.loads(out)
    assert report["summary"] == intact
    assert "record 50 is damaged" in report["recovery"]["loss"]["text"]
