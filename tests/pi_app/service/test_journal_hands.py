"""Hand histories on disk that go past the journal are a loss (issue: a journal restored
from an earlier copy, with its mark, was resumed as if nothing was missing, and the hands
played again overwrote the histories of the hands it had lost).

``state`` and ``sim --resume`` refuse it with exit 2 and one line naming the newest history
file and how many hands are missing; the journal and the histories are left unchanged.
``--accept-journal-loss`` goes on and moves those histories aside.  A new journal beside
histories of hands it does not have is refused the same way."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.table.core import TableCore
from pi_app.service.journal_files import JournalLossError
from pi_app.service.journal_hands import check_histories, hands_in_journal, hands_on_disk
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, listing, run_cli

JOURNAL_FILES = ("j.db", "j.db-wal", "j.db.mark")


def _sim(tmp: Path, *extra: str, journal: str = "j.db", **env: str):
    return run_cli(["sim", "--preset", "phat-ace", "--players", "3", "--seed", "2",
                    "--until-winner", "--direct", "--json", "--journal", str(tmp / journal),
                    *extra], REPO, **env)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p: (folder / p).read_bytes() for p in sorted(listing(folder))
            if (folder / p).is_file() and not p.endswith((".lock", "-shm"))}


@pytest.fixture(scope="module")
def restored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A journal copied (with its -wal and mark) when the service was stopped at record
    100, and the hand histories of the whole tournament played on from there; and the
    last stdout line of the tournament never stopped."""
    tmp = tmp_path_factory.mktemp("restored")
    ref = _sim(tmp, journal="ref.db")
    assert ref.returncode == 0, ref.stderr[-2000:]
    killed = _sim(tmp, POKERTABLE_TEST_KILL_AT="journal_commit:100")
    assert killed.returncode == -9
    (tmp / "copy").mkdir()
    for name in JOURNAL_FILES:
        if (tmp / name).exists():
            shutil.copy2(tmp / name, tmp / "copy" / name)
    done = _sim(tmp, "--resume")
    assert done.returncode == 0, done.stderr[-2000:]
    for name in JOURNAL_FILES:
        (tmp / name).unlink(missing_ok=True)
        if (tmp / "copy" / name).exists():
            shutil.copy2(tmp / "copy" / name, tmp / name)
    return tmp, ref.stdout.strip().splitlines()[-1]


def test_state_and_resume_refuse_histories_past_the_journal(restored) -> None:
    tmp, reference = restored
    last = f"hand-{json.loads(reference)['hands_played']:06d}.phh"
    before = _snapshot(tmp)
    state = run_cli(["state", "--journal", str(tmp / "j.db")], REPO)
    assert state.returncode == 2, state.stderr
    line = assert_one_error_line(state.stderr, f"j-hands/{last}", "hands missing")
    resumed = _sim(tmp, "--resume")
    assert resumed.returncode == 2, resumed.stderr
    assert assert_one_error_line(resumed.stderr) == line
    assert _snapshot(tmp) == before


def test_accepting_the_loss_moves_those_histories_aside(tmp_path: Path, restored) -> None:
    src, reference = restored
    tmp = tmp_path / "night"
    shutil.copytree(src, tmp)
    hands = tmp / "j-hands"
    kept = {p.name: p.read_bytes() for p in hands.glob("hand-*.phh")}
    state = run_cli(["state", "--journal", str(tmp / "j.db"), "--accept-journal-loss"], REPO)
    assert state.returncode == 0 and "hands missing" in state.stderr, state.stderr
    resumed = _sim(tmp, "--resume", "--accept-journal-loss")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stdout.strip().splitlines()[-1] == reference
    assert "moved to" in resumed.stderr
    [aside] = hands.glob("past-journal-*")
    moved = {p.name: p.read_bytes() for p in aside.glob("hand-*.phh")}
    assert moved and max(moved) == f"hand-{json.loads(reference)['hands_played']:06d}.phh"
    assert all(kept[name] == text for name, text in moved.items())
    assert len(list((aside / "public").glob("hand-*.phh"))) == len(moved)
    assert {p.name for p in hands.glob("hand-*.phh")} == set(kept)


def test_a_new_journal_beside_histories_is_refused(tmp_path: Path) -> None:
    from pi_app.service.wiring import build_service

    hands = tmp_path / "journal-hands"
    (hands / "public").mkdir(parents=True)
    (hands / "public" / "hand-000003.phh").write_text("variant = 'NT'\n", encoding="utf-8")
    with pytest.raises(JournalLossError, match="holds no finished hand: 1 hand missing"):
        build_service(journal_path=tmp_path / "journal.db",
                      core_factory=lambda: TableCore.new(_settings()))
    assert listing(tmp_path) == {"journal-hands", "journal-hands/public",
                                 "journal-hands/public/hand-000003.phh"}
    r = _sim(tmp_path, journal="journal.db")  # the simulator says it its own way
    assert r.returncode == 2
    assert_one_error_line(r.stderr, "journal-hands holds the hand histories of another run")


def test_histories_up_to_the_journal_are_no_loss(tmp_path: Path) -> None:
    """Only hands after the journal's last finished hand count; other files are not
    histories."""
    (tmp_path / "public").mkdir()
    for n in (1, 2):
        (tmp_path / f"hand-{n:06d}.phh").write_text("x", encoding="utf-8")
        (tmp_path / "public" / f"hand-{n:06d}.phh").write_text("x", encoding="utf-8")
    (tmp_path / "hand-000009.txt").write_text("x", encoding="utf-8")
    (tmp_path / "notes-000009.phh").write_text("x", encoding="utf-8")
    assert sorted(hands_on_disk(tmp_path)) == [1, 2]

    class Core:
        hand_number = 2
        in_hand = False

    assert hands_in_journal(Core()) == 2
    assert check_histories(Core(), tmp_path, tmp_path / "j.db", accept_loss=False,
                           move=True) == []
    Core.in_hand = True  # hand 2 not finished in the journal: its history is past it
    with pytest.raises(JournalLossError) as err:
        check_histories(Core(), tmp_path, tmp_path / "j.db", accept_loss=False, move=True)
    assert err.value.missing == 1 and "ends in hand 1" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_core_without_hands_is_not_checked(tmp_path: Path) -> None:
    (tmp_path / "hand-000001.phh").write_text("x", encoding="utf-8")
    assert hands_in_journal(object()) is None
    assert check_histories(object(), tmp_path, tmp_path / "j.db", accept_loss=False,
                           move=True) == []
    fresh = TableCore.new(_settings())
    with pytest.raises(JournalLossError):
        check_histories(fresh, tmp_path, tmp_path / "j.db", accept_loss=False, move=True)


def _settings():
    from engine.table.core import TableSettings

    return TableSettings(players={1: "A", 2: "B"}, structure="phat-ace")
