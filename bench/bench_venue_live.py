"""A venue through real processes and a real Mosquitto on loopback (docs/performance.md):

1. **A live night** (``--live-seconds``): the live director (``pokertable director``, each
   table's boundary answered as it arrives, the clock on wall time) and ``--live-tables``
   simulated tables (``pokertable sim --venue-table``: bots, simulated shoe and keys), all
   separate processes.  A listener on the broker (``pokertable/1/#``, the director's
   user) stamps every message as it arrives:

   * *bust until the move shows on both TVs*: from the ``hand_finished`` report with the
     bust that made a balancing move due (the last bust before a TV first announced it),
     until the public views of both tables (the state each TV renders, retained on
     ``table/N/public``) show the move announced: ``planned`` (the director decided at
     the bust which table gives a player to which) or ``moves`` (the giving table's
     boundary named the player); the TVs' banners say so; p50/p99/max;
   * *bust until the player is seated at the new table*: from the same bust until both
     public views show the player gone from the giving table and seated at the receiving
     one (the move itself waits for the giving table's hand boundary, TDA 11 and 12);
   * *clock skew*: two more listeners, each with its own connection, take the director's
     retained clock as a table does; the skew is the difference of the moments the same
     clock message reaches them (a TV counts down from the moment it synced, so two TVs
     differ by exactly that); p50/p99/max.

   Peer, measured in the same run: one QoS 1 message through the same broker (publish on
   one connection, delivery on another), p50.
2. **A whole simulated venue** (``--night-tables`` x ``--night-players``): ``pokertable sim
   --venue`` to a winner in deterministic rounds; its wall time and the director process's
   CPU per hand (``os.wait4``'s rusage of that process alone).  Peer: the director's rules
   alone (``engine.tournament.venue``) per hand, as bench_venue.py measures them.

Run: ``.venv/bin/python bench/bench_venue_live.py [--live-seconds 120 --live-tables 3
--live-players 24] [--night-tables 10 --night-players 90]``
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_venue import bench_director
from bench.common import pct
from pi_app.sim.venue import SimVenue, VenueSimOptions
from pi_app.venue.config import read_password
from pi_app.venue.link import Received, VenueLink
from pi_app.venue.node import CLOCK_TOPIC

WAIT = 60.0


def _listen(venue: SimVenue, name: str, topics: tuple[str, ...]) -> tuple[VenueLink, Any]:
    """A listener logged in as the director's user: (link, queue of (monotonic, msg))."""
    q: queue.Queue[tuple[float, Any]] = queue.Queue()
    link = VenueLink(venue.url, client_id=f"pokertable-bench-{name}",
                     username=venue.venue.director_username,
                     password=read_password(venue.venue.director_password_file),
                     subscriptions=topics, put=lambda m: q.put((time.monotonic(), m)))
    link.start()
    if not link.wait_ready(WAIT):
        raise RuntimeError(f"listener {name}: no broker")
    return link, q


def _drain(q: Any) -> list[tuple[float, str, dict[str, Any]]]:
    out = []
    while not q.empty():
        t, m = q.get()
        if isinstance(m, Received) and m.payload.startswith(b"{"):  # not presence
            out.append((t, m.topic, json.loads(m.payload)))
    return out


def move_latencies(messages: list[tuple[float, str, dict[str, Any]]]
                   ) -> list[tuple[float, float, float, float]]:
    """For each balancing move: (seconds from the bust that caused it until both tables'
    public views show it announced: ``planned`` (decided at the bust, the player not named
    yet) or ``moves`` (named), what each TV's banner says; seconds from that bust until
    both views show the player seated, gone from the giving table and at the receiving
    one; seconds of the latter from the ``move`` command on, the rest being the giving
    table's hand in play: a move waits for its boundary; seconds from the bust until the
    director's retained state first had it, planned or pending).  The bust that caused a
    move is the last one reported before either view first announced it.  The final
    table's fresh draw (a ``move`` from the host to itself) is not a balancing move."""
    busts: list[float] = []
    views = _Views()
    pending: dict[str, _Move] = {}
    done = []
    for t, topic, msg in messages:
        parts, body = topic.split("/"), msg.get("body", {})
        if parts[-1] == "report" and msg["kind"] == "hand_finished" and body["busted"]:
            busts.append(t)
        elif parts[-1] == "command" and msg["kind"] == "move" and busts \
                and int(parts[3]) != body["to_table"]:  # not the final table's fresh draw
            m = _Move(int(parts[3]), body["to_table"], t)
            m.shown = {n: since for n in (m.giver, m.taker)
                       if (since := views.since(n, body["player"], m.giver, m.taker))
                       is not None}
            m.decided = views.since(0, body["player"], m.giver, m.taker)
            pending[body["player"]] = m
        elif parts[-2:] == ["director", "state"]:  # the director's own view: table 0
            views.see(0, {m[0]: (m[1], m[2]) for m in body["pending"]},
                      {tuple(p) for p in body.get("planned", ())}, t)
        elif parts[-1] == "public":
            table, names = int(parts[3]), {p[0] for p in body["players"]}
            named = {m[0]: (m[1], m[2]) for m in body.get("moves", ())}
            views.see(table, named, {tuple(p) for p in body.get("planned", ())}, t)
            for player, m in list(pending.items()):
                m.see(table, player in names, player in named, t)
                if m.seated is not None:
                    bust = max((b for b in busts if b <= m.first()), default=m.command)
                    done.append((m.announced() - bust, m.seated - bust, m.seated - m.command,
                                 (m.decided or m.command) - bust))
                    del pending[player]
    return done


