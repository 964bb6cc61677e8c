"""A table's service in a venue: the director's messages in, the table's reports out.

The table's side of docs/design/venue-topics.md, over a :class:`pi_app.venue.node.VenueNode`:

* **One night.**  A table whose journal has no night joins the night of the first director
  message that does not end its night (the node decides, :class:`~pi_app.venue.node.Joined`):
  :meth:`TableNode.join_event` is the journaled ``join`` the loop applies before that
  message, so a restart keeps the night.  Until then nothing is sent.  Messages of
  another night are dropped by the node; a running state of another night
  (:class:`~pi_app.venue.node.OtherNight`) is said in one line: a table whose own night
  is over (:meth:`TableNode.on_other_night`) says to start it with a new state folder
  (:attr:`TableNode.conflict`, on the TV too) and acts on neither night; one whose night
  still runs stays with it and plays on.
* **Commands in.**  A command the node delivers (checked, once, in order) becomes a
  :class:`engine.events.VenueCommand` (:func:`command_event`) that the owner puts on the
  service's one queue: the loop journals it before the core applies it
  (:mod:`engine.table.venue`), so the applied mark is in the journal and rebuilt from it.
* **Reports out.**  The core keeps its reports in ``core.venue.outbox``, numbered in the
  journal's order; :meth:`TableNode.flush` hands the node every report it has not handed
  yet (the node keeps each until the director acknowledges it and sends it again on
  reconnect).  After a restart the same reports, with the same ``seq``, come from the
  recovered core: :meth:`TableNode.flush` starts above the director's acknowledged mark
  once its retained state has arrived (:meth:`TableNode.on_state`), or from the first
  report kept.
* **The public view** (retained ``table/N/public``): :func:`public_body`, built from the
  table's public screen state only (names, stacks, the board, the cards shown face up at
  showdown), never from a seat's view or the hand's private state.
* **The clock.**  The director's retained clock is followed on the TV:
  :class:`DirectorClock` counts down on the table's own monotonic clock from the last sync
  and :meth:`DirectorClock.overlay` puts it on the screen state the TV draws.
* **The banner.**  :meth:`TableNode.banner` puts on the TV what the table waits for
  ("Waiting for the director" between hands until the ``go``), "Final table" once the
  director has drawn it at this table, and the moves the director has announced that
  touch this table (:meth:`TableNode.announced`), from the moment it decides them: the
  move itself waits for the hand boundary, the TVs say it at once.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.betting.odds_view import no_odds
from engine.events import VenueCommand
from engine.views import ScreenState
from pi_app.venue.messages import (
    KINDS,
    MAX_MOVES,
    Clock,
    Envelope,
    TablePublic,
    VenueState,
)
from pi_app.venue.node import (
    CLOCK_TOPIC,
    STATE_TOPIC,
    Delivered,
    Joined,
    OtherNight,
    command_topic,
    public_topic,
    report_topic,
)

log = logging.getLogger("pokertable.venue.table")


def command_event(env: Envelope, t: float) -> VenueCommand:
    """The journaled event of the director's command ``env``, at table time ``t``."""
    body = {f.name: _plain(getattr(env.body, f.name))
            for f in dataclasses.fields(env.body)}
    return VenueCommand(t=t, sender=env.sender, seq=env.seq, kind=env.kind, body=body,
                        for_hand=env.for_hand, night=env.night)


def node_options(v: Any, director: str, table: int) -> dict[str, Any]:
    """The :class:`~pi_app.venue.node.VenueNode` options of table ``table`` whose venue
    state (``core.venue``, from its journal) is ``v``: its night and its inbox's mark for
    the director's commands; with no night yet it joins one, and its first connection
    drops the session the broker kept (last night's queued commands)."""
    night = v.night or None
    marks = {(night, director, command_topic(table)): v.mark} if night else {}
    return {"night": night, "joins": True, "clean_start": night is None, "marks": marks}


