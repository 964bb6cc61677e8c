"""The ``.deal`` scenario language: every converted scenario passes, one file at least per
row D1-D14 and B1-B8, and ``pokertable replay`` answers with the documented exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.dealing.deal_run import run_deal
from engine.dealing.deal_script import DealRefusedError, DealSyntaxError, parse_deal
from pi_app.cli.main import main
from tests.data_paths import data

DATA = data("dealing")
FILES = sorted(DATA.glob("*.deal"))

HEAD = "seats: 1=1000 2=1000 3=1000 4=1000\nbutton: 4\nblinds: 10/20\ndeck: seed 1\n"


def test_every_row_has_a_deal_file_and_every_jsonl_scenario_is_converted():
    names = {f.stem for f in FILES}
    for r in [f"D{i}" for i in range(1, 15)] + [f"B{i}" for i in range(1, 9)]:
        stem = f"{r[0].lower()}{int(r[1:]):02d}_"
        assert any(n.startswith(stem) for n in names), f"no .deal file for row {r}"
    assert {f.stem for f in DATA.glob("*.jsonl")} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_deal_file_passes(path: Path):
    sc = parse_deal(path.read_text(encoding="utf-8").splitlines())
    assert any(st.kind == "expect" for st in sc.steps), "every scenario states what it expects"
    start = sum(sc.procedure.hand.config.stacks.values())
    result = run_deal(sc)
    assert result.failures == []
    assert sc.procedure.hand.total_chips() == start  # no chip appears or vanishes


def _run(tmp_path, text, capsys):
    f = tmp_path / "s.deal"
    f.write_text(text, encoding="utf-8")
    rc = main(["replay", str(f)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_replay_exit_0_and_prints_rulings_and_held_actions(tmp_path, capsys):
    text = HEAD + "\n".join(f"deal {c}" for c in ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s"])
    text += "\nseat 3 calls\nexpect ruling BUTTON_SHORT\nexpect held 1\ndeal 4s\nexpect held 0\n"
    rc, out, err = _run(tmp_path, text, capsys)
    assert rc == 0, err
    assert "line 12: ruling BUTTON_SHORT (D10, TDA 37)" in out
    assert "line 12: held: seat 3 calls (cards still due" in out
    assert out.strip().splitlines()[-1].startswith("final: stacks")


def test_replay_prints_the_held_action_and_the_dead_button_ruling(capsys):
    rc = main(["replay", str(DATA / "d10_button_dead.deal")])
    out = capsys.readouterr().out
    assert rc == 0
    assert "line 17: held: seat 3 calls (cards still due: hole card to seat 4)" in out
    assert "line 20: ruling BUTTON_DEAD (D10, TDA 37): The button (seat 4) checked or " \
           "called with only one card." in out


def test_replay_exit_1_names_the_failed_line(tmp_path, capsys):
    rc, _, err = _run(tmp_path, HEAD + "deal Ad\nexpect ruling MISDEAL\nexpect burns 0\n", capsys)
    assert rc == 1 and "line 6: expect ruling MISDEAL" in err and "line 7" not in err


@pytest.mark.parametrize("text,where", [
    ("button: 4\nblinds: 10/20\ndeal Ad\n", "line 3: the header is missing 'seats:'"),
    (HEAD + "deal Zz\n", "line 5"),
    (HEAD + "seat 3 dances\n", "line 5: unknown seat action"),
    (HEAD + "deal Ad\nblinds: 5/10\n", "line 6: header line 'blinds' after the first event"),
    ("seats: 1=1000 2=1000\nbutton: 2\nblinds: 20/10\ndeal Ad\n", "big blind 10 is smaller"),
    (HEAD + "deal Ad\u202e\n", "line 5: control or direction character U+202E"),
    (HEAD + "deal Ad\nexpect rulings exclude MISDEEL\n", "line 6: unknown ruling code 'MISDEEL'"),
    (HEAD + "deal Ad\nexpect ruling FOO\n", "line 6: unknown ruling code 'FOO'"),
    (HEAD + "expect rows D15\n", "line 5: unknown row 'D15'"),
    (HEAD + "expect statuses approved\n", "line 5: unknown ruling status 'approved'"),
])
def test_replay_exit_2_for_a_malformed_file(tmp_path, capsys, text, where):
    rc, out, err = _run(tmp_path, text, capsys)
    assert rc == 2 and where in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_known_codes_rows_and_statuses_still_parse():
    sc = parse_deal((HEAD + "deal Ad\nexpect rulings exclude misdeal, FOULED_DECK\n"
                     "expect rulings none\nexpect rows D14 B8\nexpect statuses confirmed\n"
                     ).splitlines())
    assert [st.what for st in sc.steps if st.kind == "expect"] == [
        "rulings exclude", "rulings", "rows", "statuses"]


def test_replay_exit_3_when_the_table_refuses_a_line(tmp_path, capsys):
    text = HEAD + "\n".join(f"deal {c}" for c in ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s", "4s"])
    text += "\nseat 1 calls\n"
    rc, _, err = _run(tmp_path, text, capsys)
    assert rc == 3 and "line 13" in err and "seat 1 is not to act; seat 3 is" in err


def test_a_check_facing_a_bet_is_refused(tmp_path, capsys):
    text = HEAD + "\n".join(f"deal {c}" for c in ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s", "4s"])
    text += "\nseat 3 checks\n"
    rc, _, err = _run(tmp_path, text, capsys)
    assert rc == 3 and "seat 3 cannot check: 20 to call" in err


def test_draw_numbers_start_again_at_a_redeal_and_all_in_verb():
    text = (HEAD + "deal Ad\ndealer declares exposed card 1\nfloor confirms\nexpect hand void\n"
            "shoe reloaded\nexpect redeals 1\ndeal 4d\ndeal Jd\ndealer declares exposed card 2\n"
            "expect ruling MISDEAL\n")
    result = run_deal(parse_deal(text.splitlines()))
    assert result.failures == []
    assert result.script.procedure.rulings[-1].draw == 2  # draw 2 of the redeal


def test_all_in_verb_puts_the_whole_stack_in():
    cards = ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s", "4s"]
    text = HEAD + "\n".join(f"deal {c}" for c in cards) + "\nseat 3 all-in\nexpect stacks 3=0\n"
    assert run_deal(parse_deal(text.splitlines())).failures == []


def test_floor_picks_the_burn_of_a_four_card_flop():
    cards = ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s", "4s"]
    text = (HEAD + "\n".join(f"deal {c}" for c in cards)
            + "\nseat 3 calls\nseat 4 calls\nseat 1 calls\nseat 2 checks\n"
              "floor picks burn 9d\ndeal Ts\ndeal 3d\ndeal 9d\ndeal As\ndeal Qs\n"
              "expect ruling FOUR_CARD_FLOP\nexpect board 3d As Qs\nexpect next: betting, board\n")
    assert run_deal(parse_deal(text.splitlines())).failures == []


def test_floor_pick_not_among_the_cards_is_refused():
    cards = ["Ad", "4d", "Jd", "7h", "2h", "Jh", "6s", "4s"]
    text = (HEAD + "\n".join(f"deal {c}" for c in cards)
            + "\nseat 3 calls\nseat 4 calls\nseat 1 calls\nseat 2 checks\n"
              "floor picks burn 2c\ndeal Ts\ndeal 3d\ndeal 9d\ndeal As\ndeal Qs\n")
    with pytest.raises(DealRefusedError, match="line 22"):
        run_deal(parse_deal(text.splitlines()))


def test_parse_errors_are_syntax_errors():
    with pytest.raises(DealSyntaxError, match="line 5"):
        parse_deal((HEAD + "floor dances\n").splitlines())


def _doc_blocks() -> list[str]:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "scenarios.md").read_text()
    import re
    return re.findall(r"```deal\n(.*?)```", doc, re.S)


def test_docs_have_a_worked_example_for_every_row_and_each_passes():
    blocks = _doc_blocks()
    assert len(blocks) >= 22
    for text in blocks:
        assert run_deal(parse_deal(text.splitlines())).failures == [], text
