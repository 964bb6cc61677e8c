"""Service figures over the real service loop: the real table core, the real journal (WAL,
synchronous=FULL: one fsync per record) and the real TV renderer at 1920x1080 on SDL's
``dummy`` driver.  The events are real play: what the simulated table does next
(:func:`pi_app.sim.policy.next_step`), over a long structure with no break, so a journal of
N events holds N real events and no clock tick.  Each figure has its peer from the same run.

* append: one journal record written and committed, with its high-water mark fsynced at
  once (two fsyncs), and as the loop appends (the record committed: one fsync; the mark's
  fsync when the loop is idle, timed apart), p50/p99; peer: ``os.write`` + ``os.fsync``
  of the same bytes to a plain file.
* replay: :func:`pi_app.service.recovery.recover` of the whole journal from its genesis
  (the real journal read, then every event through a fresh real core; wall and CPU
  seconds for N real events, min/median/max of ``--runs``; bar 0.5 s for 10,000); peer:
  the same journal read alone (:meth:`pi_app.service.journal.Journal.scan`: the records
  read, checksummed and decoded).  ``--profile N`` adds a cProfile of one replay.
  Before it the bench's heap is frozen as a table process freezes it before its
  recovery (:func:`pi_app.service.heap.freeze_startup_heap`, after the imports and the
  journal's build; ``--no-freeze`` leaves it, for an A/B), and the output says which.
* whole-chain check: :func:`pi_app.service.journal_chain.first_break` over every record
  (the check made at open of the records before the newest snapshot, at its largest);
  peer: the journal read (:meth:`pi_app.service.journal.Journal.scan`).
* restart to ready: :func:`pi_app.service.wiring.build_service` on that journal (no
  snapshot after its genesis: every event is replayed, once; the hand histories the run
  wrote are read back and left as they are).
* card drawn through ``TableCore.apply``: p50/p99 over the journal's cards, applied
  straight to a core; peer: the same card on the same state through the bare dealing
  engine (:class:`engine.dealing.procedure.DealingProcedure`, what bench_dealing times),
  p50/p99 (bar: card p99 at most 3x the engine's), min/median/max of ``--runs``; for
  scale, one betting action on a bare ``engine.betting.hand.Hand``.
* event to journaled, applied and rendered: ``loop.handle(event)`` with the TV drawn at
  1080p (the real renderer: only what changed is redrawn; a multiway preflop all-in's
  odds worked out by the service's worker thread in a child process,
  :mod:`pi_app.service.odds_worker` and :mod:`pi_app.service.odds_process`, and handed
  back after the event, timed with the idle work; the heap frozen first, as a table
  process freezes it, unless ``--no-freeze``), p50/p99/max (bar p99 5 ms), the
  frames it drew (full or partial) and each stage's share per event type (the journal's
  append, the core's apply, the TV's render), in wall time and in the loop thread's CPU
  time (the code's own cost, without the disk's waits or the other processes of a shared
  machine); after each event the loop's idle work (the mark's fsync, the WAL's checkpoint
  when due) is done and timed apart, as the service does it before waiting for the next
  event; peer: the same loop over a journal without fsync.
* records per idle hour: an hour of virtual time with the clock running and no input;
  peer: the clock ticks the loop made (the journal held one record per tick before).

Run: ``.venv/bin/python bench/bench_service.py [--events 10000] [--latency-events 2000]``
(``--only latency``, repeatable: only the parts named).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import first_sentence, long_structure, pct, real_play  # noqa: E402

from engine.events import CardDrawn, ClockTick, DealerButton  # noqa: E402
from engine.table.core import TableCore, TableSettings  # noqa: E402
from pi_app.screens import screen_key  # noqa: E402
from pi_app.service.changes import ViewChanges  # noqa: E402
from pi_app.service.clock_source import VirtualClock  # noqa: E402
from pi_app.service.effect_runner import EffectRunner  # noqa: E402
from pi_app.service.heap import freeze_startup_heap  # noqa: E402
from pi_app.service.journal import Journal  # noqa: E402
from pi_app.service.journal_chain import first_break  # noqa: E402
from pi_app.service.loop import ServiceLoop  # noqa: E402
from pi_app.service.odds_process import OddsProcess  # noqa: E402
from pi_app.service.odds_worker import OddsWorker  # noqa: E402
from pi_app.service.recovery import recover  # noqa: E402
from pi_app.service.wiring import build_service, history_dir_for  # noqa: E402


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:8.0f} us"


def new_core(structure: Path, players: int = 10) -> TableCore:
    return TableCore.new(TableSettings(players={s: f"P{s}" for s in range(1, players + 1)},
                                       structure=str(structure), seed=1, layout="split"))


def tv_renderer():
    """The real TV adapter at 1080p on the dummy driver, as the daemon wires it."""
    from hardware.tv import TV
    from pi_app.screens import ScreenRenderer

    renderer = ScreenRenderer()
    tv = TV(draw=renderer, size=(1920, 1080), fps=0)
    tv.open(0.0)
    return tv, renderer


def bench_append(d: Path, n: int) -> None:
    j = Journal.create(d / "append.db", {"genesis": True})
    both, commit, idle = [], [], []
    for i in range(n):
        t0 = time.perf_counter()
        j.append(ClockTick(t=float(2 * i)))
        both.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        j.append(ClockTick(t=float(2 * i + 1)), sync_mark=False)
        commit.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        j.sync_mark()
        idle.append(time.perf_counter() - t0)
    j.close()
    payload = b'{"t":123.0,"type":"clock_tick"}' * 2
    fd = os.open(d / "raw.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    raw = []
    for _ in range(n):
        t0 = time.perf_counter()
        os.write(fd, payload)
        os.fsync(fd)
        raw.append(time.perf_counter() - t0)
    os.close(fd)
    print(f"journal append, mark fsynced at once   p50 {fmt_us(pct(both, 50))}  p99 "
          f"{fmt_us(pct(both, 99))}   | peer write+fsync p50 {fmt_us(pct(raw, 50))}  p99 "
          f"{fmt_us(pct(raw, 99))}   ratio p50 {pct(both, 50) / pct(raw, 50):.2f}x")
    print(f"journal append as the loop does it     p50 {fmt_us(pct(commit, 50))}  p99 "
          f"{fmt_us(pct(commit, 99))}   ratio p50 {pct(commit, 50) / pct(raw, 50):.2f}x   "
          f"(then, idle, the mark's fsync p50 {fmt_us(pct(idle, 50))}  p99 "
          f"{fmt_us(pct(idle, 99))})")


def build_journal(d: Path, structure: Path, n: int) -> tuple[Path, list]:
    """A journal of ``n`` real events (no clock tick), written through the real loop (its
    fsync switched off: building is not measured), with the hand histories beside it.
    Returns its path and the events."""
    path = d / "real.db"
    core = new_core(structure)
    j = Journal.create(path, core.snapshot(), snapshot_every=10**9)
    j._con.execute("PRAGMA synchronous=OFF")
    # the hand histories are written as a night writes them: a restart finds them there
    loop = ServiceLoop(core, j, VirtualClock(), effects=EffectRunner(history_dir_for(path)))
    events = []
    for ev in real_play(core):
        if len(events) >= n:
            break
        loop.handle(ev)
        events.append(ev)
    j.close()
    return path, events


def spread(values: list[float], unit: float = 1.0, fmt: str = ".3f") -> str:
    """``min/median/max`` of ``values`` (divided by ``unit``)."""
    v = sorted(x / unit for x in values)
    return "/".join(format(x, fmt) for x in (v[0], statistics.median(v), v[-1]))


def bench_replay(d: Path, path: Path, n: int, runs: int = 3, profile: int = 0) -> None:
    """The replay of the whole journal (:func:`recover`: the journal read, then every event
    through a fresh real core), ``runs`` times, beside its peer: the same journal read
    alone (:meth:`Journal.scan`, what recover reads before it applies anything)."""
    replay, read, cpu = [], [], []
    for _ in range(runs):
        with Journal.open_readonly(path) as j:
            t0, c0 = time.perf_counter(), time.process_time()
            rec = recover(j, TableCore)
            replay.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            t0 = time.perf_counter()
            count = len(j.scan().events)
            read.append(time.perf_counter() - t0)
    ratio = [a / b for a, b in zip(replay, read, strict=True)]
    print(f"replay of {rec.replayed} real events (no clock tick), min/median/max of {runs}: "
          f"{spread(replay)} s, CPU {spread(cpu)} s (bar 0.5 s for 10,000)   "
          f"| peer the journal read alone "
          f"{spread(read)} s ({count} records)   ratio {spread(ratio, fmt='.1f')}x   "
          f"[load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores]")
    if profile:
        _profile_replay(path, profile)
    # the journal has no snapshot after its genesis: a restart replays every event
    t0, c0 = time.perf_counter(), time.process_time()
    svc = build_service(None, journal_path=path, clock=VirtualClock())
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    replayed = svc.recovered.replayed if svc.recovered else 0
    svc.journal.close()
    print(f"restart to ready (no snapshot since the genesis, {n} events): {dt * 1e3:7.1f} ms, "
          f"CPU {dc * 1e3:7.1f} ms ({replayed} events replayed; {svc.effects.histories_written} "
          "hand histories written again)")


def bench_chain(path: Path, runs: int = 3) -> None:
    """The whole-chain check made at open (:func:`first_break`, hash only) over every
    record of the journal, as if its newest snapshot were after the last one (the most it
    can cost), ``runs`` times; peer: the same journal read (:meth:`Journal.scan`)."""
    check, read = [], []
    with Journal.open_readonly(path) as j:
        top = j.last_seq
        for _ in range(runs):
            t0 = time.perf_counter()
            assert first_break(j._con, j.journal_id, top) is None
            check.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            j.scan()
            read.append(time.perf_counter() - t0)
    ratio = [a / b for a, b in zip(check, read, strict=True)]
    print(f"whole-chain check of {top} records, min/median/max of {runs}: "
          f"{spread(check, 1e-3, '.1f')} ms   | peer the journal read "
          f"{spread(read, 1e-3, '.1f')} ms   ratio {spread(ratio, fmt='.2f')}x")


def _profile_replay(path: Path, top: int) -> None:
    """cProfile of one replay: the ``top`` functions by cumulative time."""
    import cProfile
    import pstats

    with Journal.open_readonly(path) as j:
        prof = cProfile.Profile()
        prof.enable()
        recover(j, TableCore)
        prof.disable()
    pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(top)


def bench_card(structure: Path, events: list, hands: int, runs: int = 3) -> None:
    """Each card of ``events`` is timed twice on the same state: through the whole table
    core, and through a copy of the bare dealing engine (the issue's "one engine action");
    the p99 of each and their ratio, min/median/max over ``runs`` plays of the events."""
    from bench_dealing import engine_action_samples

    p50, p99, bare99, ratio = [], [], [], []
    for _ in range(runs):
        cards, bare = _card_samples(structure, events)
        p50.append(pct(cards, 50))
        p99.append(pct(cards, 99))
        bare99.append(pct(bare, 99))
        ratio.append(p99[-1] / bare99[-1])
    action = engine_action_samples(hands)
    print(f"card drawn, TableCore.apply  p50 {spread(p50, 1e-6, '.0f')} us  p99 "
          f"{spread(p99, 1e-6, '.0f')} us   | peer the same card, bare dealing engine p99 "
          f"{spread(bare99, 1e-6, '.0f')} us   ratio p99 {spread(ratio, fmt='.2f')}x (bar 3x)"
          f"  [{len(cards)} cards; min/median/max of {runs}]")
    print(f"  (for scale: one betting action on a bare Hand p50 {fmt_us(pct(action, 50))}  p99 "
          f"{fmt_us(pct(action, 99))}; the card p50 is "
          f"{statistics.median(p50) / pct(action, 50):.1f}x)")


def _card_samples(structure: Path, events: list) -> tuple[list[float], list[float]]:
    """Seconds of each card through a fresh core, and of the same card through a copy of
    the bare dealing procedure on the same state (the copy is not timed)."""
    from engine.table.atomic import copy_procedure

    core = new_core(structure)
    cards, bare = [], []
    for ev in events:
        if isinstance(ev, CardDrawn) and core.proc is not None:
            twin = copy_procedure(core.proc)
            t0 = time.perf_counter()
            twin.apply(ev)
            bare.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        core.apply(ev)
        if isinstance(ev, CardDrawn):
            cards.append(time.perf_counter() - t0)
    return cards, bare


class Stages:
    """Seconds spent per stage (the journal's append, the core's apply, the TV's render)
    and per event type, by wrapping those three calls of one loop."""

    NAMES = ("journal", "apply", "render")

    def __init__(self, loop: ServiceLoop) -> None:
        self.kind = ""
        self.times: dict[tuple[str, str], list[float]] = {}
        self.cpu: dict[tuple[str, str], list[float]] = {}  # the loop thread's CPU seconds
        loop.journal.append = self._timed("journal", loop.journal.append)  # type: ignore
        loop.core.apply = self._timed("apply", loop.core.apply)  # type: ignore
        loop.tv = self._timed("render", loop.tv)

    def _timed(self, name: str, fn):
        def timed(*a, **kw):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **kw)
            finally:
                self.times.setdefault((name, self.kind), []).append(time.perf_counter() - t0)
                self.cpu.setdefault((name, self.kind), []).append(time.thread_time() - c0)
        return timed

    def report(self, total: dict[str, list[float]], cpu: dict[str, list[float]]) -> None:
        """Per event type and stage, p50/p99 of the wall time, then of the loop thread's
        CPU time (what the code costs, without the disk's waits or other processes')."""
        for title, whole, stages in (("wall", total, self.times), ("CPU", cpu, self.cpu)):
            print(f"  breakdown, {title} (ms, p50/p99)" + "".join(
                f"{n:>16}" for n in ("whole", *self.NAMES)))
            for kind in sorted(whole):
                cells = [whole[kind]] + [stages.get((n, kind), []) for n in self.NAMES]
                row = "".join(f"{pct(c, 50) * 1e3:8.2f}/{pct(c, 99) * 1e3:<7.2f}" if c else
                              f"{'-':>16}" for c in cells)
                print(f"  {kind:14} {len(whole[kind]):5} events  {row}")


def bench_latency(d: Path, structure: Path, n: int) -> None:
    def run(fsync: bool) -> tuple[list[float], list[float], dict]:
        core = new_core(structure)
        path = d / ("lat.db" if fsync else "lat-nofsync.db")
        j = Journal.create(path, core.snapshot(), snapshot_every=200)
        if not fsync:
            j._con.execute("PRAGMA synchronous=OFF")
        tv, renderer = tv_renderer()
        loop = ServiceLoop(core, j, VirtualClock(), tv=tv.render,
                           changes=ViewChanges(screen_key))
        process = OddsProcess()  # as run_service does
        process.start()
        loop.odds_provider = odds = OddsWorker(loop.call_soon, compute=process)
        stages = Stages(loop) if fsync else None
        out, idle, by_kind, cpu_by_kind = [], [], {}, {}
        for i, ev in enumerate(real_play(core)):
            if i >= n:
                break
            if stages is not None:
                stages.kind = ev.TYPE
            t0, c0 = time.perf_counter(), time.thread_time()
            loop.handle(ev)
            out.append(time.perf_counter() - t0)
            by_kind.setdefault(ev.TYPE, []).append(out[-1])
            cpu_by_kind.setdefault(ev.TYPE, []).append(time.thread_time() - c0)
            t0 = time.perf_counter()
            loop.idle()  # what the service does before it waits for the next event
            while not loop.queue.empty():  # the odds worker's figures, handed back
                loop.handle(loop.queue.get_nowait())
            idle.append(time.perf_counter() - t0)
        odds.stop(timeout=30)
        process.close()
        j.close()
        tv.close()
        if stages is not None:
            stages.report(by_kind, cpu_by_kind)
        return out, idle, dict(renderer.stats)
    (real, idle, stats), (mem, _i, _s) = run(True), run(False)
    print(f"event to journaled+applied+rendered (1080p)  p50 {fmt_us(pct(real, 50))}  p99 "
          f"{fmt_us(pct(real, 99))} (bar 5 ms)  max {fmt_us(max(real))} (event "
          f"{real.index(max(real)) + 1})   | peer without fsync p50 "
          f"{fmt_us(pct(mem, 50))}  p99 {fmt_us(pct(mem, 99))}  max {fmt_us(max(mem))}"
          f"   ratio p99 "
          f"{pct(real, 99) / pct(mem, 99):.1f}x  ({len(real)} events; frames {stats}; then "
          f"idle: the mark's fsync, the checkpoints and the odds hand-back p50 {fmt_us(pct(idle, 50))}  p99 "
          f"{fmt_us(pct(idle, 99))}  max {fmt_us(max(idle))}; "
          f"load average {os.getloadavg()[0]:.1f})")


def bench_idle_hour(d: Path, seconds: int) -> None:
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=1))
    clock = VirtualClock()
    j = Journal.create(d / "idle.db", core.snapshot(), snapshot_every=200)
    loop = ServiceLoop(core, j, clock)
    loop.handle(DealerButton(t=0.0, button="next_hand"))  # starts the clock; no card drawn
    start = j.last_seq
    for s in range(1, seconds + 1):
        clock.advance_to(float(s))
        loop.pump()
    per_hour = (j.last_seq - start) * 3600 / seconds
    ticks = loop.counts["ticks"] * 3600 / seconds
    j.close()
    print(f"journal records per idle hour  {per_hour:7.1f}   | peer clock ticks made "
          f"{ticks:7.1f} (one record each before)   ratio {per_hour / ticks:.3f}x")


PARTS = ("append", "replay", "card", "latency", "idle")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=first_sentence(__doc__))
    ap.add_argument("--appends", type=int, default=2000)
    ap.add_argument("--events", type=int, default=10_000, help="real events in the journal")
    ap.add_argument("--latency-events", type=int, default=2000)
    ap.add_argument("--idle-seconds", type=int, default=3600, help="virtual seconds of idle")
    ap.add_argument("--hands", type=int, default=500, help="bare hands of the action peer")
    ap.add_argument("--runs", type=int, default=3, help="replays of the journal (min/median/max)")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also print a cProfile of one replay: its N costliest functions")
    ap.add_argument("--no-freeze", action="store_true",
                    help="do not freeze the heap before the replay and the loop (the "
                         "service does)")
    ap.add_argument("--dir", default=None, help="where the journals go (default: a temp dir)")
    ap.add_argument("--only", choices=PARTS, action="append",
                    help="run only this part (repeatable; default: every part)")
    args = ap.parse_args(argv)
    if args.dir is not None and not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: not a folder")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        structure = long_structure(d, 40, breaks=False, minutes=60, stack=200_000)
        print(f"# bench_service: real core, real journal, 1080p TV on the "
              f"{os.environ.get('SDL_VIDEODRIVER')} driver; journals in {d}")
        parts = set(args.only or PARTS)
        if "append" in parts:
            bench_append(d, args.appends)
        if parts & {"replay", "card"}:
            path, events = build_journal(d, structure, args.events)
            frozen = 0 if args.no_freeze else freeze_startup_heap()
            print(f"heap before the replay: {frozen} objects frozen, as a table process "
                  "freezes them before its recovery (pi_app.service.heap)" if frozen else
                  "heap before the replay: not frozen (--no-freeze; a table process "
                  "freezes it)")
            if "replay" in parts:
                bench_replay(d, path, len(events), args.runs, args.profile)
                bench_chain(path, args.runs)
            if "card" in parts:
                bench_card(structure, events, args.hands, args.runs)
        if "latency" in parts:
            frozen = 0 if args.no_freeze else freeze_startup_heap()
            print(f"heap before the loop: {frozen} objects frozen, as a table process "
                  "freezes them before it plays" if frozen else
                  "heap before the loop: not frozen (--no-freeze)")
            bench_latency(d, structure, args.latency_events)
        if "idle" in parts:
            bench_idle_hour(d, args.idle_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
