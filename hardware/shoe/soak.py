"""Soak test of the shoe link: the real client against the simulator over a pty.

``run_soak(cards=10000, corrupt=0.01, drop=0.01, seed=1)`` deals ``cards`` draws (the
deck reshuffled every 52, so every UID recurs) through a fault injector and counts what
reached the loop's queue.  The link must give ``lost == 0`` and ``duplicates == 0`` at
N=10000, P=0.01.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from engine.errors import InvalidInputError
from engine.events import CardDrawn
from hardware.shoe.client import ShoeClient
from hardware.shoe.simulator import Faults, SimulatedShoe


class SoakError(InvalidInputError):
    """Bad soak parameters (negative count, probability outside 0..1)."""


def run_soak(cards: int, corrupt: float = 0.0, drop: float = 0.0, seed: int = 0, *,
             duplicate: float = 0.0, idle_timeout: float = 10.0) -> dict[str, Any]:
    """Run the soak and return the report.

    Keys: ``sent`` (cards drawn by the shoe), ``delivered`` (distinct draws that reached the
    queue), ``lost`` (sent - delivered), ``duplicates`` (draws delivered more than once),
    ``corrupt_rejected`` (frames the client dropped on CRC/shape), ``replays`` (replay
    requests it sent), ``misordered`` (draws delivered out of order or with the wrong UID),
    ``seconds`` (wall time of the dealing phase).

    ``idle_timeout``: seconds without a new delivery after which the run ends.

    Raises:
        SoakError: ``cards < 0`` or a probability outside [0, 1).
    """
    if cards < 0:
        raise SoakError(f"--cards must be >= 0, got {cards}")
    for name, p in (("corrupt", corrupt), ("drop", drop), ("duplicate", duplicate)):
        if not 0.0 <= p < 1.0:
            raise SoakError(f"--{name} must be in [0, 1), got {p}")
    events: queue.Queue = queue.Queue()
    sim = SimulatedShoe(seed=seed, faults=Faults(corrupt=corrupt, drop=drop,
                                                 duplicate=duplicate)).start()
    client = ShoeClient(sim.path, events, read_timeout=0.01, replay_interval=0.05)
    try:
        client.start()
        deadline = time.monotonic() + idle_timeout
        while client.online is not True and time.monotonic() < deadline:
            time.sleep(0.005)
        started = time.monotonic()
        sim.deal(cards)
        seen, duplicates, misordered = _receive(events, cards, idle_timeout)
        seconds = time.monotonic() - started
        expected = {draw: uid for _, draw, uid in sim.log}
        misordered += sum(1 for d, uid in seen.items() if expected.get(d) != uid)
        time.sleep(0.05)  # let late duplicates (retransmissions) show up, if any
        duplicates += _late_duplicates(events, seen)
        return {
            "sent": sim.sent,
            "delivered": len(seen),
            "lost": sim.sent - len(seen),
            "duplicates": duplicates,
            "corrupt_rejected": client.stats["corrupt_rejected"],
            "replays": client.stats["replays"],
            "misordered": misordered,
            "seconds": round(seconds, 3),
        }
    finally:
        client.stop()
        sim.stop()


def _receive(events: queue.Queue, cards: int, idle_timeout: float
             ) -> tuple[dict[int, str], int, int]:
    """Take card events until ``cards`` distinct draws arrived or none came for
    ``idle_timeout`` seconds: ``(draw -> uid, duplicates, draws out of order)``."""
    seen: dict[int, str] = {}
    duplicates = misordered = 0
    last_draw = 0
    last_progress = time.monotonic()
    while len(seen) < cards and time.monotonic() - last_progress < idle_timeout:
        try:
            ev = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if not isinstance(ev, CardDrawn):
            continue
        if ev.draw in seen:
            duplicates += 1
            continue
        seen[ev.draw] = ev.uid
        if ev.draw != last_draw + 1:
            misordered += 1
        last_draw = ev.draw
        last_progress = time.monotonic()
    return seen, duplicates, misordered


def _late_duplicates(events: queue.Queue, seen: dict[int, str]) -> int:
    """Draws already seen that are still queued (retransmissions)."""
    duplicates = 0
    while True:
        try:
            ev = events.get_nowait()
        except queue.Empty:
            return duplicates
        if isinstance(ev, CardDrawn) and ev.draw in seen:
            duplicates += 1
