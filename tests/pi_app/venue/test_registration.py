"""The director's registration (pi_app/venue/registration.py) against a real Mosquitto on
a loopback port: tonight's retained state and clock reach a table once, so a normal night
logs no replay on any table."""

from __future__ import annotations

import logging
import queue

import pytest

from pi_app.venue import node as node_module
from pi_app.venue.broker import LocalBroker
from pi_app.venue.config import load_venue
from pi_app.venue.director_journal import DirectorJournal
from pi_app.venue.messages import Clock, VenueState
from pi_app.venue.node import CLOCK_TOPIC, STATE_TOPIC, Delivered, Joined, VenueNode
from pi_app.venue.registration import REGISTRATION_SEQ, announce_night
from tests.pi_app.venue.test_broker import WAIT
from tests.pi_app.venue.venue_fixture import events_until, password, write_venue
from tests.ports import free_port

QUIET = 2.0  #: seconds without a copy after the first state and clock


@pytest.fixture
def venue(tmp_path):
    config = load_venue(write_venue(tmp_path, 2, 6, free_port()))
    broker = LocalBroker(config, tmp_path / "broker", port=config.broker_port).start()
    journal = DirectorJournal(tmp_path / "director-state" / "director.sqlite3")
    nodes: list[VenueNode] = []

    def table(number: int) -> tuple[VenueNode, queue.Queue[object]]:
        """A table with a new journal: it joins the first night that runs."""
        events: queue.Queue[object] = queue.Queue()
        user = f"table{number}"
        node = VenueNode(broker.url, username=user, password=password(config, user),
                         director="director", tables={1: "table1", 2: "table2"},
                         subscriptions=(STATE_TOPIC, CLOCK_TOPIC), put=events.put,
                         joins=True).start()
        nodes.append(node)
        assert node.wait_ready(WAIT)
        return node, events

    yield config, journal, table, nodes
    for n in nodes:
        n.close()
    journal.close()
    broker.stop()


def _until_both_then_quiet(events: queue.Queue[object]) -> list[object]:
    """The Delivered and Joined events until the state and the clock have come, and then
    for :data:`QUIET` seconds more (a second copy follows the first within milliseconds)."""
    got: list[object] = []
    for ev in events_until(events, WAIT, (Delivered, Joined)):
        got.append(ev)
        if {d.topic for d in got if isinstance(d, Delivered)} == {STATE_TOPIC, CLOCK_TOPIC}:
            break
    return got + list(events_until(events, QUIET, (Delivered, Joined)))


def _replays(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == node_module.__name__ and "a replay of" in r.getMessage()]


@pytest.mark.parametrize("table_first", [True, False], ids=["table-waiting", "table-later"])
def test_a_table_gets_tonights_state_and_clock_once_and_logs_no_replay(venue, caplog,
                                                                      table_first):
    config, journal, table, nodes = venue
    caplog.set_level(logging.INFO, logger=node_module.__name__)
    waiting = table(1) if table_first else None
    director = announce_night(config, journal)
    nodes.append(director)
    assert director.wait_ready(WAIT)
    _node, events = waiting or table(2)
    got = _until_both_then_quiet(events)
    delivered = [(d.topic, d.envelope.seq, type(d.envelope.body)) for d in got
                 if isinstance(d, Delivered)]
    assert sorted(delivered) == [(CLOCK_TOPIC, REGISTRATION_SEQ, Clock),
                                 (STATE_TOPIC, REGISTRATION_SEQ, VenueState)]
    assert [j.night for j in got if isinstance(j, Joined)] == [director.night]
    assert _replays(caplog) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
