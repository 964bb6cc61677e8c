"""A node of the venue (pi_app/venue/node.py) against a real Mosquitto on a loopback port:
each message applied once whatever the broker does, bad messages changing nothing and
logged once, unacknowledged messages sent again after a reconnect, presence."""

from __future__ import annotations

import json
import logging
import queue
import time

import pytest

from pi_app.venue import node as node_module
from pi_app.venue.broker import ROOT, LocalBroker
from pi_app.venue.link import LinkStatus, VenueLink
from pi_app.venue.messages import (
    Applied,
    Envelope,
    Go,
    MessageError,
    SeatPlayer,
    VenueState,
    encode,
)
from pi_app.venue.node import (
    RESEND_SECONDS,
    STATE_TOPIC,
    Delivered,
    Presence,
    VenueNode,
    command_topic,
    report_topic,
)
from tests.pi_app.venue.test_broker import WAIT, _venue
from tests.pi_app.venue.venue_fixture import events_until
from tests.ports import free_port

TABLES = {1: "table1", 2: "table2"}
NIGHT = "20261201-0123456789abcdef"
LAST_NIGHT = "20261130-fedcba9876543210"


class Owner:
    """A node and the owner's queue it fills."""

    def __init__(self, url: str, user: str, password: str, subs: tuple[str, ...],
                 marks=None, **night):
        self.events: queue.Queue[object] = queue.Queue()
        night = night or {"night": NIGHT}
        self.node = VenueNode(url, username=user, password=password, director="director",
                              tables=TABLES, subscriptions=subs, put=self.events.put,
                              marks=marks, **night).start()
        assert self.node.wait_ready(WAIT)

    def delivered(self, timeout: float = 2.0) -> list[Delivered]:
        """What was delivered until ``timeout`` passes with nothing new."""
        return list(events_until(self.events, timeout, Delivered, quiet=0.5))

    def wait_for(self, cls: type, timeout: float = WAIT, **match) -> object:
        for ev in events_until(self.events, timeout, cls):
            if all(getattr(ev, k) == v for k, v in match.items()):
                return ev
        raise AssertionError(f"no {cls.__name__} {match}")


@pytest.fixture
def venue(tmp_path):
    cfg, users = _venue(tmp_path)
    broker = LocalBroker(cfg, tmp_path / "broker", port=free_port()).start()
    owners: list[Owner] = []
    links: list[VenueLink] = []

    def owner(user: str, *subs: str, marks=None, **night) -> Owner:
        o = Owner(broker.url, user, users[user], subs, marks, **night)
        owners.append(o)
        return o

    def raw_link(user: str) -> VenueLink:
        link = VenueLink(broker.url, client_id=f"raw-{user}", username=user,
                         password=users[user], subscriptions=(), put=lambda _e: None).start()
        assert link.wait_connected(WAIT)
        links.append(link)
        return link
    yield broker, owner, raw_link
    for o in owners:
        o.node.close()
    for link in links:
        link.close()
    broker.stop()


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == node_module.__name__ and r.levelno == logging.WARNING]


def test_commands_arrive_in_order_once_and_a_resent_copy_is_applied_once(venue, caplog):
    _broker, owner, _raw = venue
    table = owner("table1", command_topic(1))
    director = owner("director", f"{ROOT}/table/+/report")
    for seq in (1, 2):
        director.node.send(command_topic(1), seq, SeatPlayer(f"P0{seq}", seq, 100, "draw"), 0)
    assert [d.envelope.seq for d in table.delivered()] == [1, 2]
    caplog.set_level(logging.WARNING)
    assert director.node.resend() == 2  # nothing acknowledged yet: both again
    assert table.delivered() == []
    assert len(_warnings(caplog)) == 2 and all("replay of director" in w
                                               for w in _warnings(caplog))
    assert director.node.resend() == 2  # resent again: each replay was said once
    assert table.delivered() == []
    assert len(_warnings(caplog)) == 2
    director.node.acknowledge(command_topic(1), 2)  # the table's applied 2
    assert director.node.unacknowledged(command_topic(1)) == []
    assert director.node.resend() == 0


def test_unacknowledged_reports_survive_a_broker_killed_and_arrive_once(venue):
    broker, owner, _raw = venue
    director = owner("director", f"{ROOT}/table/+/report")
    table = owner("table1", command_topic(1))
    broker.kill()
    table.wait_for(LinkStatus, online=False)
    for seq in (1, 2, 3):
        table.node.send(report_topic(1), seq, Applied(seq))
    broker.start()
    # the broker may have lost the director's subscription with its last second: the
    # director subscribes again when it connects, and the table's tick sends again
    assert director.node.wait_ready(WAIT) and table.node.wait_ready(WAIT)
    later = time.monotonic() + RESEND_SECONDS
    assert table.node.tick(later) == 3
    assert table.node.tick(later + 1) == 0  # not again before RESEND_SECONDS
    got = director.delivered(timeout=3.0)
    assert [(d.topic, d.envelope.seq) for d in got] == [(report_topic(1), s) for s in (1, 2, 3)]
    assert table.node.unacknowledged(report_topic(1)) == [1, 2, 3]
    table.node.acknowledge(report_topic(1), 3)
    assert table.node.unacknowledged(report_topic(1)) == []


