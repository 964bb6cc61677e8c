"""``pokertable ctl``: exactly one verb for each command of the console's API (issue 10's
"Commands"), the verbs the issue names, and the reads."""

from __future__ import annotations

from pi_app.cli.ctl import READS, VERBS, _result_line
from pi_app.console.routes import COMMAND_PATHS
from tests.pi_app.cli.helpers import run_main


def test_one_verb_for_each_command_of_the_api():
    paths = [path for path, *_ in VERBS.values()]
    assert sorted(paths) == sorted(COMMAND_PATHS)  # each API command once, none more
    named = {"register", "seat-draw", "start", "add-time"}  # the issue's own words
    assert named <= set(VERBS)
    assert {"status", "results", "audit", "pair", "token", "revoke"} == set(READS)
    assert not set(VERBS) & set(READS)


def test_the_help_lists_every_verb_with_what_it_does(capsys):
    rc, out, _err = run_main(["ctl", "--config", "x.toml", "--help"], capsys)
    text = " ".join(out.split())
    assert rc == 0
    for verb, (*_rest, words) in VERBS.items():
        assert f"{verb} {words}" in text, verb


def test_results_write_money_after_the_structures_currency():
    row = {"place": 1, "name": "Ann Lee", "seat": 4, "payout": 1250, "points": 12}
    assert _result_line(row, "\u20ac").split() == ["1", "Ann", "Lee", "seat", "4",
                                                   "\u20ac1,250", "12"]
    out = _result_line({**row, "place": None, "payout": 0, "points": None}, "\u20ac")
    assert out.split() == ["-", "Ann", "Lee", "seat", "4"]
