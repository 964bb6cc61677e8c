"""PHH input: a card dealt twice is a mismatch (and an error for the dealing order),
amounts beyond 10**15 chips are refused (``inf`` stays "unknown"), a directory is one error
line, and ``sim --phh`` skips non-PHH files and numbers its hands like ``phh replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.history.phh import MAX_CHIPS, PhhError, loads_hand
from engine.history.phh_replay import MISMATCH, OK, deal_sequence, replay_hand
from pi_app.sim.phh_sim import PhhSimulation
from tests.data_paths import data
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

DATA = data("phh")

HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [{s1}, 100]
actions = [{actions}]
"""
THREE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [{actions}]
"""
CALLS = "'p3 cc', 'p1 cc', 'p2 cc'"
STREET = "'p1 cc', 'p2 cc', 'p3 cc'"


def _hand(template: str, actions: list[str], s1: str = "100") -> str:
    return template.format(s1=s1, actions=", ".join(f"'{a}'" for a in actions))


def _three(board: tuple[str, str, str], holes: tuple[str, str, str]) -> str:
    acts = [f"d dh p{i + 1} {h}" for i, h in enumerate(holes)]
    text = ", ".join(f"'{a}'" for a in acts) + ", " + CALLS
    for i, cards in enumerate(board):
        text += f", 'd db {cards}', " + (STREET if i < 2 else "'p1 cbr 10', 'p2 f', 'p3 f'")
    return THREE.format(actions=text)


@pytest.mark.parametrize("text, card", [
    (_hand(HEADS_UP, ["d dh p1 QdQd", "d dh p2 AsKs", "p2 f"]), "Qd"),
    (_hand(HEADS_UP, ["d dh p1 AhKh", "d dh p2 AhQs", "p2 f"]), "Ah"),
    (_three(("QdTh9h", "2h", "2s"), ("QdJd", "AsKs", "3c4c")), "Qd"),      # board = hole
    (_three(("QdTh9h", "Th", "2s"), ("JdJc", "AsKs", "3c4c")), "Th"),      # board twice
])
def test_a_card_dealt_twice_is_a_mismatch(tmp_path: Path, capsys, text: str,
                                          card: str) -> None:
    h = loads_hand(text)
    res = replay_hand(h)
    assert res.status == MISMATCH and card in res.reason and "twice" in res.reason
    with pytest.raises(PhhError, match=f"{card}.*twice"):
        deal_sequence(h)
    f = tmp_path / "dup.phh"
    f.write_text(text)
    rc, out, _ = run_main(["phh", "replay", str(f)], capsys)
    line = json.loads(out.splitlines()[0])
    assert rc == 1 and line["status"] == MISMATCH and card in line["reason"]


def test_the_same_hand_without_the_duplicate_is_ok() -> None:
    h = loads_hand(_three(("QdTh9h", "2h", "2s"), ("QcJd", "AsKs", "3c4c")))
    assert replay_hand(h).status == OK
    assert len({s.card for s in deal_sequence(h)}) == len(deal_sequence(h))


@pytest.mark.parametrize("stack", ["1e400", "1e16", str(MAX_CHIPS + 1), "9" * 40,
                                   "1e999999999"])
def test_huge_starting_stack_is_refused(tmp_path: Path, capsys, stack: str) -> None:
    text = _hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 f"], s1=stack)
    with pytest.raises(PhhError, match="too large"):
        loads_hand(text)
    f = tmp_path / "big.phh"
    f.write_text(text)
    rc, out, err = run_main(["phh", "replay", str(f)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "starting_stacks", "too large", "inf")
    assert len(err) < 300


def test_huge_bet_is_refused() -> None:
    with pytest.raises(PhhError, match="too large"):
        loads_hand(_hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 cbr 1e300"]))


def test_inf_and_the_largest_stack_stay_supported() -> None:
    h = loads_hand(_hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 f"], s1="inf"))
    assert h.starting_stacks[0] is None and replay_hand(h).status == OK
    h = loads_hand(_hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 f"],
                         s1=str(MAX_CHIPS)))
    assert h.starting_stacks[0] == MAX_CHIPS and replay_hand(h).status == OK


def test_directory_is_one_error_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.phh").write_text(_hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 f"]))
    rc, out, err = run_main(["phh", "replay", str(tmp_path)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(tmp_path), "Is a directory")
    rc, out, err = run_main(["sim", "--phh", str(tmp_path)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(tmp_path), "Is a directory")


def test_sim_phh_skips_non_phh_files_and_numbers_hands(tmp_path: Path) -> None:
    notes = tmp_path / "SOURCE.md"
    notes.write_text("not a hand\n")
    phh = tmp_path / "one.phh"
    phh.write_text(_hand(HEADS_UP, ["d dh p1 QdJd", "d dh p2 AsKs", "p2 f"]))
    mixed = DATA / "mixed.phhs"
    lines = PhhSimulation([str(notes), str(phh), str(mixed)]).run()
    by = {(x.file, x.hand): x for x in lines}
    skipped = by[(str(notes), None)]
    assert skipped.status == "skipped" and skipped.reason == "not a PHH file (.phh or .phhs)"
    assert by[(str(phh), 1)].status == "ok"
    assert all(isinstance(x.hand, int) for x in lines if x.file != str(notes))
    assert {x.hand for x in lines if x.file == str(mixed)} == {1, 2}


def test_sim_phh_lines_match_phh_replay_hand_numbers(tmp_path: Path, capsys) -> None:
    mixed = str(DATA / "mixed.phhs")
    rc1, out1, _ = run_main(["phh", "replay", mixed], capsys)
    rc2, out2, _ = run_main(["sim", "--phh", mixed], capsys)
    assert rc1 == rc2 == 0
    hands1 = sorted(json.loads(x)["hand"] for x in out1.splitlines()[:-1])
    hands2 = sorted(json.loads(x)["hand"] for x in out2.splitlines()[:-1])
    assert hands1 == hands2 == [1, 2]