def test_a_restarted_receiver_skips_what_its_journal_says_it_applied(venue):
    _broker, owner, _raw = venue
    director = owner("director", f"{ROOT}/table/+/report",
                     marks={(NIGHT, "table1", report_topic(1)): 2})
    table = owner("table1")
    for seq in (1, 2, 3):
        table.node.send(report_topic(1), seq, Applied(seq))
    assert [d.envelope.seq for d in director.delivered()] == [3]
    assert director.node.marks == {(NIGHT, "table1", report_topic(1)): 3}


def test_a_forged_sender_and_a_malformed_payload_change_nothing_and_log_once(venue, caplog):
    _broker, owner, raw_link = venue
    director = owner("director", f"{ROOT}/table/+/report")
    forger = raw_link("table1")
    caplog.set_level(logging.WARNING)
    forged = encode(Envelope("table2", 1, Applied(1), night=NIGHT))  # table1 claiming to be table2
    bad = [forged, b"{not json", json.dumps({"v": 1}).encode(),
           encode(Envelope("director", 1, Go(1), night=NIGHT))]      # a table forging a command
    for payload in bad:
        forger.wait_acknowledged(forger.publish(report_topic(1), payload), WAIT)
    genuine = encode(Envelope("table1", 1, Applied(7), night=NIGHT))
    forger.wait_acknowledged(forger.publish(report_topic(1), genuine), WAIT)
    got = director.delivered()
    assert [d.envelope for d in got] == [Envelope("table1", 1, Applied(7), night=NIGHT)]
    warnings = _warnings(caplog)
    assert len(warnings) == len(bad)
    assert all(report_topic(1) in w for w in warnings)
    assert "not a topic of 'table2'" in warnings[0] and "not a JSON message" in warnings[1]
    assert not any("{not json" in w for w in warnings)  # the reason, never the bytes
    assert director.node.marks == {(NIGHT, "table1", report_topic(1)): 1}


def test_retained_state_reaches_a_late_subscriber_and_is_resent_after_reconnect(venue):
    broker, owner, _raw = venue
    director = owner("director")
    state = VenueState(3, (("P01", 1, 2),), (), (("P02", 9),), ((1, 4),), (), 0, False)
    director.node.send(STATE_TOPIC, 5, state)
    table = owner("table1", f"{ROOT}/director/#")
    got = table.delivered()
    assert [(d.envelope.seq, d.envelope.body, d.retained) for d in got] == [(5, state, True)]
    broker.kill()  # may lose the retained message: the director publishes it again
    broker.start()
    director.wait_for(LinkStatus, online=True)
    late = owner("table2", f"{ROOT}/director/#")
    assert [d.envelope.body for d in late.delivered(timeout=WAIT)] == [state]


def test_presence_goes_on_the_owners_queue(venue):
    _broker, owner, raw_link = venue
    director = owner("director", f"{ROOT}/presence/+")
    link = raw_link("table2")
    assert director.wait_for(Presence, username="table2", online=True)
    link.close()
    assert director.wait_for(Presence, username="table2", online=False)


def test_presence_parse_refuses_other_topics_and_payloads():
    assert Presence.parse(f"{ROOT}/presence/table1", b"online") == Presence("table1", True)
    assert Presence.parse(f"{ROOT}/presence/table1", b"maybe") is None
    assert Presence.parse(f"{ROOT}/presence/#bad", b"online") is None


def _publish(link: VenueLink, topic: str, env: Envelope, retain: bool = False) -> None:
    assert link.wait_acknowledged(link.publish(topic, encode(env), retain=retain), WAIT)


def test_a_node_drops_another_nights_messages_logged_once_and_tonights_seq_1_is_new(
        venue, caplog):
    _broker, owner, raw_link = venue
    director = owner("director", f"{ROOT}/table/+/report")
    table1 = raw_link("table1")
    caplog.set_level(logging.WARNING)
    for seq in (1, 2):  # last night's table, still sending
        _publish(table1, report_topic(1), Envelope("table1", seq, Applied(seq),
                                                   night=LAST_NIGHT))
    _publish(table1, report_topic(1), Envelope("table1", 1, Applied(1), night=NIGHT))
    got = director.delivered()
    assert [(d.envelope.night, d.envelope.seq) for d in got] == [(NIGHT, 1)]
    others = [w for w in _warnings(caplog) if LAST_NIGHT in w]
    assert len(others) == 1 and "ignored the messages of night" in others[0]
    assert director.node.marks == {(NIGHT, "table1", report_topic(1)): 1}


