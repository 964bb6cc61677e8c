"""The live director (pi_app/venue/director.py with ``live``, ``pokertable director``
without ``--rounds``) through a real Mosquitto: a venue of model tables played to a winner
with each table's boundary answered as it arrives, and the clock on wall time: a level
that ends is journaled and sent to every table, the clock is republished at least every
5 s, and a restarted director keeps the clock's start and the commands' numbers."""

from __future__ import annotations

import json
import logging

from engine.tournament.structure_file import load_structure
from pi_app.venue.director import CLOCK_ROW, Director
from tests.pi_app.venue.test_director import (
    PLAYERS,
    TIMEOUT,
    check_result,
    kill_mid_night_and_resume,
)
from tests.pi_app.venue.venue_fixture import Venue, clock_listener, last_clock


def test_the_live_director_plays_a_venue_to_a_winner_through_the_broker(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="pi_app.venue.node")
    venue = Venue(tmp_path)
    try:
        venue.start_tables()
        director = Director(venue.config, PLAYERS, 5, venue.folder / "state", live=True)
        result = director.run(TIMEOUT)
        check_result(result, PLAYERS)
        assert result["tables_broken"] == 1
        chips = load_structure("mini").starting_stack * len(PLAYERS)
        assert venue.chips_at_tables() == chips
        assert all(n.finished.wait(10) for n in venue.nodes)
        assert [e for n in venue.nodes for e in n.errors] == []
    finally:
        venue.close()
    stored = json.loads((venue.folder / "state" / "result.json").read_text())
    assert stored == result
    # each message of the director reached each table once: a normal night logs no replay
    # (the first state, kept until the connection, and the last, not published again)
    assert [r.getMessage() for r in caplog.records if "a replay of" in r.getMessage()] == []


class Wall:
    """A wall clock the test moves (seconds)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _gunpowder(venue: Venue) -> None:
    venue.path.write_text(venue.path.read_text().replace('"mini"', '"gunpowder"'))


def test_the_live_clock_runs_on_wall_time_is_journaled_and_republished(tmp_path):
    venue = Venue(tmp_path)
    _gunpowder(venue)
    from pi_app.venue.config import load_venue

    config = load_venue(venue.path)
    wall = Wall(1_000_000.0)
    state = venue.folder / "state"
    try:
        d = Director(config, PLAYERS, 5, state, live=True, wall=wall)
        first = d.clock_seq  # published as it starts
        sent: list = []
        send = d._send
        d._send = lambda orders: (sent.extend(orders), send(orders))  # type: ignore
        d.tick()
        assert d.clock_seq == first  # less than 5 s since: not again
        d.clock_at -= 5.0
        d.tick()
        assert d.clock_seq > first  # republished (retained) after 5 s
        wall.t += 600.0  # the first level (10 minutes) is over
        d.tick()
        assert d.state.clock.position == 1
        rows = [r for r in d.journal.reports() if r[0] == CLOCK_ROW]
        assert rows == [(CLOCK_ROW, 1, "clock", (600_000,))]
        assert sorted((o.table, o.kind, o.args[0]) for o in sent) == [
            (1, "level", 1), (2, "level", 1)]  # blinds up next hand, at each table
        numbers = {n: t.next_seq for n, t in d.state.tables.items()}
        last_clock = d.clock_seq
        d.node.close()
        d.journal.close()
        wall.t += 30.0
        again = Director(config, PLAYERS, 5, state, live=True, wall=wall)
        assert again.clock_start == 1_000_000.0 and again.state.clock.position == 1
        assert again.state.clock.remaining_ms() == 600_000  # replayed to the level's end
        again.tick()
        assert again.state.clock.remaining_ms() == 570_000  # the clock ran on meanwhile
        assert {n: t.next_seq for n, t in again.state.tables.items()} == numbers
        assert again.clock_seq > last_clock
        again.node.close()
        again.journal.close()
    finally:
        venue.close()


def test_a_live_director_killed_mid_night_resumes_and_every_chip_is_accounted_for(tmp_path):
    venue = Venue(tmp_path)
    try:
        venue.start_tables()
        result = kill_mid_night_and_resume(venue, rounds=False)
    finally:
        venue.close()
    check_result(result, PLAYERS)


def test_the_director_pauses_its_clock_through_the_broker_and_keeps_it_paused_on_restart(
        tmp_path):
    from pi_app.venue.config import load_venue
    from pi_app.venue.director_journal import DirectorJournal
    from pi_app.venue.entry import ClockRefused, ClockRequest

    venue = Venue(tmp_path)
    _gunpowder(venue)
    venue.config = config = load_venue(venue.path)
    wall = Wall(2_000_000.0)
    state = venue.folder / "state"
    link, got = clock_listener(venue)

    def director() -> Director:
        return Director(config, PLAYERS, 5, state, live=True, wall=wall)

    try:
        venue.start_tables()
        first = _Running(director, 6.0)
        wall.t += 90.0  # a minute and a half into the first level (10 minutes)
        answer = first.ask(ClockRequest(pause=True))  # as the console asks it
        assert answer == {"running": False, "remaining_ms": 510_000}
        hands = [n.model.hand for n in venue.nodes]
        first.join()
        assert [n.model.hand for n in venue.nodes] == hands  # no hand dealt while paused
        assert all(n.model.paused for n in venue.nodes)  # each table got signal pause
        journal = DirectorJournal(state / "director.sqlite3")
        assert [r for r in journal.reports() if r[0] == CLOCK_ROW] == [
            (CLOCK_ROW, 1, "pause", (90_000,))]  # journaled, the wall ms since the start
        journal.close()
        clock = last_clock(got)
        assert (clock.running, clock.remaining_ms) == (False, 510_000)
        wall.t += 600.0  # ten minutes pass with the director down: the clock is paused
        second = _Running(director, TIMEOUT)
        clock = last_clock(got)  # published again as the restarted director connects
        assert (clock.running, clock.remaining_ms) == (False, 510_000)
        try:
            second.ask(ClockRequest(pause=True))
            raise AssertionError("paused twice")
        except ClockRefused as exc:
            assert "paused already" in str(exc)
        assert second.ask(ClockRequest(pause=False)) == {"running": True,
                                                          "remaining_ms": 510_000}
        second.join()
        check_result(second.result, PLAYERS)  # the tables dealt again, to a winner
        assert not any(n.model.paused for n in venue.nodes)
    finally:
        link.close()
        venue.close()


class _Running:
    """A director made and run (``run(seconds)``: a TimeoutError ends it quietly) on a
    thread of its own (its journal stays on the thread that opened it)."""

    def __init__(self, make, seconds: float) -> None:
        import threading

        self.result: dict | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(make, seconds))
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self, make, seconds: float) -> None:
        self.director = make()
        self.ready.set()
        try:
            self.result = self.director.run(seconds)
        except TimeoutError:
            pass

    def ask(self, request):
        self.director.events.put(request)
        return request.wait(10)

    def join(self) -> None:
        self.thread.join(TIMEOUT + 30)
        assert not self.thread.is_alive()
