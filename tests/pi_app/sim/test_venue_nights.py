"""Two nights in a row on one broker (pi_app/sim/venue.py, pi_app/venue/node.py): the
second night needs only new state folders for the director and the tables, no broker
wipe.  Last night's retained finished state, its clock and its sessions stay on the
broker; the second night still plays to a winner, with the places the seed gives on a
fresh broker."""

from __future__ import annotations

import sqlite3
import time
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


def _abandon(first: SimVenue, night: str) -> None:
    """What a night abandoned mid-way leaves on the broker: its retained state, which
    still runs (players seated, no winner), and its running clock."""
    from pi_app.venue.link import VenueLink
    from pi_app.venue.messages import Clock, Envelope, VenueState, encode
    from pi_app.venue.node import CLOCK_TOPIC, STATE_TOPIC

    boss = VenueLink(first.url, client_id="pokertable-director", username="director",
                     password=first.venue.director_password_file.read_text().strip(),
                     subscriptions=(), put=lambda _e: None).start()
    try:
        assert boss.wait_connected(30)
        state = VenueState(12, (("P01", 1, 1), ("P02", 2, 1)), (), (), ((1, 40), (2, 38)),
                           (), 0, False)
        for topic, body in ((STATE_TOPIC, state), (CLOCK_TOPIC, Clock(3, True, 600_000))):
            mid = boss.publish(topic, encode(Envelope("director", 500, body, night=night)),
                               retain=True)
            assert boss.wait_acknowledged(mid, 30)
    finally:
        boss.close()


def _joined(journal: Path) -> list[str]:
    try:
        return joined_nights(journal)
    except sqlite3.Error:  # not made yet
        return []


def test_after_an_abandoned_night_tables_started_in_registration_play_the_next(tmp_path):
    """Night 1 ends without a winner: its running state stays retained.  Night 2's
    director, with a new state folder, puts its own night's state on the broker before
    registration (as ``pokertable director --console`` does), so tables with new
    journals, started while the players register, join night 2 and play it to a winner."""
    from pi_app.venue.director_journal import DirectorJournal
    from pi_app.venue.registration import announce_night

    first = SimVenue(tmp_path / "night1", VenueSimOptions(
        tables=2, players=10, seed=SEED, timeout=TIMEOUT, broker_port=free_port()))
    second = None
    last = "20261130-00000000000000aa"
    try:
        first.start_broker()
        _abandon(first, last)
        (tmp_path / "night2" / "director").mkdir(parents=True)
        second = SimVenue(tmp_path / "night2", VenueSimOptions(
            tables=2, players=10, seed=SEED, timeout=TIMEOUT, broker=first.url,
            config=str(first.path)))
        journal = DirectorJournal(tmp_path / "night2" / "director" / "director.sqlite3")
        node = announce_night(second.venue, journal)  # registration opens
        tonight = node.night
        assert tonight is not None and tonight != last
        for table in second.venue.tables:
            second.start_table(table.number)
        tables = [tmp_path / "night2" / f"table{n}.sqlite3" for n in (1, 2)]
        deadline = time.monotonic() + 120
        while any(_joined(t) != [tonight] for t in tables) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [_joined(t) for t in tables] == [[tonight]] * 2  # they joined in registration
        node.close()
        journal.close()
        second.start_director()  # the registration ends: the players are P01..P10
        night2 = second.result()
    finally:
        if second is not None:
            second.stop()
        first.stop()
    assert list(night2["places"].values()).count(1) == 1
    assert sorted(night2["places"]) == [f"P{i:02d}" for i in range(1, 11)]
    assert _night(tmp_path / "night2" / "director") == tonight
    for n in (1, 2):
        log = (tmp_path / "night2" / f"table{n}.log").read_text()
        assert "Traceback" not in log and "new state folder" not in log
