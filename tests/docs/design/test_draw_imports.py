"""docs/design/draw_imports.py draws the rooms; the rooms' arrows only run one way."""

from __future__ import annotations

import importlib.util
import xml.dom.minidom

from tests.data_paths import REPO
from tests.engine.test_import_graph import find_cycle

_spec = importlib.util.spec_from_file_location("draw_imports",
                                               REPO / "docs" / "design" / "draw_imports.py")
assert _spec is not None and _spec.loader is not None
draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draw)


def test_the_script_writes_the_dot_file_and_the_picture(tmp_path, capsys):
    assert draw.main(["--out", str(tmp_path)]) == 0
    dot = (tmp_path / "rooms.dot").read_text()
    assert dot.startswith("digraph rooms {") and '"engine/table" -> "engine/betting";' in dot
    svg = xml.dom.minidom.parse(str(tmp_path / "rooms.svg"))
    labels = {t.firstChild.data for t in svg.getElementsByTagName("text")}
    assert {"engine/betting/", "pi_app/cli/", "hardware/shoe/"} <= labels
    assert len(svg.getElementsByTagName("line")) == dot.count(" -> ")
    assert "rooms.svg" in capsys.readouterr().out


def test_the_rooms_have_no_cycle_and_nothing_imports_the_command_line():
    graph = draw.room_graph()
    assert find_cycle(graph) is None
    assert not [r for r, targets in graph.items() if "pi_app/cli" in targets]
    engine_rooms = [r for r in graph if r.split("/")[0] == "engine"]
    for room in engine_rooms:
        assert all(t.split("/")[0] == "engine" for t in graph[room]), room


def test_rooms_are_packages_or_engine_subpackages():
    assert draw.room_of("engine.betting.hand") == "engine/betting"
    assert draw.room_of("engine.cards") == "engine"
    assert draw.room_of("pi_app.cli.main") == "pi_app/cli"
    assert draw.room_of("pygame") is None
