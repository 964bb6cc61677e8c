"""``pokertable equity`` (issue 15): one JSON line of fractions, bad input one line and exit 2."""

from __future__ import annotations

import json

import pytest

from engine.betting.equity import all_in_odds
from engine.cards import parse_cards
from tests.engine.betting.board_enumeration import enumerate_phevaluator
from tests.pi_app.cli.helpers import assert_one_error_line, run_main


def test_json_line_gives_win_and_tie_per_hand_in_the_order_given(capsys):
    rc, out, err = run_main(["equity", "QsQd", "AhKh", "--board", "2c7d9h", "--json"], capsys)
    assert rc == 0 and err == ""
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert set(data) == {"hands", "win", "tie"} and data["hands"] == ["QsQd", "AhKh"]
    odds = all_in_odds([parse_cards("QsQd"), parse_cards("AhKh")], parse_cards("2c7d9h"))
    assert data["win"] == [float(w) for w in odds.main.win]
    assert data["tie"] == [float(t) for t in odds.main.tie]
    assert data["win"][0] == 710 / 990  # not rounded: QQ wins 710 of the 990 runouts


def test_heads_up_preflop_json_is_the_tables_and_equals_the_enumeration(capsys, monkeypatch):
    import engine.betting.equity as equity

    def no_board_evaluated(*_args: int) -> int:
        raise AssertionError("heads-up preflop evaluated boards instead of the table")

    monkeypatch.setattr(equity, "evaluate_7_ids", no_board_evaluated)
    rc, out, err = run_main(["equity", "AhKh", "QsQd", "--json"], capsys)
    assert rc == 0 and err == ""
    w0, w1, ties = enumerate_phevaluator(parse_cards("AhKh"), parse_cards("QsQd"))
    assert json.loads(out) == {"hands": ["AhKh", "QsQd"],
                               "win": [w0 / 1_712_304, w1 / 1_712_304],
                               "tie": [ties / 1_712_304, ties / 1_712_304]}
    rc, out, _ = run_main(["equity", "AhKh", "QsQd"], capsys)
    assert rc == 0 and out.splitlines()[-1] == "(exact over 1,712,304 runouts)"


def test_preflop_json_is_repeatable_and_sums_to_one(capsys):
    argv = ["equity", "AhKh", "QsQd", "7c7d", "--samples", "2000", "--json"]
    first = json.loads(run_main(argv, capsys)[1])
    assert first == json.loads(run_main(argv, capsys)[1])
    ties = first["tie"]
    assert all(0 <= x <= 1 for x in first["win"] + ties)
    assert abs(sum(first["win"]) + max(ties) - 1) < 0.02  # ties are rare here


def test_text_output_names_the_method(capsys):
    rc, out, _ = run_main(["equity", "AhKh", "QsQd", "--board", "2c7d9h4s"], capsys)
    assert rc == 0
    assert out.splitlines()[0].startswith("AhKh  win ") and "exact over 44 runouts" in out


@pytest.mark.parametrize("argv,words", [
    (["AhKh"], "at least two hands"),
    (["AhKh", "QsQd", "--board", "2c"], "got 1"),
    (["AhKh", "QsQd", "--board", "2c7d"], "got 2"),
    (["AhKh", "QsQd", "--board", "2c7d9h4s5s6s"], "got 6"),
    (["AhKh", "AhQd"], "Ah is given twice"),
    (["AhKh", "QsQd", "--board", "Ah7d9h"], "Ah is given twice"),
    (["AhKx", "QsQd"], "bad card"),
    (["AhKhQc", "QsQd"], "hand 1 has 3 cards"),
    (["AhK", "QsQd"], "odd number"),
    (["AhKh", "QsQd", "--samples", "0"], "samples must be 1 to 10,000,000"),
    (["AhKh", "QsQd", "--samples", "10000001"], "got 10000001"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    rc, out, err = run_main(["equity", *argv, "--json"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, words)
