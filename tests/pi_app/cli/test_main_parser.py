"""Argument mistakes: one line ``pokertable: error: ... (see 'pokertable <cmd> --help')``,
exit 2; ``--help`` unchanged (exit 0)."""

from __future__ import annotations

import pytest

from pi_app.cli.main import COMMAND_MODULES
from tests.pi_app.cli.helpers import assert_one_error_line, listing, run_cli, run_main


@pytest.mark.parametrize("argv, fragments", [
    (["sim", "--players", "six"], ["--players", "'six'", "(see 'pokertable sim --help')"]),
    (["sim", "--hands", "3", "--until-winner"],
     ["--until-winner", "not allowed with", "(see 'pokertable sim --help')"]),
    (["bogus"], ["invalid choice: 'bogus'", "(see 'pokertable --help')"]),
    (["state"], ["--journal", "(see 'pokertable state --help')"]),
    (["census", "--cards", "4"], ["--cards", "(see 'pokertable census --help')"]),
    (["phh", "replay"], ["FILE", "(see 'pokertable phh replay --help')"]),
    (["structure", "show"], ["NAME_OR_FILE", "(see 'pokertable structure show --help')"]),
    (["shoe", "soak", "--cards", "many"], ["--cards", "(see 'pokertable shoe soak --help')"]),
    (["replay", "a.jsonl", "extra"], ["unrecognized arguments: extra"]),
])
def test_argument_mistake_is_one_line_exit_2(argv, fragments, capsys) -> None:
    rc, out, err = run_main(argv, capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, *fragments)
    assert "usage:" not in err


def test_no_command_names_the_commands(capsys) -> None:
    rc, out, err = run_main([], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "(see 'pokertable --help')")
    for name in COMMAND_MODULES:
        assert name in line


@pytest.mark.parametrize("argv, actions", [
    (["structure"], ["show", "check"]),
    (["phh"], ["replay"]),
    (["shoe"], ["soak"]),
])
def test_group_without_action_names_the_actions(argv, actions, capsys) -> None:
    rc, out, err = run_main(argv, capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, f"(see 'pokertable {argv[0]} --help')")
    for a in actions:
        assert a in line


@pytest.mark.parametrize("argv", [["--help"], ["sim", "--help"], ["structure", "show", "-h"]])
def test_help_still_prints_full_help_exit_0(argv, capsys) -> None:
    rc, out, err = run_main(argv, capsys)
    assert rc == 0 and err == ""
    assert out.startswith("usage: pokertable") and len(out.splitlines()) > 3


def test_subprocess_mistake_leaves_nothing_behind(tmp_path) -> None:
    before = listing(tmp_path)
    proc = run_cli(["sim", "--players", "six", "--journal", "j.db"], cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert_one_error_line(proc.stderr, "--players")
    assert listing(tmp_path) == before
