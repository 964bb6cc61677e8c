"""A live table joining its venue: the table service's loop and the venue's broker.

With ``[venue]`` in the table's config (:mod:`pi_app.service.venue_config`) the service,
once ready, logs in to the venue's broker as the table's user
(:class:`pi_app.venue.node.VenueNode`) and :func:`join_venue` wires it to the one loop:

* a director's command the node delivers becomes an :class:`engine.events.VenueCommand`
  stamped with the service's clock and put on the loop's queue (journaled before it is
  applied, like a key press); the director's state and clock are taken in on the node's
  thread (:class:`pi_app.venue.table_node.TableNode`: acknowledgements, the clock);
* after every event the loop handled (a loop observer, on the loop's thread) the reports
  not sent yet go out and the public view is published when it changed; what is not
  acknowledged is sent again every few seconds;
* the table's night: with a new journal it joins the night of the director's first
  message that does not end its night (a journaled event: a restart keeps it), and its
  first connection drops what the broker kept for last night's session; a journal of a
  night that is over, while another night runs, is said in one line (log and TV), and a
  running state of another night while its own runs is logged once and changes nothing;
* the TV shows the director's clock and what the table waits for ("Waiting for the
  director", "Final table": TV overlays).

After a restart the reports wait until the director's retained state says what it has
applied (at most :data:`STATE_WAIT` seconds), so only the others are sent again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from pi_app.venue.messages import MessageError
from pi_app.venue.node import Delivered, Joined, OtherNight, VenueNode
from pi_app.venue.table_node import TableNode, node_options

log = logging.getLogger("pokertable.venue")

STATE_WAIT = 3.0  #: seconds a restarted table waits for the director's state


class VenueJoin:
    """The running link of a table service to its venue (see the module docstring)."""

    def __init__(self, service: Any, venue: Any, password: str) -> None:
        self.service = service
        core = service.core
        director = venue.director
        self.started = time.monotonic()
        self.holding = service.recovered is not None  # a restart: wait for the state
        self.node = VenueNode(
            venue.broker_url, username=venue.username, password=password,
            director=director, tables=dict(venue.tables),
            subscriptions=TableNode.subscriptions(venue.table), put=self._on_node,
            ca_file=venue.ca_file, **node_options(core.venue, director, venue.table))
        self.table = TableNode(self.node, venue.table)
        self._public: Any = None
        service.loop.observers.append(self._after_event)
        service.loop.tv_overlays.append(self.table.clock.overlay(time.monotonic))
        service.loop.tv_overlays.append(self.table.banner(lambda: service.core))

    def start(self) -> VenueJoin:
        self.node.start()
        return self

    def close(self) -> None:
        self.node.close()

    def _on_node(self, item: Any) -> None:
        """On the node's thread: a command (or the night joined) to the loop's queue, the
        rest taken in here; another night that runs is said once (log and TV)."""
        if isinstance(item, Joined):
            self.service.loop.put(self.table.join_event(item, self.service.clock.now()))
            return
        if isinstance(item, OtherNight):
            line = self.table.on_other_night(item, self.service.core)
            if line is not None:  # this table's night is over: said on the TV too
                log.error("venue: %s", line)
                self.service.loop.call_soon(self._refresh)
            return
        if not isinstance(item, Delivered):
            log.info("venue: %s", item)
            return
        event = self.table.on_delivered(item, self.service.clock.now(), time.monotonic())
        if event is not None:
            self.service.loop.put(event)
        else:  # the director's state or clock, taken in here: on the TV and public view now
            self.service.loop.call_soon(self._refresh)

    def _refresh(self) -> None:
        """On the loop's thread: publish the public view if it changed (the TV is drawn
        by the loop right after)."""
        self._after_event(None, "view", None)

    def _after_event(self, _event: Any, _verdict: str, _reason: Any) -> None:
        """On the loop's thread, after every event: send, publish, resend."""
        core = self.service.core
        if self.holding and (self.table.acked is not None
                             or time.monotonic() - self.started > STATE_WAIT):
            self.holding = False
        if not self.holding:
            self.table.flush(core.venue.outbox)
        body = self.table.public_view(core)
        if body != self._public:
            self._public = body
            try:
                self.table.publish_public(max(1, self.service.journal.last_seq), body)
            except MessageError as exc:
                log.warning("venue: public view not published: %s", exc)
        self.node.tick(time.monotonic())


def join_venue(service: Any, config: Any) -> VenueJoin | None:
    """Join the venue of ``config`` (a table config with ``[venue]``), or None without.

    Raises:
        PokerTableError: the table's password file cannot be read.
    """
    venue = config.venue
    if venue is None or service.core.venue is None:
        return None
    from pi_app.venue.config import read_password

    password = read_password(venue.password_file, f"table {venue.table}'s password file")
    return VenueJoin(service, venue, password).start()
