"""The cases of issue 11's census, one test each: the command lines and small hostile files
of ``tests/data/hostile/arguments.toml`` (one clear line, exit 2), every kind of journal
damage (refused with the files unchanged, or recovered to the same tournament), and the
shoe client under a seeded mix of hostile frames.  The broken configs, structures and
hostile file kinds the census also counts are checked by their own tests
(tests/pi_app/service/test_config.py, tests/engine/tournament/,
tests/pi_app/cli/test_input_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pi_app import census, journal_damage

ARGUMENT_CASES = [c for c in census.bad_inputs() if c.group == "command line and small files"]


def test_the_census_enumerates_every_group() -> None:
    groups = {c.group for c in census.bad_inputs()}
    assert groups == {"broken config", "broken structure", "hostile input file",
                      "command line and small files"}
    assert len(ARGUMENT_CASES) >= 30


@pytest.mark.parametrize("case", ARGUMENT_CASES, ids=[c.name for c in ARGUMENT_CASES])
def test_a_bad_command_line_or_small_file_is_one_clear_line(case: census.BadInput) -> None:
    got, clear = census.try_bad_input(case)
    assert clear, (got.rc, got.out[-500:], got.err[-1500:])
    assert got.out == ""


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("damage")
    return root / "base", journal_damage.base_night(root)


@pytest.mark.parametrize("name", list(journal_damage.CASES))
def test_journal_damage_is_refused_or_recovered(name: str, night, tmp_path: Path) -> None:
    base, reference = night
    tried = journal_damage.try_case(name, base, tmp_path, reference)
    assert tried.held, (tried.expected, tried.state, tried.resume, tried.state_unchanged,
                        tried.resume_unchanged)


def test_hostile_frames_never_stop_the_client_nor_lose_a_card_silently() -> None:
    counts = census.hostile_frames(mixes=40, seed=5)
    alone = counts["each hostile field alone"]
    assert alone.frames > 50 and alone.refused == alone.frames and alone.raised == 0
    mixed = counts["40 random mixes"]
    assert mixed.frames > 100 and mixed.raised == 0 and mixed.cards_lost_silently == 0
