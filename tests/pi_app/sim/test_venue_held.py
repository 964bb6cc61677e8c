"""A table process that stops (SIGKILL: its will says offline) before the director draws
the seats: the director holds every command for it and publishes none (a spy on its
command topic sees nothing), its retained state shows the players drawn there as pending;
when the table's process is back (resumed from its journal) the held commands go out, in
order, and the night plays to a winner with every player placed (pi_app/venue/held.py,
through a real Mosquitto and the simulated venue's processes)."""

from __future__ import annotations

import queue

from pi_app.sim.venue import SimVenue, VenueSimOptions
from pi_app.venue.config import read_password
from pi_app.venue.link import Received, VenueLink
from pi_app.venue.messages import decode
from pi_app.venue.node import STATE_TOPIC, command_topic
from tests.pi_app.venue.venue_fixture import events_until
from tests.ports import free_port

TIMEOUT = 1200.0  # seconds: generous for a loaded machine
WAIT = 30.0


def _collect(events: queue.Queue[object], seconds: float) -> list[tuple[str, bytes]]:
    return [(ev.topic, ev.payload) for ev in events_until(events, seconds, Received)]


def _until(events: queue.Queue[object], topic: str, payload: bytes) -> None:
    for ev in events_until(events, WAIT, Received, poll=0.2):
        if ev.topic == topic and ev.payload == payload:
            return
    raise AssertionError(f"{topic} never said {payload!r}")


def test_commands_for_a_stopped_table_process_are_held_and_sent_once_it_is_back(tmp_path):
    venue = SimVenue(tmp_path, VenueSimOptions(tables=2, players=10, seed=3,
                                               timeout=TIMEOUT, broker_port=free_port()))
    events: queue.Queue[object] = queue.Queue()
    spy = None
    try:
        venue.start_broker()
        spy = VenueLink(venue.url, client_id="pokertable-spy", username="director",
                        password=read_password(venue.venue.director_password_file),
                        subscriptions=(command_topic(2), STATE_TOPIC,
                                       "pokertable/1/presence/table2"),
                        put=events.put).start()
        assert spy.wait_ready(WAIT)
        venue.start_table(1)
        venue.start_table(2)
        _until(events, "pokertable/1/presence/table2", b"online")
        venue.kill(venue.tables[2])  # the Pi loses power: its will says offline
        _until(events, "pokertable/1/presence/table2", b"offline")
        venue.start_director()
        seen = _collect(events, 8.0)
        assert [t for t, _p in seen if t == command_topic(2)] == []  # held, not published
        states = [decode(p).body for t, p in seen if t == STATE_TOPIC]
        assert states, "the director published no state"
        pending = [row for row in states[-1].pending if row[2] == 2]
        assert pending and all(f == 2 for _p, f, _t in pending)  # drawn there, held
        seated_at_2 = [row for row in states[-1].seated if row[1] == 2]
        assert seated_at_2 == []  # not shown seated before the table has them
        venue.start_table(2, resume=True)  # back
        back = _collect(events, 6.0)
        commands = [decode(p) for t, p in back if t == command_topic(2)]
        first = sorted({e.seq: e.kind for e in commands}.items())[:len(pending) + 1]
        assert [k for _s, k in first] == ["level"] + ["seat"] * len(pending)
        assert [s for s, _k in first] == list(range(1, len(pending) + 2))  # in order
        result = venue.result()
        assert len(result["places"]) == 10 and sorted(result["places"].values())[0] == 1
    finally:
        if spy is not None:
            spy.close()
        venue.stop()
