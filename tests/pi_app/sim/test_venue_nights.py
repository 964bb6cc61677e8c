"""Two nights in a row on one broker (pi_app/sim/venue.py, pi_app/venue/node.py): the
second night needs only new state folders for the director and the tables, no broker
wipe.  Last night's retained finished state, its clock and its sessions stay on the
broker; the second night still plays to a winner, with the places the seed gives on a
fresh broker."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pi_app.sim.venue import SimVenue, VenueSimOptions
from tests.pi_app.sim.venue_harness import joined_nights
from tests.ports import free_port

TIMEOUT = 1200.0  # seconds: generous for a loaded machine
SEED = 4


def _night(state: Path) -> str:
    with sqlite3.connect(f"file:{state / 'director.sqlite3'}?mode=ro", uri=True) as db:
        return str(db.execute("SELECT value FROM meta WHERE key = 'night'").fetchone()[0])


def test_a_second_night_on_the_same_broker_plays_to_the_same_winner(tmp_path):
    first = SimVenue(tmp_path / "night1", VenueSimOptions(
        tables=2, players=10, seed=SEED, timeout=TIMEOUT, broker_port=free_port()))
    second = None
    try:
        first.start()
        night1 = first.result()
        # the broker runs on with last night's retained state and sessions; the second
        # night has new state folders (the director's, the tables' journals) only
        (tmp_path / "night2").mkdir()
        second = SimVenue(tmp_path / "night2", VenueSimOptions(
            tables=2, players=10, seed=SEED, timeout=TIMEOUT, broker=first.url,
            config=str(first.path)))
        second.start()
        night2 = second.result()
    finally:
        if second is not None:
            second.stop()
        first.stop()
    assert night2 == night1  # the same places, moves and history as on a fresh broker
    assert list(night1["places"].values()).count(1) == 1
    ids = _night(tmp_path / "night1" / "director"), _night(tmp_path / "night2" / "director")
    assert ids[0] != ids[1]
    for n in (1, 2):
        assert joined_nights(tmp_path / "night1" / f"table{n}.sqlite3") == [ids[0]]
        assert joined_nights(tmp_path / "night2" / f"table{n}.sqlite3") == [ids[1]]
