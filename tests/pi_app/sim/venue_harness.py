"""A test acting as a venue's director over a real broker, and a table process it drives.

:class:`TestDirector` is a real node of the venue (:class:`pi_app.venue.node.VenueNode`
logged in as the director): it numbers its commands, publishes them, collects the table's
reports (each applied once by its inbox) and acknowledges them in its retained state, as
the director does.  :class:`TableProcess` runs ``pokertable sim --venue-table`` as a
separate process.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pi_app.venue.config import parse_venue
from pi_app.venue.link import Received, VenueLink
from pi_app.venue.messages import Go, MovePlayer, SeatPlayer, Signal, VenueState, decode
from pi_app.venue.node import (
    STATE_TOPIC,
    Delivered,
    VenueNode,
    command_topic,
    public_topic,
    report_topic,
)

WAIT = 60.0  #: seconds: generous for a loaded 2-core machine
NIGHT = "20261201-0000000000000001"  #: the night id the test's director sends under
ROOT_DIR = Path(__file__).resolve().parents[3]


def write_venue(folder: Path, tables: int = 2, seats: int = 6) -> tuple[Path, dict[str, str]]:
    """A venue.toml of ``tables`` tables in ``folder`` with its password files (0600)."""
    secrets = folder / "secrets"
    secrets.mkdir(parents=True)
    users = {"director": "director-pw"} | {f"table{n}": f"pw-{n}" for n in
                                              range(1, tables + 1)}
    for user, pw in users.items():
        f = secrets / f"{user}.password"
        f.write_text(pw + "\n")
        f.chmod(0o600)
    text = ('[director]\nusername = "director"\npassword_file = "secrets/director.password"\n'
            '[tournament]\nstructure = "gunpowder"\n')
    for n in range(1, tables + 1):
        text += (f'[tables.{n}]\nseats = {seats}\nusername = "table{n}"\n'
                 f'password_file = "secrets/table{n}.password"\n')
    path = folder / "venue.toml"
    path.write_text(text)
    return path, users


def joined_nights(journal: Path) -> list[str]:
    """The nights a table's journal joined (its ``join`` events, in order)."""
    import json
    import sqlite3

    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        rows = [json.loads(d) for (d,) in db.execute("SELECT data FROM events ORDER BY seq")]
    return [r["body"]["night"] for r in rows
            if r.get("type") == "venue_command" and r.get("kind") == "join"]


def load(path: Path):
    return parse_venue(path.read_text(), "venue.toml", base_dir=path.parent)


