"""A node's connection to the venue's broker, over paho-mqtt (an adapter: no poker here).

One :class:`VenueLink` per process (the director, or one table's service).  It connects
with a fixed client id and a persistent session (MQTT 5, ``clean_start`` false, a session
of :data:`SESSION_SECONDS`; a node with a new journal starts its first connection clean,
dropping what the broker kept for last night's session), so the broker keeps what the node missed while it was away;
it publishes at QoS 1, and paho keeps a message published while the broker is away and
sends it when the connection is back.  Its *will* sets the node's retained presence to
``offline`` when the connection is lost; on every connect it publishes ``online``.

paho calls back on its own network thread.  Those callbacks touch no state: each message
received becomes a :class:`Received` handed to ``put`` (the node's one event queue, as a
device adapter does), and each change of the connection, or each failed attempt to
connect (the broker unreachable, or refusing the login), a :class:`LinkStatus`.

>>> VenueLink.parse_url("mqtt://127.0.0.1:1883")
('127.0.0.1', 1883, False)

Errors: :class:`LinkError` (an :class:`engine.errors.DeviceError`, so an ``OSError``) for
a URL that is not ``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT``.
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from engine.errors import DeviceError
from pi_app.venue.broker import ROOT
from pi_app.venue.config import check_ca_file

log = logging.getLogger(__name__)

SESSION_SECONDS = 12 * 3600  #: a night: the broker keeps a node's queue this long
KEEPALIVE = 5  #: seconds between pings; a lost node's will fires after 1.5x this
MAX_PAYLOAD = 16 * 1024  #: bytes; larger messages are dropped unread (the codec's bound)
QOS = 1


class LinkError(DeviceError):
    """The broker's URL is not one this link can use."""


@dataclass(frozen=True)
class Received:
    """A message from the broker: its topic and raw payload (decoded by the node, which
    checks it: :mod:`pi_app.venue.messages`), and whether the broker retained it."""

    topic: str
    payload: bytes
    retained: bool


@dataclass(frozen=True)
class LinkStatus:
    """The link connected (``online``) or lost its connection; ``reason`` in words."""

    online: bool
    reason: str


def presence_topic(username: str) -> str:
    """The retained presence topic of the node that logs in as ``username``."""
    return f"{ROOT}/presence/{username}"


