"""One simulated table of a venue: the normal simulator, dealing only on the director's go.

``pokertable sim --venue-table N --venue-config venue.toml --seed S --journal FILE
[--broker URL] [--resume]`` runs table N of the venue in ``venue.toml`` as the simulated
table does (bots pressing the mocked keys, the simulated shoe over its wire protocol, one
journaled loop, virtual time), in venue mode (:mod:`engine.table.venue`): it logs in to
the broker as the table's user (its password file), takes the director's commands
(:mod:`pi_app.venue.table_node`) as journaled events, and between hands waits for the
director's ``go`` instead of dealing on its own.  Its bots and shoe are seeded with
``S + N``.  It stops once the director's state says the venue has a winner (or the table
is broken) and every report is acknowledged.

A table with a new journal joins the night of the director's first message that does
not end its night (journaled: a restart keeps it) and ignores every other night's; one
whose journal is of a night that is over (the table broken), started while another night
runs, says so in one line (exit 2); one whose night runs logs the other night once and
plays on.  A table killed at any moment and started again with ``--resume``
recovers from its journal, reports ``resumed``, sends again the reports the director has not acknowledged,
with the same ``seq``, and applies no command twice (its mark is in the journal).
"""

from __future__ import annotations

import logging
import queue
import time
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidInputError
from engine.events import DealerCommand
from engine.table.core import TableCore, TableSettings
from pi_app.sim.policy import next_step
from pi_app.sim.simulator import SimOptions, Simulation, _StopOnSignal
from pi_app.venue.config import VenueConfig, load_venue, read_password
from pi_app.venue.link import LinkStatus
from pi_app.venue.messages import MessageError, VenueState
from pi_app.venue.node import Delivered, Joined, OtherNight, Presence, VenueNode
from pi_app.venue.table_node import TableNode, node_options

log = logging.getLogger("pokertable.sim.venue")

STATE_WAIT = 3.0  #: seconds a resumed table waits for the director's retained state
IDLE_WAIT = 0.05  #: seconds between looks at the broker while waiting for the director


class VenueSimError(InvalidInputError):
    """Bad options for a venue table (a table the venue does not have, a missing file)."""


@dataclass
class VenueTableOptions:
    """Options of ``pokertable sim --venue-table`` (see the module docstring)."""

    table: int
    config: str
    seed: int = 1
    journal: str | None = None
    broker: str | None = None
    resume: bool = False
    max_seconds: float = 3600.0  #: real seconds before the table gives up


def venue_settings(venue: VenueConfig, table: int, seed: int) -> TableSettings:
    """Table ``table``'s settings in venue mode: no players of its own (the director seats
    them), the venue's structure, seeds ``seed + table``."""
    tab = next((t for t in venue.tables if t.number == table), None)
    if tab is None:
        raise VenueSimError(f"--venue-table {table}: {venue.source} has tables "
                            f"1..{len(venue.tables)}")
    return TableSettings(players={}, structure=venue.structure, seed=seed + table,
                         deck_seed=seed + table, seats=tuple(range(1, tab.seats + 1)),
                         name=tab.name, venue_table=table,
                         venue_director=venue.director_username)


