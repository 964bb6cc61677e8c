"""One node of the venue (the director, or one table's service) on the broker.

A :class:`VenueNode` wraps a :class:`pi_app.venue.link.VenueLink` and does what every node
does with it, so that neither side writes it twice:

* **In.**  Each message received is decoded (:func:`pi_app.venue.messages.decode`), its
  sender checked against its topic (:func:`~pi_app.venue.messages.check_origin`) and
  offered to the node's :class:`~pi_app.venue.messages.Inbox` (commands and reports in
  ``seq`` order, once; retained state the latest only).  What is due goes on the owner's
  queue as a :class:`Delivered`; a presence change as a :class:`Presence`; a change of the
  connection as the link's :class:`~pi_app.venue.link.LinkStatus`.  A malformed message, a
  forged sender or a replay changes nothing and is logged once at WARNING, with its topic
  and the reason, never its bytes.  The callbacks run on paho's thread and touch nothing
  but the inbox (under a lock) and the owner's queue.
* **One night.**  Every message carries the director's night id.  A node on a night
  (``night``: the director's, or a table's from its journal) drops every message of
  another night, logged once per night id; a table's node that has no night yet
  (``joins``) joins the night of the first director message that runs
  (:func:`~pi_app.venue.messages.joins_night`) and tells its owner
  (:class:`Joined`, before that message), and a state of another night that still runs
  is told once too (:class:`OtherNight`: the table's journal belongs to another night).
* **Out.**  :meth:`VenueNode.send` publishes an envelope whose ``seq`` the owner gives
  (from its journal: the node keeps no counter of its own) and keeps it until
  :meth:`VenueNode.acknowledge` says the receiver applied it (the table's ``applied``,
  ``moved`` or ``refused`` for a command; the director's ``venue_state`` for a report).
  Whenever the link connects again everything not acknowledged is published again, in
  order, and the owner's :meth:`VenueNode.tick` publishes again what has waited
  :data:`RESEND_SECONDS` since it was last sent (the receiver's inbox makes a copy harmless); retained topics keep only
  their latest message.

On restart the owner rebuilds the node from its journal: ``marks`` (the last seq applied
per stream, :attr:`Inbox.marks`) and a :meth:`send` of each message not yet acknowledged.

>>> Presence.parse("pokertable/1/presence/table2", b"offline")
Presence(username='table2', online=False)
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_app.venue.broker import ROOT
from pi_app.venue.link import LinkStatus, Received, VenueLink
from pi_app.venue.messages import (
    Envelope,
    Inbox,
    MessageError,
    VenueState,
    check_night,
    check_origin,
    decode,
    encode,
    ends_night,
    is_latest_topic,
    joins_night,
)

log = logging.getLogger(__name__)

RESEND_SECONDS = 3.0  #: how often what is not acknowledged is published again
SAID_KEEP = 4096  #: replays remembered so that each is logged once

_PRESENCE = re.compile(re.escape(ROOT) + r"/presence/([A-Za-z0-9][A-Za-z0-9_.-]{0,31})")


@dataclass(frozen=True)
class Delivered:
    """A message due to be applied: its topic, its envelope, and whether it came retained."""

    topic: str
    envelope: Envelope
    retained: bool


@dataclass(frozen=True)
class Joined:
    """This node (a table with no night yet) joined night ``night``: the owner journals it
    before the message that made it join, which follows on the queue."""

    night: str


@dataclass(frozen=True)
class OtherNight:
    """The director's state of night ``night`` (not this node's) says a night runs that
    this node is not part of: said once per night id."""

    night: str
    mine: str


@dataclass(frozen=True)
class Presence:
    """Node ``username`` is ``online`` (or its connection is lost: its will)."""

    username: str
    online: bool

    @staticmethod
    def parse(topic: str, payload: bytes) -> Presence | None:
        """The presence in a message on ``topic``; None when it is not one."""
        match = _PRESENCE.fullmatch(topic)
        if match is None or payload not in (b"online", b"offline"):
            return None
        return Presence(match.group(1), payload == b"online")


def command_topic(table: int) -> str:
    """Where the director sends table ``table``'s commands."""
    return f"{ROOT}/table/{table}/command"


def report_topic(table: int) -> str:
    """Where table ``table`` sends its reports."""
    return f"{ROOT}/table/{table}/report"


def public_topic(table: int) -> str:
    """Table ``table``'s retained public view."""
    return f"{ROOT}/table/{table}/public"


STATE_TOPIC = f"{ROOT}/director/state"
CLOCK_TOPIC = f"{ROOT}/director/clock"


