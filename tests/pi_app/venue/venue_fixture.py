"""A venue for the director's tests: its files (venue.toml, password files mode 600), a
real Mosquitto on a free loopback port, and model tables (tests/engine/tournament/
venue_model.py) that take the director's commands through the broker as table services
would, each on its own thread with its own :class:`~pi_app.venue.node.VenueNode`."""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.tournament.venue import Order
from pi_app.venue import messages
from pi_app.venue.broker import LocalBroker
from pi_app.venue.config import VenueConfig, load_venue, read_password
from pi_app.venue.director import body_args
from pi_app.venue.node import (
    STATE_TOPIC,
    Delivered,
    VenueNode,
    command_topic,
    report_topic,
)
from tests.engine.tournament.venue_model import ModelTable
from tests.ports import free_port


def events_until(events: queue.Queue[Any], seconds: float, kinds: type | tuple[type, ...],
                 *, poll: float = 0.1, quiet: float = 0.0) -> Iterator[Any]:
    """Each event of ``kinds`` taken from a broker link's queue ``events`` until
    ``seconds`` have passed (others are taken and dropped); with ``quiet``, each event
    yielded moves the deadline to at least ``quiet`` seconds after it (to collect what
    follows closely).  ``poll``: seconds each wait on the queue lasts at most."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ev = events.get(timeout=poll)
        except queue.Empty:
            continue
        if isinstance(ev, kinds):
            yield ev
            deadline = max(deadline, time.monotonic() + quiet)


def write_venue(folder: Path, tables: int, seats: int, port: int,
                break_order: list[int] | None = None) -> Path:
    """venue.toml of ``tables`` tables of ``seats`` seats in ``folder``, with password
    files (mode 600) and the director's state folder there."""
    secrets = folder / "secrets"
    secrets.mkdir(parents=True, exist_ok=True)
    users = ["director"] + [f"table{n}" for n in range(1, tables + 1)]
    for user in users:
        f = secrets / f"{user}.password"
        f.write_text(f"pw-{user}-{port}\n")
        f.chmod(0o600)
    order = break_order or list(range(1, tables + 1))
    text = (f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n'
            f'[director]\nusername = "director"\npassword_file = "secrets/director.password"\n'
            f'state_directory = "director-state"\n'
            f'[tournament]\nstructure = "mini"\nseed = 1\nbreak_order = {order}\n')
    for n in range(1, tables + 1):
        text += (f'[tables.{n}]\nseats = {seats}\nusername = "table{n}"\n'
                 f'password_file = "secrets/table{n}.password"\n')
    path = folder / "venue.toml"
    path.write_text(text)
    return path


def password(venue: VenueConfig, user: str) -> str:
    folder = venue.director_password_file.parent
    return (folder / f"{user}.password").read_text().strip()


@dataclass
class ModelTableNode:
    """Model table ``number`` on the broker: commands in, reports out, acknowledged by the
    director's retained state."""

    venue: VenueConfig
    number: int
    seed: int
    errors: list[str] = field(default_factory=list)
    finished: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        seats = self.venue.tables[self.number - 1].seats
        self.model = ModelTable(self.number, seats, random.Random(f"{self.seed}:{self.number}"))
        self.events: queue.Queue[object] = queue.Queue()
        user = f"table{self.number}"
        self.node = VenueNode(self.venue.broker_url, username=user,
                              password=password(self.venue, user),
                              director="director",
                              tables={t.number: t.username for t in self.venue.tables},
                              subscriptions=(command_topic(self.number), STATE_TOPIC),
                              put=self.events.put, joins=True)  # the director's night
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start(self) -> ModelTableNode:
        self.node.start()
        self.thread.start()
        return self

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        self.node.close()

    def _loop(self) -> None:
        while not self.stop.is_set():
            try:
                event = self.events.get(timeout=0.2)
            except queue.Empty:
                event = None
            self.node.tick(time.monotonic())
            if isinstance(event, Delivered):
                try:
                    self._apply(event)
                except AssertionError as exc:  # the test reads these
                    self.errors.append(f"table {self.number}: {exc!r}")

    def _apply(self, d: Delivered) -> None:
        env = d.envelope
        if env.kind == "venue_state":
            applied = dict(env.body.applied)
            self.node.acknowledge(report_topic(self.number), applied.get(self.number, 0))
            if env.body.finished:
                self.finished.set()
            return
        if env.kind == "clock":
            return
        order = Order(self.number, env.seq, env.for_hand or 0, env.kind, body_args(env.body))
        for _table, seq, kind, args in self.model.take(order):
            self.node.send(report_topic(self.number), seq, messages.KINDS[kind](*args))


@dataclass
class Venue:
    """The files, the broker and the model tables of one test venue."""

    folder: Path
    tables: int = 2
    seats: int = 6
    seed: int = 3
    nodes: list[ModelTableNode] = field(default_factory=list)

    def __post_init__(self) -> None:
        port = free_port()
        self.path = write_venue(self.folder, self.tables, self.seats, port)
        self.config = load_venue(self.path)
        self.broker = LocalBroker(self.config, self.folder / "broker", port=port).start()

    def start_tables(self) -> None:
        self.nodes = [ModelTableNode(self.config, n, self.seed).start()
                      for n in range(1, self.tables + 1)]

    def close(self) -> None:
        for n in self.nodes:
            n.close()
        self.broker.stop()

    def chips_at_tables(self) -> int:
        return sum(sum(n.model.stacks.values()) for n in self.nodes)


def clock_listener(venue: Venue) -> tuple[Any, queue.Queue[Any]]:
    """A connection that takes the director's retained clock as a table does: (its link,
    the queue of what it received)."""
    from pi_app.venue.link import VenueLink
    from pi_app.venue.node import CLOCK_TOPIC

    got: queue.Queue[Any] = queue.Queue()
    link = VenueLink(venue.config.broker_url, client_id="pokertable-test-clock",
                     username=venue.config.director_username,
                     password=read_password(venue.config.director_password_file),
                     subscriptions=(CLOCK_TOPIC,), put=got.put)
    link.start()
    assert link.wait_ready(30)
    return link, got


def last_clock(got: queue.Queue[Any], wait: float = 10.0) -> Any:
    """The last clock message the listener has (waiting ``wait`` s for a first one)."""
    from pi_app.venue.link import Received

    last = None
    while True:
        try:
            m = got.get(timeout=wait if last is None else 0.5)
        except queue.Empty:
            return last
        if isinstance(m, Received):
            last = messages.decode(m.payload).body
