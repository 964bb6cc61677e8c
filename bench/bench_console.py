"""Console figures (issue 10), on a real table service (config/mock-table.toml: mock devices,
the real TV renderer on SDL's dummy driver) on loopback, each with a peer from the same run.

* command to push: a stack correction sent over HTTP until every one of N connected
  WebSocket pages has received the new state, p50/p99 (bar: p99 <= 100 ms with 20
  pages); peer: the same command until its HTTP answer alone.
* idle CPU: the service process's CPU time (user + system, /proc) over S seconds with the
  console up and N idle pages connected, as a share of one core (bar: <= 3% with 20
  pages); peer: the same service over the same time with no page connected.
* beside them, what the figures depend on: the service's CPU time per command (its journal,
  its documents, its pushes and its TV frames, which are drawn on the TV's own thread) and
  the machine's load average (other processes sharing the cores stretch every figure).

Run: ``.venv/bin/python bench/bench_console.py [--clients 20] [--commands 200] [--idle 30]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from tests.pi_app.console.table_process import Table  # noqa: E402

BASE_CHIPS = 7_000_000  # stacks no other figure in the state document has


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(table: Table, path: str, body: dict, token: str) -> float:
    """Send a command; the seconds until its HTTP answer."""
    req = urllib.request.Request(table.base + path, data=json.dumps(body).encode(),
                                 method="POST", headers={"Content-Type": "application/json",
                                                         "Authorization": f"Bearer {token}"})
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()
        assert r.status == 200
    return time.perf_counter() - start


def load_average() -> float:
    """The machine's 1-minute load average (runnable processes)."""
    return os.getloadavg()[0]


async def push_latencies(table: Table, token: str, seat: int, clients: int,
                         commands: int) -> tuple[list[float], list[float]]:
    pages = [await websockets.connect(f"ws://127.0.0.1:{table.port}/api/ws")
             for _ in range(clients)]
    try:
        for ws in pages:
            await ws.recv()  # the state on connection
        pushed, answered = [], []
        for i in range(commands):
            marker = f'"chips":{BASE_CHIPS + i}'
            start = time.perf_counter()
            loop = asyncio.get_running_loop()
            waits = [asyncio.ensure_future(_until(ws, marker)) for ws in pages]
            answered.append(await loop.run_in_executor(None, post, table, "/api/stack", {
                "seat": seat, "chips": BASE_CHIPS + i, "reason": "bench"}, token))
            await asyncio.wait_for(asyncio.gather(*waits), 30)
            pushed.append(time.perf_counter() - start)
        return pushed, answered
    finally:
        for ws in pages:
            await ws.close()


async def _until(ws, marker: str) -> None:
    while marker not in await ws.recv():
        pass


async def idle_cpu(table: Table, clients: int, seconds: float) -> float:
    pages = [await websockets.connect(f"ws://127.0.0.1:{table.port}/api/ws")
             for _ in range(clients)]
    readers = [asyncio.ensure_future(_drain(ws)) for ws in pages]
    try:
        await asyncio.sleep(1.0)
        before, start = cpu_seconds(table.proc.pid), time.monotonic()
        await asyncio.sleep(seconds)
        return (cpu_seconds(table.proc.pid) - before) / (time.monotonic() - start)
    finally:
        for r in readers:
            r.cancel()
        for ws in pages:
            await ws.close()


async def _drain(ws) -> None:
    while True:
        await ws.recv()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--commands", type=int, default=200)
    ap.add_argument("--idle", type=float, default=30.0, help="seconds of each idle measure")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Path(tmp)).start()
        try:
            token = table.ctl("token", "--role", "director").stdout.strip()
            for name in ("Ann", "Bob"):
                post(table, "/api/register", {"name": name}, token)
            post(table, "/api/seat-draw", {}, token)
            seat = table.get("/api/status")[1]["players"][0]["seat"]
            load, cpu0 = load_average(), cpu_seconds(table.proc.pid)
            pushed, answered = asyncio.run(push_latencies(table, token, seat, args.clients,
                                                          args.commands))
            per_command = (cpu_seconds(table.proc.pid) - cpu0) / args.commands
            quiet = asyncio.run(idle_cpu(table, 0, args.idle))
            busy = asyncio.run(idle_cpu(table, args.clients, args.idle))
        finally:
            table.close()
    p50, p99 = pct(pushed, 50) * 1e3, pct(pushed, 99) * 1e3
    a50, a99 = pct(answered, 50) * 1e3, pct(answered, 99) * 1e3
    print(f"command to push to {args.clients} pages ({args.commands} commands): "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (bar 100 ms: "
          f"{'ok' if p99 <= 100 else 'OVER'})")
    print(f"  peer, the command's HTTP answer alone: p50 {a50:.1f} ms, p99 {a99:.1f} ms; "
          f"push/answer p99 ratio {p99 / max(a99, 1e-6):.2f}")
    print(f"  the service's CPU per command: {per_command * 1e3:.1f} ms; machine load "
          f"{load:.1f} at the start, {load_average():.1f} at the end "
          f"({os.cpu_count()} cores)")
    print(f"idle CPU with {args.clients} pages connected: {busy * 100:.2f}% of a core "
          f"(bar 3%: {'ok' if busy <= 0.03 else 'OVER'})")
    print(f"  peer, no page connected: {quiet * 100:.2f}%; ratio {busy / max(quiet, 1e-9):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