class VenueNode:
    """A node's messages on the broker: checked and applied once in, kept until
    acknowledged out.

    Args:
        url: the broker (``mqtt://HOST:PORT``).
        username, password: this node's broker login; ``username`` is the ``from`` of
            everything it sends.
        director: the director's user name; ``tables``: table number -> its user name
            (whose topics each may publish on).
        subscriptions: topic filters (QoS 1).
        put: the owner's queue (called on paho's thread with a :class:`Delivered`, a
            :class:`Presence` or a :class:`LinkStatus`).
        marks: the inbox's marks from the owner's journal ((night, sender, topic) -> last
            seq).
        client_id: default ``pokertable-USERNAME``.
        night: this node's night id (the director's; a table's from its journal), or None
            for a table that has not joined one yet (then ``joins`` must be true).
        joins: join the night of the first director message that does not end its night.
        clean_start: drop the session the broker kept for this client (a node with a new
            journal: what was queued for it belongs to another night); a persistent
            session from the first connection on, as ever.
    """

    def __init__(self, url: str, *, username: str, password: str, director: str,
                 tables: Mapping[int, str], subscriptions: tuple[str, ...],
                 put: Callable[[Any], None],
                 marks: Mapping[tuple[str, str, str], int] | None = None,
                 client_id: str | None = None, ca_file: Path | None = None,
                 night: str | None = None, joins: bool = False,
                 clean_start: bool = False) -> None:
        self.username = username
        self.night = None if night is None else check_night(night)
        self.joins = joins
        self._other_nights: set[str] = set()  # night ids already logged
        self._said: dict[str, None] = {}  # replays already logged, oldest first
        self.director = director
        self.tables = dict(tables)
        self.put = put
        self.inbox = Inbox(marks=dict(marks or {}))
        self._in_lock = threading.Lock()
        self._out_lock = threading.Lock()
        self._outbox: dict[str, dict[int, bytes]] = {}  # topic -> seq -> payload
        self._latest: dict[str, bytes] = {}             # retained topic -> payload
        self._sent_at: dict[tuple[str, int], float] = {}  # (topic, seq) -> monotonic
        self.link = VenueLink(url, client_id=client_id or f"pokertable-{username}",
                              username=username, password=password,
                              subscriptions=subscriptions, put=self._on_link,
                              ca_file=ca_file, clean_start=clean_start)

    # ------------------------------------------------------------------ life
    def start(self) -> VenueNode:
        """Connect in the background; returns self."""
        self.link.start()
        return self

    def wait_ready(self, timeout: float) -> bool:
        """Whether the link is connected and subscribed within ``timeout`` seconds."""
        return self.link.wait_ready(timeout)

    def close(self) -> None:
        """Say offline and disconnect (the broker keeps this node's session)."""
        self.link.close()

    @property
    def marks(self) -> dict[tuple[str, str, str], int]:
        """A copy of the inbox's marks: (night, sender, topic) -> the last seq applied."""
        with self._in_lock:
            return dict(self.inbox.marks)

    # ------------------------------------------------------------------ out
    def send(self, topic: str, seq: int, body: Any, for_hand: int | None = None) -> int:
        """Publish ``body`` as this node's message ``seq`` on ``topic`` (retained on a
        "latest value" topic), and keep it until :meth:`acknowledge`.  The owner journals
        what it sends before calling this, so the same call after a restart sends the same
        bytes.  While the link is not connected (not started yet, or the broker away) it
        is only kept: the connection's :meth:`resend` publishes it once (published now as
        well, paho's queue would send it a second time, a replay logged by the
        receiver).  Returns the link's message id (:meth:`VenueLink.wait_acknowledged`),
        0 when it waits for the connection.

        Raises:
            MessageError: a field out of bounds, or no night joined yet (nothing is
                published or kept).
        """
        if self.night is None:
            raise MessageError(f"{self.username} has not joined a night yet: nothing is sent")
        payload = encode(Envelope(self.username, seq, body, for_hand, night=self.night))
        latest = is_latest_topic(topic)
        with self._out_lock:
            if latest:
                self._latest[topic] = payload
            else:
                self._outbox.setdefault(topic, {})[seq] = payload
                self._sent_at[(topic, seq)] = time.monotonic()
        # kept before the link is asked: connected after this, its resend publishes it
        if not self.link.connected.is_set():
            return 0
        return self.link.publish(topic, payload, retain=latest)

    def acknowledge(self, topic: str, seq: int) -> None:
        """The receiver applied every message up to ``seq`` on ``topic``: forget them."""
        with self._out_lock:
            kept = self._outbox.get(topic, {})
            for s in [s for s in kept if s <= seq]:
                del kept[s]
                self._sent_at.pop((topic, s), None)

    def unacknowledged(self, topic: str) -> list[int]:
        """The seqs sent on ``topic`` that are not acknowledged yet, in order."""
        with self._out_lock:
            return sorted(self._outbox.get(topic, {}))

    def tick(self, now: float) -> int:
        """Call from the owner's loop with ``time.monotonic()``: publish again each message
        not acknowledged :data:`RESEND_SECONDS` after it was last sent (after a broker lost
        its state, the receiver's subscription may have come back after the first copy
        went out); returns how many were published."""
        with self._out_lock:
            due = [(t, s, p) for t, kept in sorted(self._outbox.items())
                   for s, p in sorted(kept.items())
                   if now - self._sent_at.get((t, s), now) >= RESEND_SECONDS]
            for t, s, _p in due:
                self._sent_at[(t, s)] = now
        for topic, _seq, payload in due:
            self.link.publish(topic, payload)
        return len(due)

    def resend(self) -> int:
        """Publish again every message not acknowledged (in order) and the latest of each
        retained topic (in the order the topics were first sent: a state, which a table
        joins, before the clock, which it does not); returns how many.  Called by itself
        whenever the link connects.  What it publishes counts as sent now for
        :meth:`tick` (a message kept until the connection is not sent again at once)."""
        now = time.monotonic()
        with self._out_lock:
            due = [(t, p, False) for t, kept in sorted(self._outbox.items())
                   for _s, p in sorted(kept.items())]
            due += [(t, p, True) for t, p in self._latest.items()]  # as first sent
            for key in self._sent_at:
                self._sent_at[key] = now
        for topic, payload, retain in due:
            self.link.publish(topic, payload, retain=retain)
        return len(due)

    # ------------------------------------------------------------------ in (paho's thread)
    def _on_link(self, event: Any) -> None:
        if isinstance(event, LinkStatus):
            if event.online:
                self.resend()
            self.put(event)
        elif isinstance(event, Received):
            self._on_message(event)

    def _on_message(self, msg: Received) -> None:
        if msg.topic.startswith(f"{ROOT}/presence/"):
            presence = Presence.parse(msg.topic, msg.payload)
            if presence is None:
                log.warning("venue: refused a message on %s: not a presence", msg.topic)
            else:
                self.put(presence)
            return
        try:
            env = decode(msg.payload)
            check_origin(msg.topic, env, self.director, self.tables)
        except MessageError as exc:
            log.warning("venue: refused a message on %s: %s", msg.topic, exc)
            return
        with self._in_lock:
            joined = self.joins and self.night is None and joins_night(env)
            if joined:
                self.night = env.night
                self.put(Joined(env.night))
            if env.night != self.night:
                self._other_night(msg.topic, env)
                return
            offer = self.inbox.offer_latest if is_latest_topic(msg.topic) else self.inbox.offer
            due = offer(env, msg.topic)
            reason = self.inbox.last_reason
        if joined:
            log.info("venue: %s joins night %s (from %s)", self.username, env.night,
                     msg.topic)
        if not due and reason and self._first_time(reason):
            # held (its turn comes) or a retained copy on a new subscription: normal
            level = logging.INFO if "held" in reason or msg.retained else logging.WARNING
            log.log(level, "venue: nothing applied from %s: %s", msg.topic, reason)
        for e in due:
            self.put(Delivered(msg.topic, e, msg.retained))

    def _first_time(self, reason: str) -> bool:
        """Whether ``reason`` is said now: a replay of one message is said once, however
        many copies come (a sender resends until acknowledged), the last
        :data:`SAID_KEEP` replays remembered."""
        if not reason.startswith("a replay of"):
            return True
        if reason in self._said:
            return False
        self._said[reason] = None
        while len(self._said) > SAID_KEEP:
            del self._said[next(iter(self._said))]
        return True

    def _other_night(self, topic: str, env: Envelope) -> None:
        """A message of another night (under the inbox's lock): dropped, logged once per
        night id; a running state of another night is told to the owner instead, once."""
        if env.night in self._other_nights:
            return
        self._other_nights.add(env.night)
        if self.night is not None and isinstance(env.body, VenueState) and not ends_night(env):
            self.put(OtherNight(env.night, self.night))
            return
        why = ("its state says it is over" if ends_night(env) else
               "its clock is stopped" if not joins_night(env) else "not this node's night")
        log.warning("venue: ignored the messages of night %s (%s; this node's night: %s), "
                    "first on %s", env.night, why, self.night or "none yet", topic)
