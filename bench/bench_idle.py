"""Idle CPU and memory of the table service with the clock running (issue 14, item 2), on
the issue's own recipe.

The figure: ``pokertable run --config config/mock-table.toml`` started as its own process
(the README's way: ``$STATE_DIRECTORY`` in a temporary folder; the config copied with the
console on a free loopback port; every device mocked, the real renderer drawing the TV at
1920x1080 on SDL's ``dummy`` driver), then the real ``pokertable ctl register`` three
times, ``seat-draw`` and ``start``: the clock runs, no hand is dealt.  After ``--warmup``
seconds, the CPU time (user + system, ``/proc/PID/stat``) of the service and of every
process under it (the all-in odds child) and the service's RSS (``/proc/PID/status``
VmRSS) are read over ``--seconds`` (bar: under 1% of one core, RSS growth at most 10 MB
over 60 s).  Its threads' shares are printed beside it (``/proc/PID/task``).

Peer in the same run: the same service run inside this process (``wire_devices`` +
``run_service`` on ``bench/idle-table.toml``: 3 seats, no console, the clock started by
NEXT HAND queued on the loop), with its threads named.  The machine's load average is
printed with each run: other processes sharing the cores stretch every figure.

Run: ``.venv/bin/python bench/bench_idle.py [--seconds 60] [--warmup 10] [--runs 3]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import MB, cpu_seconds, cpu_ticks, first_sentence, rss  # noqa: E402

from engine.events import DealerButton  # noqa: E402
from pi_app.service.config import load_config  # noqa: E402
from pi_app.service.devices import wire_devices  # noqa: E402
from pi_app.service.notify import Notifier  # noqa: E402
from pi_app.service.wiring import run_service  # noqa: E402
from tests.pi_app.console.table_process import Table  # noqa: E402

CONFIG = HERE / "idle-table.toml"
TICK = os.sysconf("SC_CLK_TCK")


def _children_of(pid: int) -> dict[int, int]:
    """Every process below ``pid`` -> its CPU ticks (from the whole ``/proc``)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    below, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p and c not in below]
        below.update(kids)
        todo += kids
    return {c: cpu_ticks(f"/proc/{c}/stat") for c in below}


def _reaped(pid: int) -> int:
    """cutime + cstime of ``pid``: its children that ended and were waited for (ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[13]) + int(fields[14])


def _tasks(pid: int) -> dict[int, int]:
    return {int(t): cpu_ticks(f"/proc/{pid}/task/{t}/stat") for t in os.listdir(f"/proc/{pid}/task")}


def _sample(pid: int) -> tuple[int, dict[int, int], dict[int, int], int, float]:
    """(own + reaped ticks, children's ticks, per-thread ticks, RSS bytes, monotonic s)."""
    return (cpu_ticks(f"/proc/{pid}/stat") + _reaped(pid), _children_of(pid), _tasks(pid),
            rss(pid), time.monotonic())


def measure(pid: int, seconds: float) -> dict:
    """CPU share of one core (the process and every child), RSS growth, threads' shares."""
    own0, kids0, tasks0, rss0, t0 = _sample(pid)
    time.sleep(seconds)
    own1, kids1, tasks1, rss1, t1 = _sample(pid)
    span = (t1 - t0) * TICK
    kids = sum(v - kids0.get(c, 0) for c, v in kids1.items())
    threads = sorted(((v - tasks0.get(t, 0)) / span, "main" if t == pid else str(t))
                     for t, v in tasks1.items())
    return {"cpu": (own1 - own0 + kids) / span, "children": kids / span,
            "rss": rss1 - rss0, "threads": threads[::-1], "load": os.getloadavg()[0]}


def recipe(folder: Path, warmup: float, seconds: float) -> dict:
    """The issue's recipe, the service as a process; see the module docstring."""
    folder.mkdir()
    table = Table(folder).start()
    try:
        for args in (("register", "Ann"), ("register", "Bob"), ("register", "Cy"),
                     ("seat-draw",), ("start",)):
            done = table.ctl(*args)
            if done.returncode != 0:
                raise RuntimeError(f"ctl {' '.join(args)}: {done.stdout}{done.stderr}")
        time.sleep(warmup)
        return measure(table.proc.pid, seconds)
    finally:
        table.stop()


def in_process(state: Path, warmup: float, seconds: float) -> dict:
    """The peer: the service in this process (3 seats, no console), threads named."""
    config = load_config(CONFIG, env={"STATE_DIRECTORY": str(state)})
    settings = config.device_settings()
    stop = threading.Event()

    def on_ready(service) -> None:
        service.loop.put(DealerButton(t=service.loop.clock.now(), button="next_hand"))

    worker = threading.Thread(target=run_service, args=(config,), kwargs={
        "wire": lambda put: wire_devices(settings, put), "notifier": Notifier(None),
        "install_signal_handlers": False, "until": stop.is_set, "on_ready": on_ready},
        daemon=True)
    worker.start()
    time.sleep(warmup)
    names = {t.native_id: t.name for t in threading.enumerate()}
    c0, r0 = cpu_seconds(), rss()
    out = measure(os.getpid(), seconds)
    out["cpu"], out["rss"] = (cpu_seconds() - c0) / seconds, rss() - r0
    out["threads"] = [(share, names.get(int(t), t) if t != "main" else "bench")
                      for share, t in out["threads"]]
    stop.set()
    worker.join(timeout=30)
    return out


def _spread(runs: list[dict], key: str, scale: float) -> str:
    values = sorted(scale * r[key] for r in runs)
    return f"{values[0]:.2f} / {statistics.median(values):.2f} / {values[-1]:.2f}"


def _threads(run: dict) -> str:
    return ", ".join(f"{name} {100 * share:.2f}" for share, name in run["threads"][:6])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=first_sentence(__doc__))
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    ours, peers = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            ours.append(recipe(Path(tmp) / f"run{i}", args.warmup, args.seconds))
            peers.append(in_process(Path(tmp) / f"peer{i}", args.warmup, args.seconds))
    print(f"# bench_idle: pokertable run --config config/mock-table.toml, ctl register x3, "
          f"seat-draw, start; no hand dealt; {args.seconds:g} s after {args.warmup:g} s; "
          f"min / median / max of {args.runs}")
    print(f"idle, the recipe    CPU {_spread(ours, 'cpu', 100)} % of one core (bar < 1 %), "
          f"children {_spread(ours, 'children', 100)} %; RSS growth "
          f"{_spread(ours, 'rss', 1 / MB)} MB (bar <= 10 MB)")
    print(f"peer: in-process    CPU {_spread(peers, 'cpu', 100)} % of one core; RSS growth "
          f"{_spread(peers, 'rss', 1 / MB)} MB")
    for i, (o, p) in enumerate(zip(ours, peers, strict=True)):
        print(f"run {i + 1}: load {o['load']:.1f} / {p['load']:.1f}; threads, % of a core: "
              f"service {_threads(o)}; peer {_threads(p)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
