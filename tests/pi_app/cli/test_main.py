"""cli.main turns user-caused OS, decoding and SQLite errors into one line (exit 2), and
Ctrl-C at any moment into a quiet exit 130."""

from __future__ import annotations

import errno
import importlib
import sqlite3

import pytest

import pi_app.cli.census as census_cmd
from pi_app.cli import main as cli
from tests.pi_app.cli.helpers import assert_one_error_line, run_main


def _raise(exc: BaseException):
    def f(*a, **k):
        raise exc
    return f


@pytest.mark.parametrize("exc, expected", [
    (IsADirectoryError(errno.EISDIR, "Is a directory", "/tmp"), "/tmp: is a directory"),
    (PermissionError(errno.EACCES, "Permission denied", "/root/x"), "/root/x: permission denied"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory", "/nope"),
     "/nope: no such file or directory"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "/etc/passwd/x"),
     "/etc/passwd/x: not a directory"),
    (OSError(errno.ENAMETOOLONG, "File name too long", "a" * 10), "aaaaaaaaaa: file name too long"),
    (FileNotFoundError("/j.db: no journal"), "/j.db: no journal"),
])
def test_os_error_is_one_line(monkeypatch, capsys, exc, expected) -> None:
    monkeypatch.setattr(census_cmd, "census", _raise(exc))
    rc, out, err = run_main(["census"], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, expected)
    assert "Errno" not in line and "Error" not in line.removeprefix("pokertable: error: ")


def test_os_error_without_a_file_is_not_hidden(monkeypatch, capsys) -> None:
    monkeypatch.setattr(census_cmd, "census", _raise(OSError(errno.EIO, "I/O error")))
    with pytest.raises(OSError):
        cli.main(["census"])


def test_unicode_decode_error_is_one_line(monkeypatch, capsys) -> None:
    exc = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    monkeypatch.setattr(census_cmd, "census", _raise(exc))
    rc, _, err = run_main(["census"], capsys)
    assert rc == 2
    assert_one_error_line(err, "not valid utf-8 text", "invalid start byte")


@pytest.mark.parametrize("msg", ["file is not a database", "database disk image is malformed"])
def test_sqlite_database_error_is_one_line(monkeypatch, capsys, msg) -> None:
    monkeypatch.setattr(census_cmd, "census", _raise(sqlite3.DatabaseError(msg)))
    rc, _, err = run_main(["census"], capsys)
    assert rc == 2
    assert_one_error_line(err, msg)


def test_ctrl_c_in_a_command_exits_130_quietly(monkeypatch, capsys) -> None:
    monkeypatch.setattr(census_cmd, "census", _raise(KeyboardInterrupt()))
    rc, out, err = run_main(["census"], capsys)
    assert (rc, out, err) == (130, "", "")


def test_ctrl_c_during_the_command_imports_exits_130_quietly(monkeypatch, capsys) -> None:
    real = importlib.import_module

    def interrupted(name, *a, **k):
        if name.startswith("pi_app.cli."):
            raise KeyboardInterrupt
        return real(name, *a, **k)

    monkeypatch.setattr(cli.importlib, "import_module", interrupted)
    rc, out, err = run_main(["census"], capsys)
    assert (rc, out, err) == (130, "", "")


def test_ctrl_c_while_parsing_exits_130(monkeypatch, capsys) -> None:
    monkeypatch.setattr(cli.CliParser, "parse_args", _raise(KeyboardInterrupt()))
    rc, out, err = run_main(["census"], capsys)
    assert (rc, out, err) == (130, "", "")


def test_broken_pipe_exits_0(monkeypatch, capsys) -> None:
    monkeypatch.setattr(census_cmd, "census", _raise(BrokenPipeError(errno.EPIPE, "pipe")))
    monkeypatch.setattr(cli.os, "dup2", lambda *a: None)  # keep pytest's stdout
    rc, _, err = run_main(["census"], capsys)
    assert rc == 0 and err == ""
