"""The tournament's structure (and house rules) are recorded in the journal when it starts
and a resume plays that copy: a structure file edited or deleted between a kill and the
resume gives a warning on stderr and the same tournament (the last stdout line unchanged).
(Issue: a big blind edited gave 13 hands instead of 16; a deleted file made the journal
unopenable by ``sim --resume`` and ``state``.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.tournament.structure_file import structure_source
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import run_cli


def _sim(structure: Path, journal: Path, *extra: str, **env: str):
    return run_cli(["sim", "--preset", str(structure), "--players", "4", "--seed", "2",
                    "--hands", "12", "--direct", "--json", "--journal", str(journal), *extra],
                   REPO, **env)


@pytest.mark.parametrize("preset, change", [("phat-ace", "edited"), ("phat-ace", "deleted"),
                                            ("gunpowder", "deleted")])
def test_a_resume_plays_the_structure_recorded_in_the_journal(tmp_path: Path, preset: str,
                                                              change: str) -> None:
    """gunpowder names its own house profile: with the file gone, the resume takes the
    profile from the journal's copy instead of refusing the run as another one's."""
    text = structure_source(preset)[0]
    assert "big_blind = " in text
    structure = tmp_path / "house.toml"
    structure.write_text(text, encoding="utf-8")
    ref = _sim(structure, tmp_path / "ref.db")
    assert ref.returncode == 0, ref.stderr[-2000:]
    journal = tmp_path / "j.db"
    killed = _sim(structure, journal, POKERTABLE_TEST_KILL_AT="journal_commit:60")
    assert killed.returncode == -9
    if change == "edited":
        changed = _bigger_blinds(text)
        assert changed != text
        structure.write_text(changed, encoding="utf-8")
    else:
        structure.unlink()
    state = run_cli(["state", "--journal", str(journal), "--json"], REPO)
    assert state.returncode == 0, state.stderr
    resumed = _sim(structure, journal, "--resume")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]
    json.loads(resumed.stdout.strip().splitlines()[-1])
    assert "the tournament goes on with the copy recorded in its journal" in resumed.stderr
    assert ("has changed" if change == "edited" else "cannot be read now") in resumed.stderr


def _bigger_blinds(text: str) -> str:
    """The structure with every level's big blind doubled (a typo at the venue)."""
    out = []
    for line in text.splitlines():
        if line.strip().startswith("big_blind = "):
            key, _, value = line.partition("=")
            line = f"{key}= {int(value.split('#')[0]) * 2}"
        out.append(line)
    return "\n".join(out) + "\n"