class VenueTableSim:
    """One simulated venue table (build, then :meth:`run`)."""

    def __init__(self, opts: VenueTableOptions) -> None:
        self.opts = opts
        self.venue = load_venue(opts.config)
        settings = venue_settings(self.venue, opts.table, opts.seed)
        tab = next(t for t in self.venue.tables if t.number == opts.table)
        password = read_password(tab.password_file)  # before a journal is made
        self.sim = Simulation(SimOptions(preset=self.venue.structure, players=tab.seats,
                                         seed=opts.seed + opts.table, journal=opts.journal,
                                         resume=opts.resume, late=(), name=tab.name),
                              settings, seed_offset=opts.table)
        self.inbox: queue.Queue[Any] = queue.Queue()
        core = self.sim.core
        assert core.venue is not None
        director = self.venue.director_username
        self.node = VenueNode(
            opts.broker or self.venue.broker_url, username=tab.username,
            password=password, director=director,
            tables={t.number: t.username for t in self.venue.tables},
            subscriptions=TableNode.subscriptions(opts.table), put=self.inbox.put,
            ca_file=self.venue.ca_file, **node_options(core.venue, director, opts.table))
        self.table = TableNode(self.node, opts.table)
        self.sim.loop.tv_overlays.append(self.table.clock.overlay(time.monotonic))
        self.sim.loop.tv_overlays.append(self.table.banner(lambda: self.sim.core))
        self._public: Any = None
        self._holding = opts.resume  # no report goes out before the director's state

    @property
    def core(self) -> TableCore:
        return self.sim.core

    def run(self) -> dict[str, Any]:
        """Play until the venue has a winner (or this table is broken) and every report is
        acknowledged; returns the table's summary (its hands, its history digest)."""
        with _StopOnSignal() as stop:
            try:
                self.node.start()
                self._resume()
                deadline = time.monotonic() + self.opts.max_seconds
                while not stop.signalled and not self._done():
                    if time.monotonic() > deadline:
                        raise VenueSimError(f"table {self.opts.table}: no winner after "
                                            f"{self.opts.max_seconds:.0f} s")
                    self._take_messages(block=not self._can_play())
                    if self._can_play():
                        self.sim._perform(next_step(self.core, seed=self.sim.opts.seed))
                    self._publish()
            finally:
                self.node.close()
                self.sim.close()
        if stop.signalled:
            from pi_app.sim.simulator import SimStopped
            raise SimStopped(stop.signum)
        s = self.core.summary()
        return {"table": self.opts.table, "hands_played": self.core.hand_number,
                "history_sha256": s["history_sha256"]}

    def _resume(self) -> None:
        """After a restart: journal ``restarted`` (reported ``resumed``), wait for the
        director's retained state to learn what it acknowledged, then send the rest."""
        if not self.opts.resume:
            return
        until = time.monotonic() + STATE_WAIT
        early = self._first_state(until)  # a night that is over stops here: nothing written
        loop = self.sim.loop
        loop.handle(DealerCommand(t=self.core.last_t, command="restarted",
                                  args={"policy": "paused"}))
        for item in early:
            self._take(item)
        while self.table.acked is None and time.monotonic() < until:
            self._take_messages(block=True)
        self._holding = False

    def _first_state(self, until: float) -> list[Any]:
        """Before a restart is journaled: what arrives until the director's state (at
        most until ``until``), kept to be taken after it; another night is taken at once
        (a table whose night is over stops there, its journal untouched)."""
        early: list[Any] = []
        while time.monotonic() < until:
            try:
                item = self.inbox.get(timeout=IDLE_WAIT)
            except queue.Empty:
                continue
            if isinstance(item, OtherNight):
                self._take(item)
                continue
            early.append(item)
            if isinstance(item, Delivered) and isinstance(item.envelope.body, VenueState):
                break
        return early

    def _can_play(self) -> bool:
        core, v = self.core, self.core.venue
        assert v is not None
        if core.in_hand or (core.proc is not None and core.proc.stopped):
            return True
        return (not v.broken and v.go_hand > core.hand_number
                and len(core.tournament.active()) >= 2)

    def _done(self) -> bool:
        v = self.core.venue
        assert v is not None
        over = self.table.finished or v.broken
        return over and not self._can_play() and self.table.unacknowledged(v.outbox) == 0

    def _take_messages(self, block: bool) -> None:
        """Apply what the broker delivered (waiting a moment for it when ``block``)."""
        try:
            item = self.inbox.get(timeout=IDLE_WAIT) if block else self.inbox.get_nowait()
        except queue.Empty:
            self.node.tick(time.monotonic())
            return
        while True:
            self._take(item)
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
        self.node.tick(time.monotonic())

    def _take(self, item: Any) -> None:
        t = max(self.sim.clock.now(), self.core.last_t)
        if isinstance(item, Joined):
            self.sim.loop.handle(self.table.join_event(item, t))
        elif isinstance(item, OtherNight):  # over: one line, exit 2; else play on
            line = self.table.on_other_night(item, self.core)
            if line is not None:
                raise VenueSimError(line)
        elif isinstance(item, Delivered):
            event = self.table.on_delivered(item, t, time.monotonic())
            if event is not None:
                self.sim.loop.handle(event)
        elif isinstance(item, (LinkStatus, Presence)):
            log.info("venue: %s", item)
        self._publish()

    def _publish(self) -> None:
        v = self.core.venue
        assert v is not None
        if not self._holding:
            self.table.flush(v.outbox)
        body = self.table.public_view(self.core)
        if body != self._public:
            self._public = body
            try:
                self.table.publish_public(max(1, self.sim.service.journal.last_seq), body)
            except MessageError as exc:  # the TV's copy on the broker waits, play goes on
                log.warning("venue: public view not published: %s", exc)


def run_venue_table(opts: VenueTableOptions) -> dict[str, Any]:
    """Run one simulated venue table (see :class:`VenueTableSim`)."""
    return VenueTableSim(opts).run()
