"""A night at the table for the TV's memory (issue 14, item 1): RSS growth over hours of clock.

The real table core runs the ``gunpowder`` clock in virtual time, one tick per second; every
tick's screen goes through the real TV adapter (:class:`hardware.tv.TV` with
:class:`pi_app.screens.ScreenRenderer`, 1920x1080, on the ``dummy`` video driver), so every
second is a distinct clock value on screen.  It prints the process's RSS (from
``/proc/self/statm``) after the first minute and at the end, the growth between them (bar:
at most 20 MB over 6 hours = 21,600 values), and the bytes held by the renderer's caches
(:mod:`pi_app.screens.cache`).  Peer in the same run: the same night headless (core and
screen states, no TV), whose growth is the core's own.

Run: ``.venv/bin/python bench/bench_night.py [--seconds 21600] [--layout split|clock]``
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import MB, long_structure, rss  # noqa: E402

from engine.events import ClockTick  # noqa: E402
from engine.table.core import TableCore, TableSettings  # noqa: E402


def night(seconds: int, layout: str, tv_on: bool, structure: Path) -> tuple[int, int, float,
                                                                            dict]:
    """Run ``seconds`` ticks; return (rss after the first minute, rss at the end, wall s,
    renderer stats)."""
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"},
                                       structure=str(structure), layout=layout, seed=1))
    core.tournament.start(0.0)
    tv = None
    if tv_on:
        from hardware.tv import TV
        from pi_app.screens import ScreenRenderer, screen_key
        from pi_app.service.changes import ViewChanges
        renderer = ScreenRenderer()
        changes = ViewChanges(screen_key)  # what the loop hands the TV, as in the service
        tv = TV(draw=renderer, size=(1920, 1080), fps=0)
        tv.open(0.0)
    first = 0
    t0 = time.perf_counter()
    for k in range(1, seconds + 1):
        core.apply(ClockTick(t=float(k)))
        state = core.screen_state()
        if tv is not None and changes.screen(state):
            tv.render(state, float(k))
        if k == 60:
            gc.collect()
            first = rss()
    gc.collect()
    end = rss()
    wall = time.perf_counter() - t0
    stats = {}
    if tv is not None:
        stats = dict(renderer.stats)
        tv.close()
    return first, end, wall, stats


def cache_bytes() -> str:
    from pi_app.screens import theme
    return (f"text {theme.TEXTS.bytes / MB:.1f}/{theme.TEXTS.max_bytes / MB:.0f} MB "
            f"({len(theme.TEXTS)}), glyphs {theme.GLYPHS.bytes / MB:.1f}/"
            f"{theme.GLYPHS.max_bytes / MB:.0f} MB ({len(theme.GLYPHS)}), fonts {len(theme.FONTS)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=21_600, help="distinct clock values "
                    "(one a second; default 6 hours)")
    ap.add_argument("--layout", default="split", choices=("split", "clock"))
    args = ap.parse_args(argv)
    n = max(61, args.seconds)
    with tempfile.TemporaryDirectory() as tmp:
        structure = long_structure(Path(tmp), n / 3600)
        f0, e0, w0, _ = night(n, args.layout, False, structure)
        f1, e1, w1, stats = night(n, args.layout, True, structure)
    grow, peer = (e1 - f1) / MB, (e0 - f0) / MB
    print(f"# bench_night: {n} clock values ({n / 3600:.2f} h), layout {args.layout}, "
          f"1920x1080, driver {os.environ.get('SDL_VIDEODRIVER')}")
    print(f"TV on    RSS after 1 min {f1 / MB:7.1f} MB, at the end {e1 / MB:7.1f} MB, "
          f"growth {grow:+6.1f} MB (bar <= 20 MB)  {n / w1:7.0f} ticks/s  frames {stats}")
    print(f"peer: headless RSS after 1 min {f0 / MB:7.1f} MB, at the end {e0 / MB:7.1f} MB, "
          f"growth {peer:+6.1f} MB  {n / w0:7.0f} ticks/s")
    print(f"renderer caches at the end: {cache_bytes()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