class VenueLink:
    """A persistent-session MQTT client for one node of the venue.

    Args:
        url: ``mqtt://HOST:PORT`` (or ``mqtts://`` with ``ca_file``).
        client_id: fixed per node (``pokertable-director``, ``pokertable-table-N``), so
            the broker finds the node's session again after a restart.
        username, password: the node's broker login (from its password file).
        subscriptions: topic filters subscribed at QoS 1 on every connect.
        put: called with a :class:`Received` or a :class:`LinkStatus`, on paho's thread.
        clean_start: the first connection drops the session the broker kept for
            ``client_id`` (a node with a new journal); every connection after it, and every
            one without this, resumes the persistent session.

    Raises:
        pi_app.venue.config.VenueConfigError: ``ca_file`` is not a certificate file.
    """

    def __init__(self, url: str, *, client_id: str, username: str, password: str,
                 subscriptions: tuple[str, ...], put: Callable[[Any], None],
                 ca_file: Path | None = None, clean_start: bool = False) -> None:
        host, port, tls = self.parse_url(url)
        self.clean_start = clean_start
        self.host, self.port = host, port
        self.username = username
        self.subscriptions = subscriptions
        self.put = put
        self.connected = threading.Event()
        self.ready = threading.Event()  # connected, and every subscription acknowledged
        self._pending_subs: set[int] = set()
        self._acks = threading.Condition()
        self._acked: set[int] = set()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                        protocol=mqtt.MQTTv5)
        c.username_pw_set(username, password)
        if tls:
            if ca_file is not None:  # a typed one-line refusal, not ssl's traceback
                check_ca_file(Path(ca_file), "broker.ca_file")
            c.tls_set(ca_certs=str(ca_file) if ca_file else None,
                      tls_version=ssl.PROTOCOL_TLS_CLIENT)
        c.will_set(presence_topic(username), b"offline", qos=QOS, retain=True)
        c.max_queued_messages_set(0)  # 0: no limit; a night's reports are few
        c.reconnect_delay_set(min_delay=1, max_delay=2)
        c.on_connect = self._on_connect
        c.on_connect_fail = self._on_connect_fail
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        c.on_subscribe = self._on_subscribe
        self.client = c

    @staticmethod
    def parse_url(url: str) -> tuple[str, int, bool]:
        """``(host, port, tls)`` of ``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT``.

        Raises:
            LinkError: another scheme, no host, or a port out of 1..65535.
        """
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise LinkError(f"broker URL must be mqtt://HOST:PORT or mqtts://HOST:PORT, "
                            f"got {url!r}")
        try:
            port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
        except ValueError:
            raise LinkError(f"broker URL {url!r}: the port must be 1..65535") from None
        return parts.hostname, port, parts.scheme == "mqtts"

    # ------------------------------------------------------------------ life
    def start(self) -> VenueLink:
        """Connect in the background (paho's thread) and keep reconnecting."""
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_SECONDS
        # FIRST_ONLY: paho asks for a clean start on the first successful connection only
        clean = mqtt.MQTT_CLEAN_START_FIRST_ONLY if self.clean_start else False
        self.client.connect_async(self.host, self.port, keepalive=KEEPALIVE,
                                  clean_start=clean, properties=props)
        self.client.loop_start()
        return self

    def wait_connected(self, timeout: float) -> bool:
        """Whether the link is connected within ``timeout`` seconds."""
        return self.connected.wait(timeout)

    def wait_ready(self, timeout: float) -> bool:
        """Whether, within ``timeout`` seconds, the link is connected and the broker has
        acknowledged every subscription (from then on the broker keeps what is sent to
        this node, in its session, while the node is away)."""
        return self.ready.wait(timeout)

    def close(self) -> None:
        """Say ``offline``, disconnect and stop paho's thread (the session stays on the
        broker, so what is sent to this node meanwhile is kept for it)."""
        if self.connected.is_set():
            self.wait_acknowledged(self.publish(presence_topic(self.username), b"offline",
                                                retain=True), 2.0)
        self.client.disconnect()
        self.client.loop_stop()

    # ------------------------------------------------------------------ sending
    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> int:
        """Publish at QoS 1; returns the message id.  While the broker is away paho keeps
        the message and sends it once the link is back; :meth:`acknowledged` says when the
        broker has it (PUBACK).  (The node's journal outbox, not this, is what survives a
        restart of the node.)"""
        return int(self.client.publish(topic, payload, qos=QOS, retain=retain).mid)

    def acknowledged(self, mid: int) -> bool:
        """Whether the broker acknowledged message ``mid``."""
        with self._acks:
            return mid in self._acked

    def wait_acknowledged(self, mid: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the broker to acknowledge message ``mid``."""
        with self._acks:
            return self._acks.wait_for(lambda: mid in self._acked, timeout)

    # ------------------------------------------------------------------ paho's thread
    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any,
                    reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self.put(LinkStatus(False, f"the broker refused the login: {reason}"))
            return
        with self._acks:
            self._pending_subs = {mid for topic in self.subscriptions
                                  if (mid := client.subscribe(topic, qos=QOS)[1]) is not None}
        if not self._pending_subs:
            self.ready.set()
        client.publish(presence_topic(self.username), b"online", qos=QOS, retain=True)
        self.connected.set()
        self.put(LinkStatus(True, "connected"))

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        self.put(LinkStatus(False, f"cannot reach the broker at {self.host}:{self.port}"))

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any,
                       reason: Any, _props: Any) -> None:
        self.connected.clear()
        self.ready.clear()
        self.put(LinkStatus(False, f"disconnected: {reason}"))

    def _on_publish(self, _client: mqtt.Client, _userdata: Any, mid: int, _reason: Any,
                    _props: Any) -> None:
        with self._acks:
            self._acked.add(mid)
            self._acks.notify_all()

    def _on_subscribe(self, _client: mqtt.Client, _userdata: Any, mid: int, _codes: Any,
                      _props: Any) -> None:
        with self._acks:
            self._pending_subs.discard(mid)
            done = not self._pending_subs
        if done and self.connected.is_set():
            self.ready.set()

    def _on_message(self, _client: mqtt.Client, _userdata: Any,
                    msg: mqtt.MQTTMessage) -> None:
        if len(msg.payload) > MAX_PAYLOAD:
            log.warning("venue: dropped a message of %d bytes on %s (at most %d)",
                        len(msg.payload), msg.topic, MAX_PAYLOAD)
            return
        self.put(Received(msg.topic, bytes(msg.payload), bool(msg.retain)))
