"""Helpers for the CLI error-handling tests: run ``pokertable`` in-process or as a
subprocess and check the one-line error contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pi_app.cli.main import main
from tests.pi_app.service.helpers import REPO, env_with


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(argv)`` in-process; an argparse exit counts as its status."""
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 1
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def run_cli(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m pi_app.cli.main argv`` in ``cwd`` (the project on PYTHONPATH)."""
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", *argv], check=False, cwd=cwd,
                          env=env_with(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **env),
                          capture_output=True, text=True, timeout=120)


def assert_one_error_line(err: str, *fragments: str) -> str:
    """stderr is exactly one ``pokertable: error: ...`` line holding every fragment."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pokertable: error: "), err
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def listing(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*")}


__all__ = ["REPO", "assert_one_error_line", "listing", "run_cli", "run_main"]
