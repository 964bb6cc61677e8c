"""Draw the rooms (packages) of pokertable and which may import which.

    python docs/design/draw_imports.py            # writes docs/design/rooms.dot and rooms.svg

Reads every ``import`` of every module under engine/, hardware/, pi_app/ and firmware/ with
:mod:`ast` (imports inside functions and under ``TYPE_CHECKING`` count too), groups the
modules into rooms (a package, or an engine subpackage such as ``engine/betting``) and draws
one arrow per room that imports another.  The .dot file is for graphviz (``dot -Tpng``); the
.svg is drawn here, in plain Python, so the picture needs nothing beyond the project.
"""

from __future__ import annotations

import argparse
import ast
import html
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOP = ("engine", "hardware", "pi_app", "firmware")
#: Rooms that are one folder deeper than their top package.
SUBROOMS = {"engine": ("betting", "dealing", "tournament", "history", "table"),
            "hardware": ("shoe",),
            "pi_app": ("service", "console", "cli", "sim", "screens", "venue"),
            "firmware": ("shoe",)}
COLORS = {"engine": "#dbeafe", "hardware": "#dcfce7", "pi_app": "#fef3c7", "firmware": "#fce7f3"}


def room_of(module: str) -> str | None:
    """``engine.betting.hand`` -> ``engine/betting``; ``engine.cards`` -> ``engine``."""
    parts = module.split(".")
    if parts[0] not in TOP:
        return None
    if len(parts) > 1 and parts[1] in SUBROOMS[parts[0]]:
        return f"{parts[0]}/{parts[1]}"
    return parts[0]


def _imports(path: Path, module: str) -> Iterable[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            yield base


def room_graph(root: Path = REPO) -> dict[str, set[str]]:
    """room -> the other rooms it imports (rooms that import and are imported by nothing,
    such as a package's bare ``__init__``, are left out)."""
    graph: dict[str, set[str]] = {}
    for top in TOP:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            src = room_of(module)
            if src is None:
                continue
            targets = graph.setdefault(src, set())
            for name in _imports(path, module):
                dst = room_of(name)
                if dst is not None and dst != src:
                    targets.add(dst)
    used = set().union(*graph.values())
    return {room: targets for room, targets in graph.items() if targets or room in used}


def to_dot(graph: dict[str, set[str]]) -> str:
    """The graph in graphviz's dot language, rooms clustered by top package."""
    lines = ["digraph rooms {", '  rankdir=TB; node [shape=box, style="rounded,filled"];']
    for top in TOP:
        rooms = sorted(r for r in graph if r.split("/")[0] == top)
        lines.append(f'  subgraph "cluster_{top}" {{ label="{top}/";')
        lines += [f'    "{r}" [fillcolor="{COLORS[top]}"];' for r in rooms]
        lines.append("  }")
    for src in sorted(graph):
        lines += [f'  "{src}" -> "{dst}";' for dst in sorted(graph[src])]
    lines.append("}")
    return "\n".join(lines) + "\n"


def layers(graph: dict[str, set[str]]) -> list[list[str]]:
    """Rooms in rows: a room sits below every room it is imported by (longest path from
    the top); rooms on a cycle share the row of the first one reached."""
    depth: dict[str, int] = {}

    def visit(room: str, seen: frozenset[str]) -> int:
        if room in depth:
            return depth[room]
        below = [visit(d, seen | {room}) for d in graph.get(room, ()) if d not in seen]
        depth[room] = 1 + max(below, default=-1)
        return depth[room]

    for room in sorted(graph):
        visit(room, frozenset())
    top = max(depth.values(), default=0)
    rows: list[list[str]] = [[] for _ in range(top + 1)]
    for room, d in depth.items():
        rows[top - d].append(room)
    return [sorted(r, key=lambda x: (TOP.index(x.split("/")[0]), x)) for r in rows]


def to_svg(graph: dict[str, set[str]]) -> str:
    """A layered drawing: importers above what they import, one arrow per import."""
    w, h, gap_x, gap_y = 150, 34, 30, 70
    rows = layers(graph)
    width = max(len(r) for r in rows) * (w + gap_x) + gap_x
    pos: dict[str, tuple[float, float]] = {}
    for y, row in enumerate(rows):
        left = (width - len(row) * (w + gap_x) + gap_x) / 2
        for x, room in enumerate(row):
            pos[room] = (left + x * (w + gap_x), 20 + y * (h + gap_y))
    height = 40 + len(rows) * (h + gap_y)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
           f'font-family="sans-serif" font-size="13">',
           '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/>'
           '</marker></defs>']
    for src in sorted(graph):
        for dst in sorted(graph[src]):
            (x1, y1), (x2, y2) = pos[src], pos[dst]
            down = y2 > y1
            out.append(f'<line x1="{x1 + w / 2:.0f}" y1="{y1 + (h if down else 0):.0f}" '
                       f'x2="{x2 + w / 2:.0f}" y2="{y2 + (0 if down else h):.0f}" '
                       'stroke="#888" marker-end="url(#a)"/>')
    for room, (x, y) in sorted(pos.items()):
        fill = COLORS[room.split("/")[0]]
        out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{w}" height="{h}" rx="8" '
                   f'fill="{fill}" stroke="#333"/>')
        out.append(f'<text x="{x + w / 2:.0f}" y="{y + h / 2 + 5:.0f}" '
                   f'text-anchor="middle">{html.escape(room)}/</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "design",
                    help="folder for rooms.dot and rooms.svg (default: docs/design)")
    args = ap.parse_args(argv)
    graph = room_graph()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "rooms.dot").write_text(to_dot(graph), encoding="utf-8")
    (args.out / "rooms.svg").write_text(to_svg(graph), encoding="utf-8")
    print(f"wrote {args.out / 'rooms.dot'} and {args.out / 'rooms.svg'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