class TestDirector:
    """The director of a venue, played by the test (see the module docstring)."""

    __test__ = False  # not a test class

    def __init__(self, url: str, password: str, table: int = 1,
                 tables: dict[int, str] | None = None, night: str = NIGHT) -> None:
        self.table = table
        self.events: queue.Queue[Any] = queue.Queue()
        self.node = VenueNode(url, username="director", password=password,
                              director="director",
                              tables=tables or {1: "table1", 2: "table2"},
                              subscriptions=(report_topic(table), public_topic(table)),
                              put=self.events.put, night=night).start()
        assert self.node.wait_ready(WAIT)
        self.seq = 0
        self.state_seq = 0
        self.reports: list[Any] = []   # envelopes, once each, in order
        self.publics: list[Any] = []   # every public view received
        self.raw: list[Any] = []       # every delivery (for counting copies)

    # ------------------------------------------------------------------ out
    def send(self, body: Any, for_hand: int) -> int:
        self.seq += 1
        self.node.send(command_topic(self.table), self.seq, body, for_hand=for_hand)
        return self.seq

    def seat(self, player: str, seat: int, chips: int, for_hand: int,
             reason: str = "draw") -> int:
        return self.send(SeatPlayer(player, seat, chips, reason), for_hand)

    def move(self, player: str, seat: int, for_hand: int) -> int:
        return self.send(MovePlayer(player, seat, 2, 1), for_hand)

    def go(self, hand: int) -> int:
        return self.send(Go(hand), hand - 1)

    def signal(self, name: str, for_hand: int) -> int:
        return self.send(Signal(name), for_hand)

    def acknowledge(self, upto: int | None = None, finished: bool = False) -> None:
        """Publish the retained state acknowledging the table's reports up to ``upto``
        (default: every report received)."""
        mark = self.reports[-1].seq if upto is None and self.reports else (upto or 0)
        self.state_seq += 1
        self.node.send(STATE_TOPIC, self.state_seq,
                       VenueState(self.state_seq, (), (), (), ((self.table, mark),), (), 0,
                                  finished))
        for seq in range(1, self.seq + 1):
            if any(getattr(r.body, "command", None) == seq for r in self.reports):
                self.node.acknowledge(command_topic(self.table), seq)

    # ------------------------------------------------------------------ in
    def pump(self, timeout: float = 0.1) -> None:
        try:
            ev = self.events.get(timeout=timeout)
        except queue.Empty:
            self.node.tick(time.monotonic())
            return
        if isinstance(ev, Delivered):
            if ev.topic == public_topic(self.table):
                self.publics.append(ev.envelope.body)
            else:
                self.reports.append(ev.envelope)
        self.node.tick(time.monotonic())

    def wait(self, kind: str, timeout: float = WAIT, **match: Any) -> Any:
        """The first report of ``kind`` (body fields ``match``) received so far or next."""
        deadline = time.monotonic() + timeout
        while True:
            for env in self.reports:
                if env.kind == kind and all(getattr(env.body, k) == v
                                            for k, v in match.items()):
                    return env
            if time.monotonic() > deadline:
                kinds = [(e.seq, e.kind) for e in self.reports]
                raise AssertionError(f"no {kind} {match}; reports: {kinds}")
            self.pump()

    def answered(self, command: int, timeout: float = WAIT) -> Any:
        """The report answering command ``command`` (applied, refused; the last moved)."""
        return self.wait_any(("applied", "refused"), command=command, timeout=timeout)

    def wait_any(self, kinds: tuple[str, ...], timeout: float = WAIT, **match: Any) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            for env in self.reports:
                if env.kind in kinds and all(getattr(env.body, k) == v
                                             for k, v in match.items()):
                    return env
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kinds} {match}")
            self.pump()

    def close(self) -> None:
        self.node.close()


class Observer:
    """Every copy of every message on ``topic``, as the broker delivers it (no inbox)."""

    def __init__(self, url: str, password: str, topic: str) -> None:
        self.events: queue.Queue[Any] = queue.Queue()
        self.link = VenueLink(url, client_id="pokertable-observer", username="director",
                              password=password, subscriptions=(topic,),
                              put=self.events.put).start()
        assert self.link.wait_ready(WAIT)

    def seqs(self) -> list[int]:
        out = []
        while True:
            try:
                ev = self.events.get_nowait()
            except queue.Empty:
                return out
            if isinstance(ev, Received):
                out.append(decode(ev.payload).seq)

    def close(self) -> None:
        self.link.close()


class TableProcess:
    """``pokertable sim --venue-table N`` as a process of its own."""

    def __init__(self, venue: Path, journal: Path, url: str, table: int = 1, seed: int = 3,
                 resume: bool = False) -> None:
        cmd = [sys.executable, "-m", "pi_app.cli.main", "sim", "--venue-table", str(table),
               "--venue-config", str(venue), "--seed", str(seed), "--journal", str(journal),
               "--broker", url] + (["--resume"] if resume else [])
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        self.log = journal.with_suffix(f".{int(time.time() * 1000)}.log")
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT_DIR, env=env, stdout=subprocess.PIPE,
                                         stderr=out, start_new_session=True)

    def finish(self, timeout: float = WAIT) -> str:
        """Its stdout once it exits 0 (the summary line)."""
        out, _ = self.proc.communicate(timeout=timeout)
        assert self.proc.returncode == 0, self.log.read_text()[-3000:]
        return out.decode()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
