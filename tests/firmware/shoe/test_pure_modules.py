"""The firmware's pure modules stay host-testable and MicroPython-compatible."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.data_paths import REPO

SHOE = REPO / "firmware" / "shoe"
PURE = sorted(p for p in SHOE.glob("*.py") if p.name != "main.py")
# modules CPython has but MicroPython (rp2 port) does not, or that we must not touch
FORBIDDEN = {"machine", "dataclasses", "typing", "__future__", "enum", "abc", "threading",
             "serial", "engine", "hardware", "pi_app"}


@pytest.mark.parametrize("path", PURE, ids=lambda p: p.name)
def test_pure_module_imports_only_what_micropython_has(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]] if node.level == 0 else []
        else:
            continue
        assert not set(names) & FORBIDDEN, f"{path.name} imports {names}"


@pytest.mark.parametrize("path", PURE + [SHOE / "main.py"], ids=lambda p: p.name)
def test_no_syntax_micropython_lacks(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.AnnAssign, ast.Match, ast.NamedExpr)), \
            f"{path.name}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, ast.JoinedStr), \
            f"{path.name}:{node.lineno}: f-string (use % formatting)"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), \
                f"{path.name}:{node.lineno}: annotations"


def test_pure_modules_import_without_machine():
    code = ("import sys\n"
            "import firmware.shoe.device, firmware.shoe.framing, firmware.shoe.mfrc522, "
            "firmware.shoe.presence, firmware.shoe.ring, firmware.shoe.uid, "
            "firmware.shoe.debounce\n"
            "assert 'machine' not in sys.modules\n"
            "print('ok')\n")
    root = SHOE.parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
