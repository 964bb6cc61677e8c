"""``pokertable replay``: the header is checked in full, every ``t`` is a number, messages
name the line without Python exception names, expectations are compared (exit 1), and the
lines before a malformed line are still printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.dealing.scenario import ScenarioError, parse_scenario
from tests.data_paths import data
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

DATA = data("dealing")
GOOD = {"seats": {"1": 100, "2": 100}, "button": 1, "small_blind": 1, "big_blind": 2}


def script(tmp_path: Path, header: object, *events: object) -> str:
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(x if isinstance(x, str) else json.dumps(x)
                           for x in (header, *events)) + "\n")
    return str(f)


@pytest.mark.parametrize("change, fragment", [
    ({"seats": {"1": 1000.7, "2": 100}}, "seat 1 stack must be a whole number"),
    ({"seats": {"1": 10**30, "2": 100}}, "seat 1 stack must be a whole number"),
    ({"seats": {"11": 100, "2": 100}}, "seat '11' is not a seat number 1..10"),
    ({"seats": []}, "'seats' must be an object"),
    ({"button": "1"}, "button must be a whole number 1..10"),
    ({"small_blind": 5, "big_blind": 2}, "big_blind 2 is smaller than small_blind 5"),
    ({"small_blind": 0, "big_blind": 0}, "no-blind game"),
    ({"small_blind": 0, "big_blind": 2}, "must both be positive"),
    ({"small_blind": -1}, "small_blind must be a whole number"),
    ({"big_blind": 2.5}, "big_blind must be a whole number"),
    ({"deck": {"seed": "x"}}, "deck seed must be a whole number"),
    ({"knobs": {"no_such_knob": 1}}, "no_such_knob"),
    ({"expect": {"rulingz": []}}, "unknown expect key"),
    ({"colour": "red"}, "unknown header key"),
])
def test_bad_header_names_line_1(tmp_path, capsys, change, fragment) -> None:
    rc, out, err = run_main(["replay", script(tmp_path, {**GOOD, **change})], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "line 1", fragment)
    for name in ("KeyError", "TypeError", "ValueError", "AttributeError"):
        assert name not in line


def test_huge_float_stack_1e400(tmp_path, capsys) -> None:
    text = json.dumps(GOOD).replace('"1": 100', '"1": 1e400')
    rc, _, err = run_main(["replay", script(tmp_path, text)], capsys)
    assert rc == 2
    assert_one_error_line(err, "line 1", "seat 1 stack", "too large")


def test_missing_seats_says_so(tmp_path, capsys) -> None:
    path = script(tmp_path, {"button": 1})
    rc, _, err = run_main(["replay", path], capsys)
    assert rc == 2
    line = assert_one_error_line(err)
    assert line == f"pokertable: error: {path}: line 1: header is missing 'seats'"


def test_no_blind_game_with_min_bet_is_accepted() -> None:
    sc = parse_scenario([json.dumps({**GOOD, "small_blind": 0, "big_blind": 0,
                                     "min_bet": 2})])
    assert sc.procedure.hand is not None


@pytest.mark.parametrize("event, fragment", [
    ({"type": "card_drawn", "t": "soon", "card": "As"}, "'t' must be a number"),
    ({"type": "card_drawn", "t": None, "card": "As"}, "'t' must be a number"),
    ({"type": "card_drawn", "card": "As"}, "missing 't'"),
    ({"type": "card_drawn", "t": 1, "card": "As", "deck": 5}, "deck 5 is not one of"),
    ({"type": "card_drawn", "t": 1, "card": "As", "draw": "x"}, "'draw' must be"),
    ({"type": "card_drawn", "t": 1, "card": "As", "expect": []}, "'expect' must be"),
])
def test_bad_event_line_names_its_line(tmp_path, capsys, event, fragment) -> None:
    rc, _, err = run_main(["replay", script(tmp_path, GOOD, event)], capsys)
    assert rc == 2
    line = assert_one_error_line(err, "line 2", fragment)
    assert "Error:" not in line


def test_bad_header_is_rejected_before_running() -> None:
    with pytest.raises(ScenarioError, match="line 1"):
        parse_scenario([json.dumps({**GOOD, "big_blind": 0.5}),
                        json.dumps({"type": "card_drawn", "t": 1, "card": "As"})])


def _clean_lines() -> list[str]:
    return (DATA / "b01_premature_flop.jsonl").read_text().splitlines()


def test_lines_before_a_malformed_line_are_printed(tmp_path, capsys) -> None:
    lines = _clean_lines()
    good_rc, good_out, _ = run_main(["replay", str(DATA / "b01_premature_flop.jsonl")], capsys)
    assert good_rc == 0
    good = [json.loads(x) for x in good_out.splitlines()]
    cut = good[0]["line"]  # stop right after the first line that printed something
    assert any(x.get("line", 10**9) > cut for x in good)
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(lines[:cut] + ['{"type": "card_drawn", "t": "soon", "card": "As"}'])
                 + "\n")
    rc, out, err = run_main(["replay", str(f)], capsys)
    assert rc == 2
    assert_one_error_line(err, f"line {cut + 1}", "'t' must be a number")
    printed = [json.loads(x) for x in out.splitlines()]
    expected = [x for x in good if x.get("line", 10**9) <= cut]
    assert printed and printed == expected


def test_header_expectation_holds_exit_0(capsys) -> None:
    rc, out, err = run_main(["replay", str(DATA / "b01_premature_flop.jsonl")], capsys)
    assert rc == 0 and err == ""
    assert json.loads(out.splitlines()[-1])["event"] == "final"


def test_header_expectation_fails_exit_1(tmp_path, capsys) -> None:
    lines = _clean_lines()
    header = json.loads(lines[0])
    header["expect"]["rulings"] = ["MISDEAL"]
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    rc, out, err = run_main(["replay", str(f)], capsys)
    assert rc == 1
    assert json.loads(out.splitlines()[-1])["event"] == "final"  # output still complete
    assert len(err.splitlines()) == 1
    assert "rulings: expected ['MISDEAL']" in err and "PREMATURE_BURN" in err


def test_event_line_expectation(tmp_path, capsys) -> None:
    lines = _clean_lines()
    header = json.loads(lines[0])
    del header["expect"]
    first = json.loads(lines[1])
    f = tmp_path / "s.jsonl"
    for rulings, want_rc in (([], 0), (["PREMATURE_BURN"], 1)):
        ev = {**first, "expect": {"rulings": rulings}}
        f.write_text("\n".join([json.dumps(header), json.dumps(ev), *lines[2:]]) + "\n")
        rc, _, err = run_main(["replay", str(f)], capsys)
        assert rc == want_rc, err
        if want_rc:
            assert "line 2: rulings: expected ['PREMATURE_BURN'], got []" in err


DEAL_HEAD = ["name: t", "seats: 1=1000 2=1000 3=1000", "button: 3", "blinds: 10/20",
             "profile: tda2024", "deck: seed 1"]  # lines 1..6; the first event is line 7


@pytest.mark.parametrize("line_no, text, fragment", [
    (4, "blinds: 0/0", "no blinds"),
    (5, "profile: nosuch", "unknown house profile 'nosuch'"),
    (4, "blinds: 20/10", "big blind 10 is smaller"),
])
def test_deal_header_error_names_the_line_that_holds_the_bad_value(tmp_path, capsys, line_no,
                                                                     text, fragment):
    lines = list(DEAL_HEAD)
    lines[line_no - 1] = text
    f = tmp_path / "s.deal"
    f.write_text("\n".join([*lines, "deal Ad"]) + "\n", encoding="utf-8")
    rc, out, err = run_main(["replay", str(f)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, f"{f}: line {line_no}: bad header" if "smaller" not in fragment
                          else f"{f}: line {line_no}: blinds:", fragment)


def test_deal_refused_line_is_an_error_line_naming_the_file(tmp_path, capsys):
    f = tmp_path / "s.deal"
    f.write_text("\n".join([*DEAL_HEAD, "seat 1 calls"]) + "\n", encoding="utf-8")
    rc, _, err = run_main(["replay", str(f)], capsys)
    assert rc == 3
    assert_one_error_line(err, f"{f}: line 7:")


def test_garbage_names_the_file_and_the_line(tmp_path, capsys):
    f = tmp_path / "g.jsonl"
    f.write_text("garbage\n", encoding="utf-8")
    rc, out, err = run_main(["replay", str(f)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, f"{f}: line 1: not JSON")


def test_a_failed_expectation_keeps_its_own_words(tmp_path, capsys):
    f = tmp_path / "s.deal"
    f.write_text("\n".join([*DEAL_HEAD, "deal Ad", "expect ruling MISDEAL"]) + "\n",
                 encoding="utf-8")
    rc, _, err = run_main(["replay", str(f)], capsys)
    assert rc == 1
    assert err.startswith("pokertable: replay: expectation failed: line 8")
