"""Frame render time of the TV screens at 1920x1080 (p50/p99, milliseconds).

Run: ``.venv/bin/python bench/bench_screens.py [--frames N]``

Cases, each over N frames on SDL's dummy video driver (no window, so this is the CPU cost
of drawing; the driver's flip is not included):

* ``full``:       :func:`pi_app.screens.draw_screen` of the whole frame every time (the peer);
* ``tick``:       :class:`ScreenRenderer` when only the clock moved (a second per frame),
  with the clock views the real table core gives each second (so every field the service
  changes per second is in them); the kinds of redraw it did are printed beside it;
* ``unchanged``:  :class:`ScreenRenderer` when nothing visible changed (sub-second frames);
* ``changed``:    :class:`ScreenRenderer` when the table changed every frame (a bet moved):
  what the service does after a seat's action, the seat's regions redrawn in part
  (:mod:`pi_app.screens.regions`).

Ratios are against ``full`` of the same screen, measured in the same run.

Then the busiest screen (issue 15; :func:`pi_app.screens.samples.busiest_state`): the table
layout on the turn of a three-way all-in with the live odds panel, the ruling banner over
it and the room's panels, drawn whole every frame, p50 and p99 against the peer measured in
the same run: a full-screen fill and flip of a 1920x1080 display (SDL's dummy driver).
Twice: the same state each frame (the parts of the frame come from their caches), and with
a stack and the pot new each frame (a seat's box and two texts drawn anew, as after an
action); then that second case through :class:`ScreenRenderer`, as the service draws it
(the changed regions redrawn in part, the darkening, banner and odds panel over them).
The bar is p99 <= 8 ms on CI's machine size; a miss is reported, not judged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from engine.events import ClockTick  # noqa: E402
from engine.table.core import TableCore, TableSettings  # noqa: E402
from engine.views import ScreenState  # noqa: E402
from pi_app.screens import (  # noqa: E402
    ScreenRenderer,
    draw_screen,
    theme,  # noqa: E402
)
from pi_app.screens.samples import CLOCK, table_side_pots  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def timed(fn, states) -> list[float]:
    """Per-call milliseconds; the text cache starts cold, as it is for each new second."""
    theme.TEXTS.clear()
    theme.GLYPHS.clear()
    out = []
    for st in states:
        t0 = time.perf_counter()
        fn(st)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def core_clocks(n: int) -> list:
    """``n`` clock views of the real core, one a second from the start of the clock."""
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=1))
    core.tournament.start(0.0)
    out = []
    for k in range(n):
        core.apply(ClockTick(t=float(k)))
        out.append(core.screen_state().clock)
    return out


def run(frames: int) -> list[tuple[str, str, float, float, str]]:
    pygame.display.init()
    pygame.font.init()
    surf = pygame.Surface((1920, 1080))
    table = table_side_pots()
    screens = {
        "clock": lambda i, t: ScreenState(clock=replace(CLOCK, remaining_seconds=900 - t,
                                                        seconds_to_break=2700 - t),
                                          layout="clock", now=t),
        "table": lambda i, t: ScreenState(
            table=replace(table, seats=tuple(replace(s, bet=s.bet + (i % 7) * 100 * (k == 1))
                                             for k, s in enumerate(table.seats))),
            clock=replace(CLOCK, remaining_seconds=900 - t), layout="table", now=t),
        "split": lambda i, t: ScreenState(clock=replace(CLOCK, remaining_seconds=900 - t),
                                          table=table, layout="split", now=t),
    }
    clocks = core_clocks(frames)
    rows = []
    for name, make in screens.items():
        full = timed(lambda st: draw_screen(surf, st), [make(i, float(i)) for i in range(frames)])
        rows.append((name, "full", statistics.median(full), pct(full, 99), ""))
        # only the clock moves (one second a frame, as the core gives it); the table stays
        tick_states = [replace(make(0, float(i)), clock=c) for i, c in enumerate(clocks)]
        r = ScreenRenderer()
        r.render(surf, tick_states[0])  # the first frame is a full draw, not timed
        tick = timed(lambda st, r=r: r.render(surf, st), tick_states[1:])
        rows.append((name, "tick", statistics.median(tick), pct(tick, 99), _kinds(r)))
        same = [replace(tick_states[0], now=0.01 * i) for i in range(frames)]
        r = ScreenRenderer()
        r.render(surf, same[0])
        unchanged = timed(lambda st, r=r: r.render(surf, st), same[1:])
        rows.append((name, "unchanged", statistics.median(unchanged), pct(unchanged, 99),
                     _kinds(r)))
        if name == "table":
            r = ScreenRenderer()
            changed = timed(lambda st, r=r: r.render(surf, st),
                            [make(i, 0.0) for i in range(frames)])
            rows.append((name, "changed", statistics.median(changed), pct(changed, 99),
                         _kinds(r)))
    return rows


BUSIEST_P99_MS = 8.0


def _changed(state: ScreenState, i: int) -> ScreenState:
    """``state`` with a new stack for seat 2 and a new main pot: what a hand's action
    changes, so a frame's seat box and texts are new to every cache."""
    table = state.table
    assert table is not None
    seats = tuple(replace(s, stack=s.stack + i) if s.seat == 2 else s for s in table.seats)
    pots = (replace(table.pots[0], amount=table.pots[0].amount + i),) + table.pots[1:]
    return replace(state, table=replace(table, seats=seats, pots=pots), now=float(i))


