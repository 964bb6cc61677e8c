"""``pokertable run`` says how the simulated tournament is going while it plays: a line on
stderr at each new level and every 25 hands, stdout unchanged (it ends with the JSON
summary).  (Issue: ``make run`` printed nothing for minutes; its user thought it hung.)"""

from __future__ import annotations

import json
import re

from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from pi_app.service.config import default_config_text
from pi_app.sim.progress import EVERY_HANDS, Progress
from tests.pi_app.cli.helpers import run_main

LINE = re.compile(r"^hand \d+: (level \d+, blinds [\d,]+/[\d,]+|break after level \d+), "
                  r"\d+ players left$")


def test_a_line_at_each_new_level_and_every_25_hands():
    lines: list[str] = []
    progress = Progress(lines.append)
    t = Tournament(load_structure("gunpowder"), seed=1)
    for seat in range(1, 5):
        t.register(f"P{seat}", seat=seat)
    t.start(0.0)
    assert progress.update(t) == "hand 0: level 1, blinds 100/200, 4 players left"
    assert progress.update(t) is None  # nothing new
    now = 0.0
    for _ in range(EVERY_HANDS):
        t.hand_started(now)
        stacks = t.stacks()
        stacks[1] += t.current.bonus if t.current is not None else 0  # the wheel's bonus
        t.hand_finished(now, stacks)
        assert (progress.update(t) is None) == (t.hands_played < EVERY_HANDS)
    assert lines[-1] == f"hand {EVERY_HANDS}: level 1, blinds 100/200, 4 players left"
    t.next_level(now)
    assert progress.update(t) == f"hand {EVERY_HANDS}: level 2, blinds 200/400, 4 players left"
    assert len(lines) == 3


def test_run_prints_progress_on_stderr_and_its_summary_on_stdout(tmp_path, capsys):
    cfg = tmp_path / "table.toml"
    cfg.write_text(default_config_text().replace(
        'directory = ""', f'directory = "{tmp_path / "state"}"').replace("count = 6",
                                                                        "count = 3"))
    rc, out, err = run_main(["run", "--config", str(cfg), "--headless"], capsys)
    assert rc == 0, err[-2000:]
    progress = [ln for ln in err.splitlines() if ln.startswith("hand ")]
    assert len(progress) >= 3 and all(LINE.match(ln) for ln in progress), progress
    assert progress[0].startswith("hand 0: level 1, ")
    levels = [ln.split(": ")[1].split(",")[0] for ln in progress]
    assert len(set(levels)) >= 2  # the level changes are told
    stdout = out.strip().splitlines()
    assert not [ln for ln in stdout if LINE.match(ln)]  # none on stdout
    summary = json.loads(stdout[-1])
    assert set(summary) == {"final_stacks", "hands_played", "history_sha256", "places"}
