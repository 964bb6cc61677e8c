"""``make run`` never deletes what the user made: an unreadable (or finished) journal of the
simulated table is moved aside with its hand histories and pictures, and it says so in one
line.  (Issue: 24 files deleted in one run, without a word.)"""

from __future__ import annotations

import json
import subprocess
import sys

from pi_app.service.config import default_config_text


def _config(tmp_path) -> str:
    text = default_config_text().replace('directory = ""', f'directory = "{tmp_path / "state"}"')
    text = text.replace("count = 6", "count = 2")  # heads-up: the shortest night
    path = tmp_path / "table.toml"
    path.write_text(text)
    return str(path)


def _run(cfg: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", "run", "--config", cfg,
                           "--headless"], capture_output=True, text=True, timeout=600)


def test_an_unreadable_journal_is_moved_aside_not_deleted(tmp_path):
    state = tmp_path / "state"
    (state / "sim-journal-hands").mkdir(parents=True)
    (state / "screens").mkdir()
    (state / "sim-journal.db").write_bytes(b"the night's record, damaged" * 10)
    (state / "sim-journal-hands" / "hand-0001.phh").write_text("kept\n")
    (state / "screens" / "tv-0001.png").write_bytes(b"png")
    r = _run(_config(tmp_path))
    assert r.returncode == 0, r.stderr[-2000:]
    json.loads(r.stdout.strip().splitlines()[-1])  # the new tournament's summary
    moved = [line for line in r.stderr.splitlines() if "moved it aside" in line]
    assert len(moved) == 1 and "unreadable" in moved[0] and "sim-journal.db" in moved[0]
    (aside,) = (state / "previous").iterdir()
    assert (aside / "sim-journal.db").read_bytes() == b"the night's record, damaged" * 10
    assert (aside / "sim-journal-hands" / "hand-0001.phh").read_text() == "kept\n"
    assert (aside / "screens" / "tv-0001.png").read_bytes() == b"png"
    assert str(aside) in moved[0]
    # the finished tournament is kept aside too when the next run plays it again
    r2 = _run(_config(tmp_path))
    assert r2.returncode == 0, r2.stderr[-2000:]
    assert "is finished; moved it aside" in r2.stdout
    assert len(list((state / "previous").iterdir())) == 2