def test_a_fresh_table_ignores_a_finished_night_and_joins_the_first_that_runs(venue, caplog):
    from pi_app.venue.node import Joined

    _broker, owner, raw_link = venue
    boss = raw_link("director")
    over = VenueState(40, (), (), (("P01", 1), ("P02", 2)), ((1, 9),), (1,), 1, True)
    _publish(boss, STATE_TOPIC, Envelope("director", 90, over, night=LAST_NIGHT), retain=True)
    caplog.set_level(logging.WARNING)
    table = owner("table1", command_topic(1), f"{ROOT}/director/#", night=None, joins=True)
    assert table.delivered(timeout=1.0) == []  # last night's finished state: not joined
    assert table.node.night is None
    with pytest.raises(MessageError, match="has not joined a night"):
        table.node.send(report_topic(1), 1, Applied(1))
    tonight = VenueState(0, (), (), (), (), (), 0, False)
    _publish(boss, STATE_TOPIC, Envelope("director", 1, tonight, night=NIGHT), retain=True)
    _publish(boss, command_topic(1), Envelope("director", 1, Go(1), 0, night=NIGHT))
    assert table.wait_for(Joined) == Joined(NIGHT)
    got = table.delivered()
    assert [(d.envelope.kind, d.envelope.seq) for d in got] == [("venue_state", 1), ("go", 1)]
    assert table.node.night == NIGHT
    _publish(boss, command_topic(1), Envelope("director", 7, Go(8), 7, night=LAST_NIGHT))
    assert table.delivered(timeout=1.0) == []
    lines = [w for w in _warnings(caplog) if LAST_NIGHT in w]
    assert len(lines) == 1 and "(its state says it is over;" in lines[0]  # once per night id


def test_a_running_state_of_another_night_is_told_to_the_owner_once(venue):
    from pi_app.venue.node import OtherNight

    _broker, owner, raw_link = venue
    boss = raw_link("director")
    table = owner("table1", f"{ROOT}/director/#", night=LAST_NIGHT, joins=True)
    running = VenueState(0, (), (), (), (), (), 0, False)
    for seq in (1, 2):
        _publish(boss, STATE_TOPIC, Envelope("director", seq, running, night=NIGHT),
                 retain=True)
    assert table.wait_for(OtherNight) == OtherNight(NIGHT, LAST_NIGHT)
    with pytest.raises(AssertionError):
        table.wait_for(OtherNight, timeout=1.0)
    assert table.delivered(timeout=0.5) == [] and table.node.night == LAST_NIGHT


def test_a_fresh_nodes_first_connection_drops_what_the_broker_queued_for_last_night(venue):
    """A command queued in table 1's persistent session reaches a node that resumes the
    session, and never one that starts clean (a new journal)."""
    _broker, owner, raw_link = venue
    boss = raw_link("director")
    first = owner("table1", command_topic(1), night=LAST_NIGHT)
    first.node.close()  # the session stays on the broker
    _publish(boss, command_topic(1), Envelope("director", 1, Go(1), 0, night=LAST_NIGHT))
    resumed = owner("table1", command_topic(1), night=LAST_NIGHT)
    assert [d.envelope.seq for d in resumed.delivered()] == [1]  # it was queued
    resumed.node.close()
    _publish(boss, command_topic(1), Envelope("director", 2, Go(2), 1, night=LAST_NIGHT))
    fresh = owner("table1", command_topic(1), night=None, joins=True, clean_start=True)
    assert fresh.delivered(timeout=1.5) == [] and fresh.node.night is None
    fresh.node.close()  # its new session stays: a restart after joining resumes it
    _publish(boss, command_topic(1), Envelope("director", 1, Go(1), 0, night=NIGHT))
    again = owner("table1", command_topic(1), night=NIGHT, joins=True)
    assert [d.envelope.seq for d in again.delivered()] == [1]


def test_what_is_sent_before_the_connection_goes_out_once_when_it_connects(
        venue, tmp_path, caplog):
    """Kept until the connection (not also queued in paho, which sent it a second time),
    published once by the connection's resend, and counted as sent then: the next tick
    does not publish it again at once."""
    broker, owner, _raw = venue
    director = owner("director", f"{ROOT}/table/+/report")
    caplog.set_level(logging.INFO, logger=node_module.__name__)
    table = VenueNode(broker.url, username="table1",
                      password=(tmp_path / "secrets" / "table1.password").read_text().strip(),
                      director="director", tables=TABLES, subscriptions=(),
                      put=lambda _e: None, night=NIGHT)
    assert table.send(report_topic(1), 1, Applied(1)) == 0  # not connected: kept
    time.sleep(1.0)  # the connection comes well after the send
    try:
        assert table.start().wait_ready(WAIT)
        connected = time.monotonic()
        got = director.delivered()
        assert [(d.topic, d.envelope.seq) for d in got] == [(report_topic(1), 1)]
        assert table.tick(connected + RESEND_SECONDS - 0.5) == 0  # 3.5 s after the send
        assert table.unacknowledged(report_topic(1)) == [1]
    finally:
        table.close()
    assert [r.getMessage() for r in caplog.records if "a replay of" in r.getMessage()] == []
