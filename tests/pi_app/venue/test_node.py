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
from tests.ports import free_port

TABLES = {1: "table1", 2: "table2"}


class Owner:
    """A node and the owner's queue it fills."""

    def __init__(self, url: str, user: str, password: str, subs: tuple[str, ...],
                 marks=None):
        self.events: queue.Queue[object] = queue.Queue()
        self.node = VenueNode(url, username=user, password=password, director="director",
                              tables=TABLES, subscriptions=subs, put=self.events.put,
                              marks=marks).start()
        assert self.node.wait_ready(WAIT)

    def delivered(self, timeout: float = 2.0) -> list[Delivered]:
        """What was delivered until ``timeout`` passes with nothing new."""
        got: list[Delivered] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.events.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(ev, Delivered):
                got.append(ev)
                deadline = max(deadline, time.monotonic() + 0.5)
        return got

    def wait_for(self, cls: type, timeout: float = WAIT, **match) -> object:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.events.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(ev, cls) and all(getattr(ev, k) == v for k, v in match.items()):
                return ev
        raise AssertionError(f"no {cls.__name__} {match}")


@pytest.fixture
def venue(tmp_path):
    cfg, users = _venue(tmp_path)
    broker = LocalBroker(cfg, tmp_path / "broker", port=free_port()).start()
    owners: list[Owner] = []
    links: list[VenueLink] = []

    def owner(user: str, *subs: str, marks=None) -> Owner:
        o = Owner(broker.url, user, users[user], subs, marks)
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
                     marks={("table1", report_topic(1)): 2})
    table = owner("table1")
    for seq in (1, 2, 3):
        table.node.send(report_topic(1), seq, Applied(seq))
    assert [d.envelope.seq for d in director.delivered()] == [3]
    assert director.node.marks == {("table1", report_topic(1)): 3}


def test_a_forged_sender_and_a_malformed_payload_change_nothing_and_log_once(venue, caplog):
    _broker, owner, raw_link = venue
    director = owner("director", f"{ROOT}/table/+/report")
    forger = raw_link("table1")
    caplog.set_level(logging.WARNING)
    forged = encode(Envelope("table2", 1, Applied(1)))  # table1 claiming to be table2
    bad = [forged, b"{not json", json.dumps({"v": 1}).encode(),
           encode(Envelope("director", 1, Go(1)))]      # a table forging a command
    for payload in bad:
        forger.wait_acknowledged(forger.publish(report_topic(1), payload), WAIT)
    genuine = encode(Envelope("table1", 1, Applied(7)))
    forger.wait_acknowledged(forger.publish(report_topic(1), genuine), WAIT)
    got = director.delivered()
    assert [d.envelope for d in got] == [Envelope("table1", 1, Applied(7))]
    warnings = _warnings(caplog)
    assert len(warnings) == len(bad)
    assert all(report_topic(1) in w for w in warnings)
    assert "not a topic of 'table2'" in warnings[0] and "not a JSON message" in warnings[1]
    assert not any("{not json" in w for w in warnings)  # the reason, never the bytes
    assert director.node.marks == {("table1", report_topic(1)): 1}


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
