"""The director node: ``pokertable director --config venue.toml`` (an adapter around the
pure rules of :mod:`engine.tournament.venue`).

One loop applies the events its :class:`~pi_app.venue.node.VenueNode` puts on its queue:
each table report that is due is checked by the rules, journaled
(:class:`~pi_app.venue.director_journal.DirectorJournal`) and only then applied; the
commands it causes go to the tables, and the retained ``director/state`` (carrying, per
table, the last report applied: the tables' acknowledgement) and ``director/clock`` are
published again.  A report the rules refuse changes nothing and is logged once.

**Live or rounds.**  On a real night (``live``) each table's boundary is answered as it
arrives (:mod:`engine.tournament.venue_live`) and the clock runs on wall time: the loop
looks at it every :data:`TICK` seconds, journals a tick that ends a level before sending
the ``level`` commands, and publishes the retained clock at least every
:data:`CLOCK_EVERY` seconds.  The simulated venue plays in deterministic rounds
(:mod:`engine.tournament.venue`), the clock on the tables' hand times.

**One night.**  A new state folder is a new night: the journal mints its night id
(:func:`~pi_app.venue.director_journal.mint_night`), every message carries it, and the
node's first connection drops the session the broker kept from last night; the reports of
another night are dropped.  On start the journal is replayed: the same reports give the same state and the same
commands with the same ``seq``; those a table has not answered are sent again.  When a
winner is known the result is written to ``result.json`` in the state folder and returned
(the command prints it as its last line).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from engine.tournament import venue_live
from engine.tournament.structure_file import load_structure
from engine.tournament.venue import (
    Order,
    VenueSetup,
    VenueState,
    VenueStateError,
    enter,
    start,
    step,
)
from engine.tournament.venue_clock import LevelSpec
from engine.tournament.venue_prizes import (
    EntryError,
    check_entry_name,
    late_entry_chips,
    payouts,
    prize_pool,
    results,
)
from pi_app.venue import messages
from pi_app.venue.broker import ROOT
from pi_app.venue.config import VenueConfig, read_password
from pi_app.venue.director_journal import DirectorJournal, mint_night
from pi_app.venue.entry import ClockRefused, ClockRequest, Entry, Start
from pi_app.venue.held import HeldOrders
from pi_app.venue.link import LinkStatus
from pi_app.venue.node import (
    CLOCK_TOPIC,
    STATE_TOPIC,
    Delivered,
    Presence,
    VenueNode,
    command_topic,
    report_topic,
)

log = logging.getLogger(__name__)

ENTRY_ROW = -1  #: the journal's table number of a late entry (seq: the entries' count)
REPORT_KINDS = ("hand_started", "hand_finished", "moved", "applied", "refused", "resumed")
FINAL_WAIT = 5.0  #: seconds to let the broker take the last state before exiting
CLOCK_EVERY = 5.0  #: seconds between two publications of the live director's clock
TICK = 0.25  #: seconds between two looks at the live director's clock
CLOCK_ROW = 0  #: the journal's table number of a clock tick that changed the level, a pause
#: a clock row's kind -> the rule that replays it (args: the wall ms since the start)
CLOCK_KINDS = {"clock": venue_live.tick, "pause": venue_live.pause,
               "resume": venue_live.resume}


def levels_of(structure_name: str) -> tuple[tuple[LevelSpec, ...], int]:
    """(the blind levels as the director's clock takes them, the starting stack in chips)
    of the structure ``structure_name`` (a preset or a file).  A level counted in hands
    has no end in the venue's virtual time (0 ms)."""
    structure = load_structure(structure_name)
    levels = tuple((lv.index, lv.small_blind, lv.big_blind, lv.ante or lv.big_blind_ante,
                    round(lv.minutes * 60_000) if lv.minutes else 0)
                   for lv in structure.levels if not lv.is_break)
    return levels, structure.starting_stack


def body_args(body: Any) -> tuple[Any, ...]:
    """A message record's fields, in order (the rules' ``args``)."""
    return tuple(getattr(body, f.name) for f in fields(body))


def order_message(order: Order) -> Any:
    """The message record of ``order`` (seat, move, signal, level, go)."""
    return messages.KINDS[order.kind](*order.args)


class Director:
    """The director of ``venue``, journaling in ``state_dir``.

    Args:
        venue: the validated venue file.
        players: the players of the opening draw (``P01``... in the simulation).
        seed: the seat draws' seed (``random.Random(f"{seed}:draw")``).
        state_dir: where the journal and ``result.json`` live.
        live: answer each table's boundary as it arrives, the clock on wall time
            (:mod:`engine.tournament.venue_live`); False: the rounds of the simulated
            venue (:mod:`engine.tournament.venue`), the clock on the tables' hand times.
        wall: the wall clock in seconds (``time.time``; the tests give their own).
    """

    def __init__(self, venue: VenueConfig, players: list[str], seed: int,
                 state_dir: Path, live: bool = False, wall: Any = time.time) -> None:
        self.venue = venue
        self.state_dir = state_dir
        self.live, self.wall = live, wall
        self.events: queue.Queue[Any] = queue.Queue()
        self.users = {t.number: t.username for t in venue.tables}
        levels, chips = levels_of(venue.structure)
        self.journal = DirectorJournal(state_dir / "director.sqlite3")
        #: the night id every message carries (minted with a new journal: a new night)
        self.night, fresh = self.journal.night(mint_night(wall()))
        night = {"players": players, "seed": seed, "chips": chips,
                 "levels": [list(lv) for lv in levels], "tables": venue.seats,
                 "break_order": list(venue.break_order),
                 "max_difference": venue.max_difference}
        begun = self.journal.begin(night | ({"live": True} if live else {}))
        #: wall seconds of the live clock's start (journaled: a restart keeps the time)
        self.clock_start = self.journal.clock_start(wall()) if live else 0.0
        setup = VenueSetup(tuple(venue.seats), venue.break_order, venue.max_difference,
                           levels)
        begin, self.step = (venue_live.start, venue_live.step) if live else (start, step)
        self.state: VenueState
        self.state, orders = begin(setup, begun["players"], begun["chips"], begun["seed"])
        self.held = HeldOrders(self.users)
        self.origins: dict[str, int] = {}  # player -> the table a move came from
        self.structure = load_structure(venue.structure)
        for table, seq, kind, args in self.journal.reports():
            if table == ENTRY_ROW:  # a late entry, taken between two reports
                self.state = enter(self.state, *args)
                continue
            self._note_origins()
            if table == CLOCK_ROW:
                self.state, more = CLOCK_KINDS[kind](self.state, *args)
            else:
                self.state, more = self.step(self.state, table, seq, kind, args)
            orders += more
        self.entries = sum(1 for row in self.journal.reports() if row[0] == ENTRY_ROW)
        self.clock_rows = sum(1 for row in self.journal.reports() if row[0] == CLOCK_ROW)
        #: the retained state's seq: above the registration's (pi_app/venue/registration.py)
        self.published = self.journal.count() + len(self.journal.presences()) + 2
        self.clock_sent: tuple[int, int, bool] | None = None
        self.state_mid = 0  #: the link's message id of the last state published
        self.clock_seq, self.clock_at = 0, 0.0
        marks = {(self.night, self.users[n], report_topic(n)): t.report_mark
                 for n, t in self.state.tables.items() if t.report_mark}
        self.node = VenueNode(venue.broker_url, username=venue.director_username,
                              password=read_password(venue.director_password_file,
                                                     "director.password_file"),
                              director=venue.director_username, tables=self.users,
                              subscriptions=(f"{ROOT}/table/+/report",
                                             f"{ROOT}/presence/+"),
                              put=self.events.put, marks=marks, ca_file=venue.ca_file,
                              night=self.night, clean_start=fresh)
        self.online: dict[str, bool] = {}
        self.link_down = False  # said on stderr that the broker cannot be reached
        #: called on the loop's thread after each event (the venue console's push)
        self.observer: Callable[[Director], None] | None = None
        self._send([o for o in orders if o.seq > self.state.tables[o.table].acked])
        self._publish()

    # ------------------------------------------------------------------ the loop
    def run(self, timeout: float | None = None) -> dict[str, Any]:
        """Play the venue to a winner (or until ``timeout`` seconds pass: TimeoutError);
        returns the result and writes it to ``result.json``."""
        self.node.start()
        self._observe()
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while self.state.phase != "over":
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError("the venue did not finish in time")
                try:
                    event = self.events.get(timeout=TICK if self.live else 0.5)
                except queue.Empty:
                    event = None
                self.node.tick(time.monotonic())
                if event is not None:
                    self.handle(event)
                    self._observe()
                if self.live:
                    self.tick()
            result = self.state.result()
            self._write_json("prizes.json", self.prizes())
            self._write_result(result)
            self._observe()
            self._publish_final()
            return result
        finally:
            self.node.close()
            self.journal.close()

    def _observe(self) -> None:
        if self.observer is not None:
            self.observer(self)

    def handle(self, event: Any) -> None:
        """Apply one event of the node's queue (a table's message, or a console's
        request: :class:`pi_app.venue.entry.Entry`, a late entry)."""
        if isinstance(event, Presence):
            self._presence(event)
        elif isinstance(event, Entry):
            event.answer(self.enter, event.name)
        elif isinstance(event, Start):
            event.answer(_started)
        elif isinstance(event, ClockRequest):
            event.answer(self.clock_command, "pause" if event.pause else "resume")
        elif isinstance(event, LinkStatus):
            self._link_status(event)
        elif isinstance(event, Delivered):
            self._report(event)

    # ------------------------------------------------------------------ entries, prizes
    def entered(self) -> list[str]:
        """Every player entered: in, out, or entering at the next boundary."""
        s = self.state
        return sorted([*s.chips, *s.places, *(p for p, _c in s.entering)])

    def enter(self, name: str) -> tuple[str, int]:
        """A late entry of ``name`` (TDA 7), with the starting stack less the late
        deduction of the level being played: journaled, then taken; seated at the next
        boundary into a table with the fewest players.  Returns (name, chips).

        Raises:
            engine.text.UnsafeTextError, EntryError, SeatingError, VenueStateError: a bad
                or taken name, registration closed, the final table drawn, no seat left
                (nothing journaled, nothing changed).
        """
        name = check_entry_name(name, self.entered())
        chips = late_entry_chips(self.structure, self.state.clock.level_args()[0])
        new = enter(self.state, name, chips)
        self.entries += 1
        self.journal.append(ENTRY_ROW, self.entries, "enter", (name, chips))
        self.state = new
        self.published += 1
        self._publish()
        return name, chips

    def prizes(self) -> dict[str, Any]:
        """The prize pool, the payout table and the results so far (place, player, prize),
        in whole currency units, by the structure's payout rules
        (:mod:`engine.tournament.venue_prizes`)."""
        s = self.state
        entries = len(set(s.chips) | set(s.places))  # the winner is in both at the end
        return {"prize_pool": prize_pool(self.structure, entries),
                "payouts": [list(p) for p in payouts(self.structure, entries)],
                "results": [list(r) for r in results(self.structure, entries, s.places)]}

    def _presence(self, p: Presence) -> None:
        """A table's presence: journaled when it changes, then its held commands go (back
        online) or the next ones wait (offline); the state shows them pending."""
        self.online[p.username] = p.online
        log.info("venue: %s is %s", p.username, "online" if p.online else "offline")
        if not self.held.changes(p.username, p.online):
            return
        self.journal.presence(p.username, p.online)
        released = self.held.presence(p.username, p.online)
        for o in released:
            self.node.send(command_topic(o.table), o.seq, order_message(o), o.for_hand)
        table = self.held.table_of[p.username]
        if not p.online and self.state.seating.table(table).status != "broken":
            log.warning("venue: %s is offline: its commands are held until it is back",
                        p.username)
        self.published += 1
        self._publish()

    def _link_status(self, status: LinkStatus) -> None:
        """One WARNING line (stderr under the command) when the director cannot log in to
        the broker, the first failed attempt only (the link keeps retrying every second
        or two), and one when it is logged in after that."""
        if status.online:
            if self.link_down:
                log.warning("venue: logged in to the broker at %s", self.venue.broker_url)
            self.link_down = False
        elif not self.link_down:
            self.link_down = True
            log.warning("venue: cannot log in to the broker at %s as %s: %s; still trying",
                        self.venue.broker_url, self.venue.director_username, status.reason)
        log.info("venue: the broker link: %s", status.reason)

    def _report(self, d: Delivered) -> None:
        table = int(d.topic.split("/")[3])
        kind, args = d.envelope.kind, body_args(d.envelope.body)
        if kind not in REPORT_KINDS:
            return
        self._note_origins()
        try:
            new, orders = self.step(self.state, table, d.envelope.seq, kind, args)
        except VenueStateError as exc:
            log.warning("venue: refused report %d of table %d (%s): %s", d.envelope.seq,
                        table, kind, exc)
            return
        self.journal.append(table, d.envelope.seq, kind, args)
        self.state = new
        self._send(orders)
        for number, track in self.state.tables.items():
            self.node.acknowledge(command_topic(number), track.acked)
        self.published += 1
        self._publish()

    def clock_command(self, kind: str) -> dict[str, Any]:
        """Pause (``kind`` ``pause``) or resume the live clock now: journaled (a clock row
        with the wall ms since the start), then applied; each open table gets ``signal
        pause``/``resume`` and the retained clock says it (:func:`venue_live.pause`: no
        ``go`` while paused, the hands in play finish).  Returns ``{"running",
        "remaining_ms"}``.

        Raises:
            ClockRefused: paused already, not paused, the night over, or a rounds night
                (its clock runs on the tables' hand times): nothing journaled.
        """
        if not self.live:
            raise ClockRefused("the simulated venue's clock runs on the hands: no pause")
        elapsed = self._elapsed()
        try:
            new, orders = CLOCK_KINDS[kind](self.state, elapsed)
        except VenueStateError as exc:
            raise ClockRefused(str(exc)) from None
        self.clock_rows += 1
        self.journal.append(CLOCK_ROW, self.clock_rows, kind, (elapsed,))
        self.state = new
        self._send(orders)
        self.published += 1
        self._publish(force=True)
        log.info("venue: the clock is %s with %d ms left", "paused" if kind == "pause"
                 else "running", new.clock.remaining_ms())
        return {"running": kind == "resume", "remaining_ms": new.clock.remaining_ms()}

    def _elapsed(self) -> int:
        return max(0, round((self.wall() - self.clock_start) * 1000))

    def tick(self) -> None:
        """The live clock on wall time: a level that ends is journaled (a clock row)
        before its ``level`` commands go out; the clock is published when it changed
        level and every :data:`CLOCK_EVERY` seconds (retained)."""
        elapsed = self._elapsed()
        new, orders = venue_live.tick(self.state, elapsed)
        if orders:
            self.clock_rows += 1
            self.journal.append(CLOCK_ROW, self.clock_rows, "clock", (elapsed,))
        self.state = new
        self._send(orders)
        if orders:
            self.published += 1
            self._publish(force=True)
        elif time.monotonic() - self.clock_at >= CLOCK_EVERY:
            self._publish_clock()

    # ------------------------------------------------------------------ out
    def _note_origins(self) -> None:
        """Remember where each player in transit comes from (a held seat shows it)."""
        self.origins.update((p, m.from_table) for p, m in self.state.transit.items())

    def _send(self, orders: list[Order]) -> None:
        for o in self.held.route(orders, self.origins):
            self.node.send(command_topic(o.table), o.seq, order_message(o), o.for_hand)

    def _publish(self, force: bool = False) -> int:
        """Publish the retained state (and the clock when it changed); the state's mid."""
        s = self.state
        if self._clock_now() != self.clock_sent or force:
            self._publish_clock()
        self.state_mid = self.node.send(STATE_TOPIC, self.published,
                                        public_state(s, self.held.pending()))
        return self.state_mid

    def _publish_final(self) -> None:
        """The night over: the clock once more if it changed (it stops), then up to
        :data:`FINAL_WAIT` seconds for the broker to take it and the last state, which
        was published when the night ended (published again with the same seq, it would
        be a replay at every table)."""
        mids = [self.state_mid]
        if self._clock_now() != self.clock_sent:
            mids.append(self._publish_clock())
        for mid in mids:
            self.node.link.wait_acknowledged(mid, FINAL_WAIT)

    def _clock_now(self) -> tuple[int, int, bool]:
        """The clock as the tables are sent it: (level position, ms left, running)."""
        s = self.state
        return (s.clock.position, s.clock.remaining_ms(),
                s.phase != "over" and s.paused_at is None)

    def _publish_clock(self) -> int:
        """Publish the retained clock (its seq rising); its mid."""
        s = self.state
        clock = self._clock_now()
        seq = max(self.clock_seq + 1, self.published)
        if self.live:  # rising across restarts: the wall clock's milliseconds
            seq = max(self.clock_seq + 1, round(self.wall() * 1000))
            self.clock_at = time.monotonic()
        self.clock_seq = seq
        self.clock_sent = clock
        return self.node.send(CLOCK_TOPIC, seq, messages.Clock(s.clock.level_args()[0],
                                                               clock[2], clock[1]))

    def _write_result(self, result: dict[str, Any]) -> None:
        self._write_json("result.json", result)

    def _write_json(self, name: str, value: dict[str, Any]) -> None:
        path = self.state_dir / name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(value, separators=(",", ":")) + "\n")
        os.replace(tmp, path)


def _started() -> None:
    raise EntryError("the tournament has started")


def public_state(s: VenueState, held: list[tuple[str, int, int]] | None = None
                 ) -> messages.VenueState:
    """The retained ``venue_state`` of the director's state (names, tables, seats only);
    ``held``: (player, from table, to table) of each seat held for an offline table,
    shown pending with the moves in transit."""
    moving = set(s.transit) | {p for p, _f, _t in held or ()}
    seated = tuple((p, t, seat) for p, (t, seat) in sorted(s.seating.seated().items())
                   if p not in moving)
    broken = tuple(n for n in s.seating.break_order
                   if s.seating.table(n).status == "broken")
    pending = sorted(set(s.pending()) | set(held or ()))
    return messages.VenueState(
        s.round, seated, tuple(pending),
        tuple(sorted(s.places.items(), key=lambda kv: (kv[1], kv[0]))),
        tuple((n, t.report_mark) for n, t in sorted(s.tables.items())), broken,
        s.seating.final_table or 0, s.phase == "over", s.planned)