def report_body(report: dict[str, Any]) -> Any:
    """The message record of a report of ``core.venue.outbox``.

    Raises:
        MessageError: a field out of the messages' bounds (KeyError: an unknown kind).
    """
    cls = KINDS[report["kind"]]
    fields = {f.name for f in dataclasses.fields(cls)}
    body = {k: _tuple(v) for k, v in report["body"].items() if k in fields}
    return cls(**body)


def public_body(screen: ScreenState, *, level: int, applied: int,
                seated: Mapping[int, str] | None = None,
                moves: tuple[tuple[str, int, int], ...] = (),
                planned: tuple[tuple[int, int], ...] = ()) -> TablePublic:
    """The retained public view of a table from its public ``screen`` state: the hand
    number, the ``level`` index, each player's seat and stack, the board, the cards shown
    face up (a card not shown is never in the screen state), and ``applied``: the highest
    director command applied.  ``seated`` (seat -> name, the players seated now): between
    hands the screen still shows the last hand, whose seats may since have been left; a
    seat not held by the same player now is left out.  ``moves``: the announced moves
    the TV shows (:meth:`TableNode.announced`), (player, from table, to table);
    ``planned``: those announced before the player is named (:meth:`TableNode.planned`),
    (from table, to table)."""
    table = screen.table
    if table is None:
        return TablePublic(0, level, (), (), (), applied, moves, planned)
    kept = _kept_seats(screen, seated)
    return TablePublic(table.hand_number, level, tuple((s.name, s.seat, s.stack) for s in kept),
                       tuple(str(c) for c in table.board),
                       tuple((s.name, str(c)) for s in kept for c in s.shown_cards), applied,
                       moves, planned)


def shown_players(screen: ScreenState, seated: Mapping[int, str] | None = None) -> set[str]:
    """The names the TV shows in a seat of the table (as :func:`public_body` keeps them)."""
    return {s.name for s in _kept_seats(screen, seated)}


def _kept_seats(screen: ScreenState, seated: Mapping[int, str] | None) -> list[Any]:
    if screen.table is None:
        return []
    seen: set[str] = set()
    kept = []
    for s in screen.table.seats:
        if not s.name or s.status == "empty" or s.name in seen or (
                seated is not None and seated.get(s.seat) != s.name):
            continue
        seen.add(s.name)
        kept.append(s)
    return kept


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _tuple(value: Any) -> Any:
    return tuple(_tuple(v) for v in value) if isinstance(value, list) else value


@dataclass
class DirectorClock:
    """The director's clock as last synced: level ``index``, ``running``, ``remaining_ms``
    at ``synced_at`` (the table's monotonic seconds).  None fields: no sync yet."""

    index: int | None = None
    running: bool = False
    remaining_ms: int = 0
    synced_at: float = 0.0

    def sync(self, clock: Clock, now: float) -> None:
        self.index, self.running = clock.index, clock.running
        self.remaining_ms, self.synced_at = clock.remaining_ms, now

    def remaining(self, now: float) -> float | None:
        """Seconds left in the director's level at ``now`` (counting down on the table's
        own clock while it runs), or None before the first sync."""
        if self.index is None:
            return None
        left = self.remaining_ms / 1000.0
        if self.running:
            left -= max(0.0, now - self.synced_at)
        return max(0.0, left)

    def overlay(self, now: Callable[[], float]) -> Callable[[ScreenState], ScreenState]:
        """A TV overlay (:attr:`pi_app.service.loop.ServiceLoop.tv_overlays`): the clock
        view shows the director's remaining time and whether it runs."""
        def apply(screen: ScreenState) -> ScreenState:
            left = self.remaining(now())
            if screen.clock is None or left is None:
                return screen
            clock = dataclasses.replace(screen.clock, remaining_seconds=left,
                                        running=self.running)
            return dataclasses.replace(screen, clock=clock)
        return apply


