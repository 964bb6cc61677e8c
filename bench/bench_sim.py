"""Whole simulated tournaments: hands per second through every layer, and the time from an
input event to its applied state and rendered views.

The TV is drawn at 1920x1080 on SDL's dummy driver, as the service draws it, with no
picture written.  Peers measured in the same run:
* the bare hand engine (engine.betting.hand, scripted hands: what a hand costs with no service);
* the same tournament with the events put straight on the loop (no simulated devices).

    .venv/bin/python bench/bench_sim.py [--players 8] [--seed 1] [--short]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from pi_app.sim.simulator import SimOptions, Simulation  # noqa: E402


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def run(label: str, opts: SimOptions, latencies: list[float] | None = None,
        tv: bool = False) -> float:
    sim = Simulation(opts)
    if tv:  # the TV at 1080p and the seat displays, drawn as in the service: no pictures
        from hardware.seat_display import DisplaySettings
        from hardware.tv import TVSettings
        from pi_app.service.devices import DeviceSettings, wire_devices

        screens = DeviceSettings(tv=TVSettings(size=(1920, 1080), fps=0, driver="dummy"),
                                 displays=DisplaySettings(
                                     backend="mock", seats=tuple(range(1, opts.players + 1))))
        devices = wire_devices(screens, sim.loop.put, table_clock=sim.service.clock.now)
        sim.loop.tv, sim.loop.seats = devices.show_screen, devices.show_seats
    if latencies is not None:
        handle = sim.loop.handle

        def timed(event):
            t0 = time.perf_counter()
            out = handle(event)
            latencies.append(time.perf_counter() - t0)
            return out

        sim.loop.handle = timed  # type: ignore[method-assign]
    t0 = time.perf_counter()
    try:
        summary = sim.run()
    finally:
        if tv:
            devices.close()
    dt = time.perf_counter() - t0
    rate = summary["hands_played"] / dt
    print(f"  {label:<44} {summary['hands_played']:4d} hands in {dt:6.2f} s = "
          f"{rate:8.1f} hands/s")
    return rate


def restart_to_ready(tmp: str) -> None:
    """Time from start to a ready loop over a journal of at least 10,000 real events."""
    from engine.events import ClockTick
    from pi_app.service.clock_source import VirtualClock
    from pi_app.service.wiring import build_service

    journal = os.path.join(tmp, "big.db")
    sim = Simulation(SimOptions(preset="gunpowder", players=10, seed=2, until_winner=True,
                                backend="direct", journal=journal))
    sim.run()
    svc = build_service(None, core_factory=None, clock=VirtualClock(0.0), journal_path=journal)
    t = svc.core.last_t
    svc.loop.tick_journal_every = 0.0  # journal every tick: the padding must be records
    while svc.journal.last_seq < 10_000:  # pad with clock ticks up to 10,000 events
        t += 1.0
        svc.loop.handle(ClockTick(t=t))
    events = svc.journal.last_seq
    svc.close()
    for label in ("after a clean stop", "no snapshot: every event"):
        t0 = time.perf_counter()
        svc = build_service(None, clock=VirtualClock(0.0), journal_path=journal,
                            snapshot_every=200)
        dt = time.perf_counter() - t0
        replayed = svc.recovered.replayed if svc.recovered else 0
        svc.close()
        print(f"  restart to ready, {events} events, {label:<24}: {dt * 1000:7.1f} ms "
              f"({replayed} events replayed)")
        if label.startswith("after"):
            import sqlite3

            con = sqlite3.connect(journal)
            con.execute("DELETE FROM snapshots WHERE seq > 0")
            con.commit()
            con.close()


def engine_rate(n: int) -> float:
    warnings.filterwarnings("ignore", category=UserWarning)
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_engine import make_scripts, run_ours  # type: ignore

    scripts = make_scripts(n)
    t0 = time.perf_counter()
    for script in scripts:
        run_ours(script)
    return n / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--short", action="store_true", help="20 hands instead of a tournament")
    ap.add_argument("--tiny", action="store_true", help="3 hands, no restart measurement "
                    "(the test that runs every bench)")
    a = ap.parse_args()
    hands = 3 if a.tiny else 20 if a.short else None
    a.short = a.short or a.tiny
    print(f"simulated gunpowder tournament, {a.players} players, seed {a.seed}"
          + (f" ({hands} hands)" if a.short else " (until a winner)"))
    with tempfile.TemporaryDirectory() as tmp:
        def opts(name, **kw):
            return SimOptions(preset="gunpowder", players=a.players, seed=a.seed, hands=hands,
                              until_winner=not a.short, journal=os.path.join(tmp, name), **kw)

        direct = run("events straight to the loop (journaled)", opts("a.db", backend="direct"))
        devices = run("simulated shoe + mocked keys", opts("b.db"))
        lat: list[float] = []
        screens = run("... + 1080p TV and seat displays (no PNG)", opts("c.db"), lat, tv=True)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if not a.tiny:
                restart_to_ready(tmp)
        except Exception as exc:  # noqa: BLE001
            print(f"  (restart measurement failed: {exc})")
    try:
        eng = engine_rate(10 if a.tiny else 300)
        print(f"  {'bare hand engine (scripted hands)':<44} {eng:8.1f} hands/s")
        print(f"  whole table with screens costs {eng / screens:.0f}x a bare engine hand")
    except Exception as exc:  # noqa: BLE001 - the peer is optional
        print(f"  (bare engine peer unavailable: {exc})")
    print(f"  devices vs direct: {direct / devices:.2f}x slower; screens vs devices: "
          f"{devices / screens:.2f}x slower")
    ms = [x * 1000 for x in lat]
    print(f"event -> journaled (fsync), applied and rendered: p50 {_pct(ms, 50):.2f} ms, "
          f"p99 {_pct(ms, 99):.2f} ms, mean {statistics.mean(ms):.2f} ms over {len(ms)} "
          "events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