class _Views:
    """Since when each table's public view has announced each move: named (player) or
    planned ((giver, taker), the player not named yet); a planned move that becomes named
    in the same view keeps the time it was first announced."""

    def __init__(self) -> None:
        self.planned: dict[tuple[int, tuple[int, int]], float] = {}
        self.named: dict[tuple[int, str], float] = {}

    def see(self, table: int, named: dict[str, tuple[int, int]],
            planned: set[tuple[int, int]], t: float) -> None:
        ended = {pair: since for (n, pair), since in self.planned.items()
                 if n == table and pair not in planned}
        for pair in ended:
            del self.planned[(table, pair)]
        for pair in planned:
            self.planned.setdefault((table, pair), t)
        for key in [k for k in self.named if k[0] == table and k[1] not in named]:
            del self.named[key]
        for player, pair in named.items():
            if (table, player) not in self.named:
                self.named[(table, player)] = ended.get(pair, self.planned.get((table, pair),
                                                                               t))

    def since(self, table: int, player: str, giver: int, taker: int) -> float | None:
        return self.named.get((table, player), self.planned.get((table, (giver, taker))))


class _Move:
    """One balancing move as the listener sees it (monotonic seconds): ``shown``: table ->
    when its public view first announced the move; ``seated``: when both views showed the
    player gone from the giving table and seated at the receiving one."""

    def __init__(self, giver: int, taker: int, command: float) -> None:
        self.giver, self.taker, self.command = giver, taker, command
        self.decided: float | None = None  # the director's state first had it
        self.shown: dict[int, float] = {}
        self.gone: float | None = None
        self.there: float | None = None
        self.seated: float | None = None

    def see(self, table: int, present: bool, announced: bool, t: float) -> None:
        if announced and table in (self.giver, self.taker):
            self.shown.setdefault(table, t)
        if table == self.giver and not present and self.gone is None:
            self.gone = t
        if table == self.taker and present and self.there is None:
            self.there = t
        if self.gone is not None and self.there is not None:
            self.seated = max(self.gone, self.there)

    def first(self) -> float:
        """When a TV first announced the move (the command's time if none did)."""
        return min(self.shown.values(), default=self.command)

    def announced(self) -> float:
        """When both TVs first showed the move: both views announced it, or (one never
        did) the player shown seated, whichever came first."""
        assert self.seated is not None
        if len(self.shown) < 2:
            return self.seated
        return min(max(self.shown.values()), self.seated)


def round_trips(venue: SimVenue, count: int) -> list[float]:
    """Seconds for one QoS 1 message from one connection to another through the broker."""
    topic = "pokertable/1/bench/ping"
    sender, _ = _listen(venue, "ping", ())
    receiver, q = _listen(venue, "pong", (topic,))
    times = []
    try:
        for i in range(count):
            start = time.monotonic()
            sender.publish(topic, str(i).encode())
            while True:
                t, m = q.get(timeout=WAIT)
                if isinstance(m, Received) and m.payload == str(i).encode():
                    times.append(t - start)
                    break
    finally:
        sender.close()
        receiver.close()
    return times


