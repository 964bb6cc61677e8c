"""Every input file (config, structure, scenario/replay script, PHH, a symlink to one) goes
through one reader (engine.input_file): only regular files under a size limit, TOML/JSON
nesting bounded before a parser recurses, never blocking on a named pipe.  One line, exit
2, no traceback.  (Issue: /dev/zero read until MemoryError; TOML nested 500 deep in 1 kB
gave a RecursionError; a named pipe hung every command.)"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from engine.input_file import MAX_BYTES, InputFileError, nesting_depth, read_text
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

#: each command that reads a file, with the file name it wants (suffix) and its argv
COMMANDS = {
    "config check": (".toml", lambda f: ["config", "check", f]),
    "run --config": (".toml", lambda f: ["run", "--config", f, "--headless"]),
    "structure check": (".toml", lambda f: ["structure", "check", f]),
    "structure show": (".toml", lambda f: ["structure", "show", f]),
    "sim --preset": (".toml", lambda f: ["sim", "--preset", f, "--hands", "1", "--direct"]),
    "replay": (".jsonl", lambda f: ["replay", f]),
    "phh replay": (".phh", lambda f: ["phh", "replay", f]),
    "sim --phh": (".phh", lambda f: ["sim", "--phh", f]),
}

DEEP_ARRAY = "a = " + "[" * 500 + "]" * 500 + "\n"
DEEP_TABLE = "a = " + "{b = " * 500 + "1" + "}" * 500 + "\n"
DEEP_KEYS = ".".join(["k"] * 500) + " = 1\n"


def make_input(tmp_path: Path, kind: str, suffix: str) -> str:
    f = tmp_path / f"input{suffix}"
    if kind == "dev_zero":
        f.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(f)
    elif kind == "too_big":
        with open(f, "wb") as fh:
            fh.truncate(MAX_BYTES + 1)
    elif kind == "directory":
        f.mkdir()
    elif kind == "deep_array":
        f.write_text(DEEP_ARRAY if suffix != ".jsonl" else "[" * 500 + "]" * 500 + "\n")
    elif kind == "deep_table":
        f.write_text(DEEP_TABLE if suffix != ".jsonl" else '{"a":' * 500 + "1" + "}" * 500)
    elif kind == "deep_keys":
        f.write_text(DEEP_KEYS if suffix != ".jsonl" else '{"a":' * 40 + "1" + "}" * 40)
    return str(f)


KINDS = ["dev_zero", "fifo", "too_big", "directory", "deep_array", "deep_table", "deep_keys"]


class _Hung(Exception):
    pass


def _alarm(*_):
    raise _Hung("the command blocked")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_hostile_input_file_is_one_line_exit_2(tmp_path: Path, capsys, command: str,
                                                 kind: str) -> None:
    suffix, argv = COMMANDS[command]
    path = make_input(tmp_path, kind, suffix)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(30)
    try:
        rc, out, err = run_main(argv(path), capsys)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert rc == 2, (command, kind, out[-500:], err[-1500:])
    if command == "replay" and kind.startswith("deep"):
        assert_one_error_line(err, "line 1: ")  # a script is checked line by line
    else:
        assert_one_error_line(err, path)


@pytest.mark.parametrize("kind, fragment", [
    ("dev_zero", "is a character device, not a regular file"),
    ("fifo", "is a named pipe, not a regular file"),
    ("too_big", "larger than the limit"),
    ("directory", "is a directory"),
])
def test_the_reader_says_what_is_wrong(tmp_path: Path, kind: str, fragment: str) -> None:
    path = make_input(tmp_path, kind, ".toml")
    with pytest.raises(InputFileError, match=fragment) as info:
        read_text(path)
    assert isinstance(info.value, ValueError) and path in str(info.value)


def test_nesting_is_counted_outside_strings_and_comments() -> None:
    assert nesting_depth('a = "[[[[[["  # [[[[[[\nb = [[1], {c = 2}]\n') == 2
    assert nesting_depth("s = '''\n[[[[\n'''\nt = [1]") == 1
    assert nesting_depth('{"a": [[["x]]]]]"]]]}') == 4


@pytest.mark.parametrize("kind", ["folder", "named pipe"])
def test_a_structure_that_is_not_a_regular_file_is_called_so(tmp_path: Path, capsys,
                                                               kind: str) -> None:
    where = tmp_path / "gunpowder.toml"
    if kind == "folder":
        where.mkdir()
    else:
        os.mkfifo(where, 0o600)
    config = tmp_path / "table.toml"
    config.write_text(f'[tournament]\nstructure = "{where}"\n')
    rc, out, err = run_main(["config", "check", str(config)], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "not a regular file", str(where))
    assert "no such" not in line


def test_screenshots_on_something_not_a_folder_is_called_so(tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    rc, out, err = run_main(["run", "--headless", "--screenshots", "/dev/zero"], capsys)
    assert rc == 2
    assert_one_error_line(err, "/dev/zero: --screenshots must be a folder")
    assert not (tmp_path / "state").exists()
