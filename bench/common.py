"""Helpers shared by the benches: percentiles, /proc readings, long structures, real play.

Nothing here is timed; each bench names the peer it measures in the same run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MB = 1024 * 1024


def first_sentence(doc: str) -> str:
    """The first sentence of a bench's docstring on one line (its ``--help`` description:
    the first line alone can stop mid-sentence)."""
    return " ".join(re.split(r"\.\s", doc.strip(), maxsplit=1)[0].split()).rstrip(".") + "."


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def rss(pid: int | str = "self") -> int:
    """Resident set size of a process, bytes (``/proc/PID/statm``)."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cpu_ticks(stat_path: str) -> int:
    """User + system CPU of one ``/proc/.../stat`` (a process's or a thread's; fields 14
    and 15), in clock ticks; 0 if it is gone."""
    try:
        with open(stat_path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU seconds of a process (``/proc/PID/stat``, fields 14 and 15)."""
    return cpu_ticks(f"/proc/{pid}/stat") / os.sysconf("SC_CLK_TCK")


def long_structure(folder: Path, hours: float, *, breaks: bool = True,
                   minutes: int = 20, stack: int = 100_000) -> Path:
    """A structure file of ``minutes``-long levels (a 10-minute break after every fourth
    when ``breaks``) lasting at least ``hours``: the presets end after a few hours."""
    lines = ['[tournament]', 'name = "Long night"', '[chips]', f'starting_stack = {stack}',
             '[[chips.set]]', 'denomination = 25', 'color = "green"',
             '[[chips.set]]', 'denomination = 1000', 'color = "yellow"',
             '[chips.starting]', f'25 = {stack % 1000 // 25}', f'1000 = {stack // 1000}']
    sb, total, n = 25, 0, 0
    while total < hours * 60 + 60:
        n += 1
        lines += ["[[levels]]", f"small_blind = {sb}", f"big_blind = {2 * sb}",
                  f"minutes = {minutes}"]
        total += minutes
        sb = sb * 3 // 2 // 25 * 25 or 25
        if breaks and n % 4 == 0:
            lines += ["[[levels]]", "break = true", "minutes = 10"]
            total += 10
    path = folder / "long.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def real_play(core, seed: int = 1) -> Iterator:
    """The input events of a simulated table's real play (cards, keys, dealer buttons), as
    :func:`pi_app.sim.policy.next_step` chooses them from ``core``'s state; the caller
    applies each before asking for the next.  Stops when the tournament is over; a break
    (a ``wait``) is yielded as its clock tick."""
    from pi_app.sim.policy import next_step, step_event

    while True:
        step = next_step(core, seed=seed)
        if step.kind == "done":
            return
        yield step_event(step, core)
