"""The simulated venue (pi_app/sim/venue.py, ``pokertable sim --venue``): a real Mosquitto,
the director and the tables as separate processes, played to a winner; and its options
refused in one line; faults mid-night (the director SIGKILLed and resumed from its
journal, the broker killed and restarted) end the same as the uninterrupted night, every
chip accounted for (the director checks the venue's chips after every report).  The size is modest (two tables, ten players) so it runs in minutes
on a loaded 2-core machine; the README's size is run by hand (docs/venue.md)."""

from __future__ import annotations

import json
import queue
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_app.sim.venue import SimVenue, VenueSimError, VenueSimOptions
from pi_app.venue.link import Received, VenueLink
from tests.pi_app.cli.helpers import assert_one_error_line, run_main
from tests.ports import free_port

TIMEOUT = 1200.0  # seconds: generous for a loaded machine
FAULT_AT = 60     # reports applied by the director before the fault (a night: ~400)


def _play(folder, seed: int, fault=None) -> dict:
    """One simulated venue of two tables and ten players; ``fault(venue)`` is called once
    the director has applied :data:`FAULT_AT` reports."""
    venue = SimVenue(folder, VenueSimOptions(tables=2, players=10, seed=seed,
                                             timeout=TIMEOUT, broker_port=free_port()))
    try:
        venue.start()
        if fault is not None:
            journal = folder / "director" / "director.sqlite3"
            deadline = time.monotonic() + TIMEOUT
            while _applied(journal) < FAULT_AT and time.monotonic() < deadline:
                time.sleep(0.1)
            fault(venue)
        return venue.result()
    finally:
        venue.stop()


def _applied(journal: Path) -> int:
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM reports").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created yet


def test_a_simulated_venue_plays_to_a_winner_the_same_way_for_a_seed(tmp_path):
    heard: queue.Queue[object] = queue.Queue()
    venue = SimVenue(tmp_path / "first", VenueSimOptions(tables=2, players=10, seed=1,
                                                         timeout=TIMEOUT,
                                                         broker_port=free_port()))
    try:
        venue.start_broker()
        secret = (tmp_path / "first" / "secrets" / "director.password").read_text().strip()
        sniffer = VenueLink(venue.url, client_id="test-sniffer", username="director",
                            password=secret, subscriptions=("#",), put=heard.put).start()
        assert sniffer.wait_ready(30)
        venue.start_director()
        for table in venue.venue.tables:
            venue.start_table(table.number)
        result = venue.result()
        sniffer.close()
    finally:
        venue.stop()
    assert sorted(result) == ["hands_played", "history_sha256", "moves", "places",
                              "tables_broken"]
    places = result["places"]
    assert sorted(places) == [f"P{i:02d}" for i in range(1, 11)]
    assert list(places.values()).count(1) == 1 and max(places.values()) <= 10
    assert result["tables_broken"] == 1 and result["moves"] >= 1
    kinds = set()
    while not heard.empty():
        ev = heard.get()
        if isinstance(ev, Received) and not ev.topic.split("/")[2] == "presence":
            kinds.add(json.loads(ev.payload)["kind"])
    # what the venue says crossed the broker: commands, reports, retained state
    assert {"seat", "go", "hand_finished", "moved", "venue_state", "table_public"} <= kinds
    done = subprocess.run(
        [sys.executable, "-m", "pi_app.cli.main", "sim", "--venue", "--tables", "2",
         "--players", "10", "--seed", "1", "--until-winner", "--json"],
        capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert list(json.loads(last)) == ["hands_played", "places", "moves", "tables_broken",
                                      "history_sha256"]
    assert json.loads(last) == result  # the same seed, the same night


def _kill_the_director(venue: SimVenue) -> None:
    venue.kill(venue.director)
    venue.start_director()


def _kill_the_broker(venue: SimVenue) -> None:
    assert venue.broker is not None
    venue.broker.kill()
    time.sleep(2.0)  # the tables play on; their reports wait
    venue.broker.start()


@pytest.mark.parametrize("fault", [_kill_the_director, _kill_the_broker],
                         ids=["director SIGKILLed", "broker killed"])
def test_a_fault_mid_night_ends_with_the_same_places_and_every_chip(tmp_path, fault):
    plain = _play(tmp_path / "plain", 2)
    faulted = _play(tmp_path / "fault", 2, fault)
    assert faulted["places"] == plain["places"]
    assert faulted == plain  # nothing in the night depends on the fault's timing


@pytest.mark.parametrize("argv, fragment", [
    (["--tables", "2", "--players", "19"], "--players must be 2..18 at 2 tables of 9"),
    (["--broker", "mqtt://127.0.0.1:1"], "--broker URL goes with --venue-config"),
    (["--hands", "3"], "--hands does not apply"),
])
def test_bad_venue_options_are_one_line_and_exit_2(capsys, argv, fragment):
    rc, _, err = run_main(["sim", "--venue", *argv], capsys)
    assert rc == 2
    assert_one_error_line(err, fragment)


def test_the_options_check_their_sizes():
    with pytest.raises(VenueSimError, match="--tables must be"):
        VenueSimOptions(tables=0).check()
    VenueSimOptions(tables=3, players=27).check()