def live_night(tables: int, players: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pokertable-bench-venue-") as tmp:
        venue = SimVenue(Path(tmp), VenueSimOptions(tables=tables, players=players, seed=3,
                                                    live=True))
        try:
            venue.start_broker()
            spy, everything = _listen(venue, "spy", ("pokertable/1/#",))
            tv_a, clock_a = _listen(venue, "tv-a", (CLOCK_TOPIC,))
            tv_b, clock_b = _listen(venue, "tv-b", (CLOCK_TOPIC,))
            venue.start_director()
            for table in venue.venue.tables:
                venue.start_table(table.number)
            time.sleep(seconds)
            peer = round_trips(venue, 30)
            for link in (spy, tv_a, tv_b):
                link.close()
        finally:
            venue.stop()
        messages = _drain(everything)
        arrivals = [{m["seq"]: t for t, _topic, m in _drain(c) if m["kind"] == "clock"}
                    for c in (clock_a, clock_b)]
        skews = [abs(arrivals[0][s] - arrivals[1][s]) for s in arrivals[0] if s in arrivals[1]]
        hands = sum(1 for _t, topic, m in messages
                    if topic.endswith("/report") and m["kind"] == "hand_finished")
        return {"moves": move_latencies(messages), "skews": skews, "peer": peer,
                "hands": hands}


def whole_night(tables: int, players: int) -> dict[str, Any]:
    """Wall seconds of a simulated venue to a winner, its hands, and the director's CPU."""
    with tempfile.TemporaryDirectory(prefix="pokertable-bench-venue-") as tmp:
        venue = SimVenue(Path(tmp), VenueSimOptions(tables=tables, players=players, seed=1))
        start = time.monotonic()
        try:
            venue.start()
            assert venue.director is not None and venue.director.stdout is not None
            out = venue.director.stdout.read()
            _pid, status, usage = os.wait4(venue.director.pid, 0)
            venue.director.returncode = os.waitstatus_to_exitcode(status)
            wall = time.monotonic() - start
        finally:
            venue.stop()
        if venue.director.returncode != 0:
            raise RuntimeError(f"the director stopped with {venue.director.returncode}")
        result = json.loads(out.strip().splitlines()[-1])
        return {"wall": wall, "hands": result["hands_played"],
                "cpu": usage.ru_utime + usage.ru_stime}


def _ms(values: list[float]) -> str:
    if not values:
        return "none measured"
    return (f"p50 {pct(values, 50) * 1000:7.1f} ms, p99 {pct(values, 99) * 1000:7.1f} ms, "
            f"max {max(values) * 1000:7.1f} ms ({len(values)})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--live-seconds", type=float, default=120.0)
    p.add_argument("--live-tables", type=int, default=3)
    p.add_argument("--live-players", type=int, default=24)
    p.add_argument("--night-tables", type=int, default=10)
    p.add_argument("--night-players", type=int, default=90)
    p.add_argument("--skip-night", action="store_true", help="the live night only")
    args = p.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    live = live_night(args.live_tables, args.live_players, args.live_seconds)
    print(f"live night, {args.live_tables} tables, {args.live_players} players, "
          f"{args.live_seconds:.0f} s, {live['hands']} hands:")
    print(f"  bust until the move shows on both TVs: {_ms([m[0] for m in live['moves']])}")
    print(f"  bust until the player is seated at the new table: "
          f"{_ms([m[1] for m in live['moves']])}")
    print(f"    of which from the move command on: {_ms([m[2] for m in live['moves']])}")
    print(f"  bust until the director's state has the move: "
          f"{_ms([m[3] for m in live['moves']])}")
    print(f"  clock skew between TVs:   {_ms(live['skews'])}")
    peer = pct(live["peer"], 50)
    print(f"  peer, one QoS 1 message through the broker: {_ms(live['peer'])}")
    if live["moves"]:
        worst = pct([m[0] for m in live["moves"]], 99)
        print(f"  ratio bust-to-both-TVs p99 / peer p50: {worst / peer:.1f}")
        seated = pct([m[1] for m in live["moves"]], 99)
        print(f"  ratio bust-to-seated p99 / peer p50: {seated / peer:.1f}")
    if live["skews"]:
        print(f"  ratio clock skew p99 / peer p50: {pct(live['skews'], 99) / peer:.2f}")
    if not args.skip_night:
        _report_night(args.night_tables, args.night_players)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


def _report_night(tables: int, players: int) -> None:
    night = whole_night(tables, players)
    per_hand = night["cpu"] / max(1, night["hands"])
    rules, _hands = bench_director(tables, players, 1)
    print(f"simulated venue, {tables} tables, {players} players, to a winner: "
          f"{night['wall']:.0f} s wall, {night['hands']} hands, director {night['cpu']:.1f} s "
          f"CPU = {per_hand * 1000:.2f} ms per hand")
    print(f"  peer, the director's rules alone: {rules * 1000:.3f} ms per hand; ratio "
          f"{per_hand / rules:.0f}")


if __name__ == "__main__":
    sys.exit(main())