def busiest(frames: int) -> dict[str, list[float]]:
    """Milliseconds of: ``same``, full redraws of the busiest screen; ``changed``, full
    redraws with a stack and the pot new each frame (:func:`_changed`); ``flip``, the peer,
    a fill and flip of the 1920x1080 display; ``same cpu`` and ``changed cpu``, the
    redraws' CPU time of this thread, which does not count the time the thread waited for
    a core (on a shared machine most of the wall time)."""
    from pi_app.screens.samples import busiest_state

    display = pygame.display.set_mode((1920, 1080))
    state = busiest_state()
    surf = pygame.Surface((1920, 1080))
    draw_screen(surf, state)  # fonts opened and texts cached: a steady night's redraw
    out: dict[str, list[float]] = {k: [] for k in ("same", "changed", "partial", "flip",
                                                   "same cpu", "changed cpu", "partial cpu")}
    renderer, screen = ScreenRenderer(), pygame.Surface((1920, 1080))
    renderer.render(screen, state)
    for i in range(frames):
        for case, st in (("same", replace(state, now=float(i))),
                         ("changed", _changed(state, i + 1))):
            c0 = time.thread_time()
            t0 = time.perf_counter()
            draw_screen(surf, st)
            out[case].append((time.perf_counter() - t0) * 1000)
            out[f"{case} cpu"].append((time.thread_time() - c0) * 1000)
        c0, t0 = time.thread_time(), time.perf_counter()
        renderer.render(screen, _changed(state, i + 1))
        out["partial"].append((time.perf_counter() - t0) * 1000)
        out["partial cpu"].append((time.thread_time() - c0) * 1000)
        t0 = time.perf_counter()
        display.fill((i % 255, 0, 0))
        pygame.display.flip()
        out["flip"].append((time.perf_counter() - t0) * 1000)
    return out


def _kinds(r: ScreenRenderer) -> str:
    """The redraws the renderer really did (the first, untimed frame included)."""
    return " ".join(f"{k} {v}" for k, v in r.stats.items() if v)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=300)
    args = p.parse_args(argv)
    rows = run(args.frames)
    peer = {name: p50 for name, case, p50, _, _ in rows if case == "full"}
    print(f"TV frame render time at 1920x1080, {args.frames} frames per case")
    print(f"{'screen':8} {'case':10} {'p50 ms':>9} {'p99 ms':>9} {'p50 vs full':>12}  redraws")
    for name, case, p50, p99, kinds in rows:
        print(f"{name:8} {case:10} {p50:9.3f} {p99:9.3f} {p50 / peer[name]:11.3f}x  {kinds}")
    b = busiest(args.frames)
    f99 = pct(b["flip"], 99)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nbusiest screen (table layout, three-way all-in on the turn with the live odds "
          f"panel, ruling banner, room panels), full redraw at 1920x1080, {args.frames} "
          f"frames; load average {load:.1f} on {os.cpu_count()} cores (the bar assumes an "
          f"idle machine)")
    print(f"{'case':30} {'p50 ms':>9} {'p99 ms':>9} {'p99 vs fill+flip':>17}")
    print(f"{'fill and flip (peer)':30} {statistics.median(b['flip']):9.3f} {f99:9.3f} "
          f"{1.0:16.2f}x")
    for case, label in (("same", "busiest full redraw"),
                        ("changed", "  a stack and the pot new"),
                        ("partial", "  the same, redrawn in part")):
        d99 = pct(b[case], 99)
        bar = "met" if d99 <= BUSIEST_P99_MS else "MISSED"
        print(f"{label:30} {statistics.median(b[case]):9.3f} {d99:9.3f} "
              f"{d99 / max(f99, 1e-9):16.2f}x   bar p99 <= {BUSIEST_P99_MS:g} ms: {bar}")
        print(f"{'    its CPU time':30} {statistics.median(b[case + ' cpu']):9.3f} "
              f"{pct(b[case + ' cpu'], 99):9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
