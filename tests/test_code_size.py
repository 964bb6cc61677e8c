"""The house rule on size: no module of engine/, hardware/ or pi_app/ over 600 lines, no
function over 60 (its ``def`` line to its last line, docstring included).  Read with
``ast`` from the source."""

from __future__ import annotations

import ast

from tests.data_paths import REPO

ROOMS = ("engine", "hardware", "pi_app")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def _sources():
    for room in ROOMS:
        yield from sorted((REPO / room).rglob("*.py"))


def test_the_rooms_hold_python_sources():
    assert sum(1 for _ in _sources()) > 100


def test_no_module_is_over_600_lines():
    long = {str(p.relative_to(REPO)): n for p in _sources()
            if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_MODULE_LINES}
    assert long == {}, f"split these by concept: {long}"


def test_no_function_is_over_60_lines():
    long = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({lines})")
    assert long == [], "split these: " + "; ".join(long)