class TableNode:
    """Table ``table``'s messages over ``node`` (a :class:`pi_app.venue.node.VenueNode`
    subscribed to :func:`subscriptions`).  Methods run on the service loop's thread except
    where said."""

    def __init__(self, node: Any, table: int) -> None:
        self.node, self.table = node, table
        self.clock = DirectorClock()
        self.acked: int | None = None   # the director's applied mark for this table
        self.sent = 0                   # the last report handed to the node
        self.finished = False           # the director says the venue has a winner
        self.director_state: VenueState | None = None
        #: the one line said when a night this table is not on runs (see the module)
        self.conflict: str | None = None
        self._over_journaled = False
        self._lock = threading.Lock()

    @staticmethod
    def subscriptions(table: int) -> tuple[str, ...]:
        return (command_topic(table), STATE_TOPIC, CLOCK_TOPIC)

    def on_delivered(self, d: Delivered, t: float, now: float) -> VenueCommand | None:
        """The event a delivered message makes (a command), or None after taking in the
        director's state or clock; the first state with this night's winner makes the
        journaled ``over`` (seq 0), so a table started again on this journal knows its
        night is over.  ``t``: the table's event time; ``now``: its monotonic clock (for
        the director's clock)."""
        body = d.envelope.body
        if d.topic == command_topic(self.table):
            return command_event(d.envelope, t)
        if isinstance(body, Clock):
            self.clock.sync(body, now)
        elif isinstance(body, VenueState):
            self.on_state(body)
            if body.finished and not self._over_journaled:  # journaled: a restart knows
                self._over_journaled = True
                return VenueCommand(t=t, sender=self.node.director, seq=0, kind="over",
                                    body={"night": d.envelope.night}, night=d.envelope.night)
        return None

    def join_event(self, joined: Joined, t: float) -> VenueCommand:
        """The journaled event of the node's joining ``joined.night`` (seq 0, kind
        ``join``), at table time ``t``: the loop applies it before the message that made
        the table join."""
        return VenueCommand(t=t, sender=self.node.director, seq=0, kind="join",
                            body={"night": joined.night}, night=joined.night)

    def on_other_night(self, other: OtherNight, core: Any) -> str | None:
        """A running state of night ``other.night`` while this table is on ``other.mine``
        (the node tells it once per night id).  Only a table whose own night is over (the
        director said its winner, or ``core``'s journal has this table broken) is told to
        start with a new state folder: that line is returned and kept in :attr:`conflict`
        for the TV, and the owner acts on neither night.  A table whose night still runs
        (another director on the same broker, a forged message) logs one line and goes
        on with its night: None."""
        v = getattr(core, "venue", None)
        if not (self.finished or (v is not None and (v.over or v.broken))):
            log.warning("venue: another director runs night %s on this broker; table %d "
                        "stays with night %s", other.night, self.table, other.mine)
            return None
        self.conflict = (f"table {self.table}'s journal belongs to night {other.mine}, but "
                         f"the director runs night {other.night}: start this table with a "
                         f"new state folder (a new journal)")
        return self.conflict

    def on_state(self, state: VenueState) -> None:
        """The director's state: acknowledge the reports it applied; note a winner."""
        self.director_state = state
        self.finished = state.finished
        mark = dict(state.applied).get(self.table, 0)
        if self.acked is None or mark > self.acked:
            self.acked = mark
            self.node.acknowledge(report_topic(self.table), mark)

    def flush(self, outbox: list[dict[str, Any]]) -> int:
        """Hand the node the reports of ``outbox`` (``core.venue.outbox``) not handed yet
        and not acknowledged; returns how many (none before the table joined a night)."""
        if self.node.night is None:
            return 0
        floor = max(self.sent, self.acked or 0)
        due = [r for r in outbox if r["seq"] > floor]
        for rep in due:
            self.node.send(report_topic(self.table), rep["seq"], report_body(rep),
                           for_hand=rep["for_hand"])
            self.sent = rep["seq"]
        return len(due)

    def unacknowledged(self, outbox: list[dict[str, Any]]) -> int:
        """How many reports of ``outbox`` the director has not acknowledged yet."""
        return sum(1 for r in outbox if r["seq"] > (self.acked or 0))

    def announced(self, present: set[str]) -> tuple[tuple[str, int, int], ...]:
        """The director's announced moves that touch this table, (player, from table, to
        table), from its retained state's ``pending`` (a move is announced the moment the
        director decides it; the player moves at the giving table's next hand boundary,
        TDA 11 and 12): those leaving, and those coming until the TV shows the player
        seated here (``present``: :func:`shown_players`).  At most :data:`MAX_MOVES`, in
        the state's order."""
        state = self.director_state
        if state is None or state.finished:
            return ()
        return tuple(m for m in state.pending
                     if m[1] == self.table or (m[2] == self.table and m[0] not in present)
                     )[:MAX_MOVES]

    def planned(self) -> tuple[tuple[int, int], ...]:
        """The balancing moves the director decided at a bust that touch this table,
        (giving table, receiving table), before the giving table names the player at its
        next boundary (from the retained state's ``planned``; at most :data:`MAX_MOVES`)."""
        state = self.director_state
        if state is None or state.finished:
            return ()
        return tuple(m for m in state.planned if self.table in m)[:MAX_MOVES]

    def planned_words(self) -> list[str]:
        """The TV's lines for :meth:`planned`: "A player moves to table 1 after this
        hand" at the giving table, "A player joins from table 3 after its hand" at the
        receiving one (two or more: "2 players ...")."""
        lines = []
        for (giver, taker), n in sorted(Counter(self.planned()).items()):
            who = "A player" if n == 1 else f"{n} players"
            lines.append(f"{who} {'moves' if n == 1 else 'move'} to table {taker} after "
                         f"this hand" if giver == self.table else
                         f"{who} {'joins' if n == 1 else 'join'} from table {giver} after "
                         f"its hand")
        return lines

    def banner_words(self, core: Any, screen: ScreenState | None = None) -> str | None:
        """What the TV's venue banner says now for ``core`` (a table in venue mode), one
        line each (joined by newlines): "Final table" once the director has drawn it here,
        "Waiting for the director" between hands until its ``go`` (or "This table is
        broken"), then each announced move (:meth:`announced`): "P05 moves to table 2
        after this hand" here, "P05 joins from table 1" at the table they go to, until the
        TV (``screen``, by default ``core``'s) shows them seated, then the moves decided
        but not yet named (:meth:`planned_words`); or None."""
        v = core.venue
        state = self.director_state
        if self.conflict is not None:
            return self.conflict
        if v is None or (state is not None and state.finished):
            return None
        if v.broken:
            return "This table is broken: players go to their new seats"
        final = state is not None and state.final_table == self.table
        between = not core.in_hand and not (core.proc is not None and core.proc.stopped)
        waiting = between and v.go_hand <= core.hand_number
        lines = []
        if final:
            lines.append("Final table: waiting for the director" if waiting else "Final table")
        elif waiting:
            lines.append("Waiting for the director")
        present = shown_players(screen or core.screen_state(odds_provider=no_odds), core.names())
        for player, giver, taker in self.announced(present):
            lines.append(f"{player} moves to table {taker} after this hand"
                         if giver == self.table else f"{player} joins from table {giver}")
        return "\n".join(lines + self.planned_words()) or None

    def banner(self, core: Callable[[], Any]) -> Callable[[ScreenState], ScreenState]:
        """A TV overlay (:attr:`pi_app.service.loop.ServiceLoop.tv_overlays`) putting
        :meth:`banner_words` of ``core()`` on the screen (:mod:`pi_app.screens.venue_banner`)."""
        from pi_app.screens.venue_banner import with_venue_banner

        def apply(screen: ScreenState) -> ScreenState:
            return with_venue_banner(screen, self.banner_words(core(), screen))
        return apply

    def public_view(self, core: Any) -> TablePublic:
        """The public view of ``core`` (a table in venue mode) to publish
        (:func:`public_body`), with the moves its TV announces (:meth:`announced`)."""
        screen, seated = core.screen_state(odds_provider=no_odds), core.names()
        return public_body(screen, level=core.tournament.clock.index, applied=core.venue.mark,
                           seated=seated, moves=self.announced(shown_players(screen, seated)),
                           planned=self.planned())

    def publish_public(self, seq: int, body: TablePublic) -> None:
        """Publish the retained public view as message ``seq`` (the journal's last record:
        rising across restarts); nothing before the table joined a night."""
        if self.node.night is not None:
            self.node.send(public_topic(self.table), seq, body)
