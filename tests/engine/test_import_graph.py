"""The engine's import graph: no cycles, and nothing from the device or service rooms.

Every import counts: at the top of a module, inside a function, and under
``TYPE_CHECKING``.  The graph is read with ``ast`` from the source, not from what Python
happens to have imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.data_paths import REPO

ENGINE = REPO / "engine"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(path: Path, module: str) -> set[str]:
    """Every dotted name ``path`` imports (``from a import b`` gives ``a`` and ``a.b``)."""
    names: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def engine_graph() -> dict[str, set[str]]:
    """module -> the engine modules it imports (every import, anywhere in the file)."""
    files = {_module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = set()
        for name in _imported_names(path, module):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_engine_imports_have_no_cycle():
    graph = engine_graph()
    assert len(graph) > 30 and "engine.betting.hand" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_engine_imports_nothing_from_the_devices_or_the_service():
    for path in sorted(ENGINE.rglob("*.py")):
        module = _module_name(path)
        outside = sorted(n for n in _imported_names(path, module)
                         if n.split(".")[0] in ("hardware", "pi_app"))
        assert not outside, f"{module} imports {outside}"


@pytest.mark.parametrize("source, expected", [
    ("import engine.cards\n", ["engine.cards"]),
    ("def f():\n    from engine.betting import hand\n", ["engine.betting", "engine.betting.hand"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .pots import Pot\n",
     ["engine.betting.pots", "engine.betting.pots.Pot", "typing", "typing.TYPE_CHECKING"]),
])
def test_every_kind_of_import_is_counted(tmp_path, source, expected):
    f = tmp_path / "mod.py"
    f.write_text(source)
    assert sorted(_imported_names(f, "engine.betting.mod")) == expected


def test_a_cycle_is_found_and_named():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
