"""Commands for an offline table are held by the director (pi_app/venue/held.py), shown
pending in its retained state, and sent once when the table is back: through a real
Mosquitto, with model tables (tests/pi_app/venue/venue_fixture.py) as table services."""

from __future__ import annotations

import queue
import threading

import pytest

from engine.tournament.structure_file import load_structure
from engine.tournament.venue import Order
from pi_app.venue.director import Director
from pi_app.venue.held import HeldOrders
from pi_app.venue.link import Received, VenueLink
from pi_app.venue.messages import decode
from pi_app.venue.node import STATE_TOPIC, command_topic
from tests.pi_app.venue.venue_fixture import ModelTableNode, Venue, events_until, password

PLAYERS = [f"P{i:02d}" for i in range(1, 11)]
WAIT = 10.0
TIMEOUT = 300.0


@pytest.fixture
def venue(tmp_path):
    v = Venue(tmp_path)
    yield v
    v.close()


class Spy:
    """A subscriber (as the director's user) to table 2's commands and the venue's state."""

    def __init__(self, venue: Venue) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.link = VenueLink(venue.broker.url, client_id="pokertable-spy",
                              username="director", password=password(venue.config,
                                                                     "director"),
                              subscriptions=(command_topic(2), STATE_TOPIC),
                              put=self.events.put).start()
        assert self.link.wait_ready(WAIT)
        self.commands: list[tuple[int, str]] = []  # (seq, kind) on table 2's topic
        self.state = None

    def drain(self, seconds: float) -> None:
        for ev in events_until(self.events, seconds, Received):
            env = decode(ev.payload)
            if ev.topic == STATE_TOPIC:
                self.state = env.body
            else:
                self.commands.append((env.seq, env.kind))


def test_seats_for_an_offline_table_are_held_shown_pending_and_sent_once_it_is_back(venue):
    venue.start_tables()
    assert all(n.node.wait_ready(WAIT) for n in venue.nodes)
    venue.nodes[1].close()  # table 2's process stops: its presence says offline
    venue.nodes = venue.nodes[:1]
    spy = Spy(venue)
    made: list[Director] = []
    results: list[dict] = []

    def director_thread() -> None:  # SQLite: the journal stays on the thread that made it
        made.append(Director(venue.config, PLAYERS, 5, venue.folder / "state"))
        results.append(made[0].run(TIMEOUT))

    thread = threading.Thread(target=director_thread)
    thread.start()
    try:
        spy.drain(3.0)
        director = made[0]
        assert spy.commands == []  # nothing published for table 2 while it is away
        assert spy.state is not None and not spy.state.finished
        held = [row for row in spy.state.pending if row[2] == 2]
        drawn = sorted(p for p, t, _seat in _draw(director) if t == 2)
        assert sorted(p for p, _from, _to in held) == drawn and drawn
        assert all(p not in {s[0] for s in spy.state.seated} for p in drawn)
        back = ModelTableNode(venue.config, 2, venue.seed).start()  # table 2 is back
        venue.nodes.append(back)
        thread.join(TIMEOUT)
        assert results and sorted(results[0]["places"]) == PLAYERS
        spy.drain(1.0)
    finally:
        thread.join(TIMEOUT)
        spy.link.close()
    first = spy.commands[:len(drawn) + 1]  # the held ones, in order: level, then seats
    assert [kind for _seq, kind in first] == ["level"] + ["seat"] * len(drawn)
    assert [seq for seq, _kind in first] == list(range(1, len(drawn) + 2))
    assert [e for n in venue.nodes for e in n.errors] == []  # each applied once
    assert venue.chips_at_tables() == load_structure("mini").starting_stack * len(PLAYERS)


def _draw(director: Director) -> list[tuple[str, int, int]]:
    return [(p, t, seat) for p, (t, seat) in director.state.seating.seated().items()]


def test_held_orders_wait_for_their_table_and_go_in_order():
    held = HeldOrders({1: "table1", 2: "table2"})
    assert held.changes("table1", True) and not held.changes("table1", False)
    assert not held.changes("director", True)  # not a table: nothing to hold
    held.presence("table1", True)
    orders = [Order(2, 1, 0, "level", (0, 25, 50, 0)), Order(2, 2, 0, "seat", ("Ann", 3, 900,
                                                                               "draw")),
              Order(1, 7, 4, "move", ("Bo", 2, 2, 5)), Order(2, 3, 4, "seat", ("Bo", 5, 800,
                                                                               "balance"))]
    assert held.route(orders, {"Bo": 1}) == [orders[2]]
    assert held.pending() == [("Ann", 2, 2), ("Bo", 1, 2)] and held.count(2) == 3
    assert held.presence("table2", False) == []  # still away
    assert held.presence("table2", True) == [orders[0], orders[1], orders[3]]
    assert held.pending() == [] and held.count(2) == 0
    assert held.presence("table2", True) == []  # released once
    held.presence("table1", False)
    assert held.route([orders[2]], {}) == [] and held.count(1) == 1
