"""The service loop: one queue, one loop, the only writer of the table's state.

Per event (:meth:`ServiceLoop.handle`): journal it (durably: committed and fsynced), apply
it to the pure core, carry out the effects, take a snapshot every N events, tell the
observers (the console's answer and push), then render the views that changed.  The fsync
of the journal's high-water mark and the WAL's checkpoint wait until the loop is idle
(:meth:`ServiceLoop.idle`): one fsync per event before the frame.
Adapters (threads) only :meth:`ServiceLoop.put` events; the loop never waits on a device.
Periodic :class:`~engine.events.ClockTick` events are made by the loop itself on a fixed
grid of ``tick_interval`` seconds of the injected clock (``k * tick_interval``), so a run
with a virtual clock is exactly reproducible, across restarts too.

A tick is journaled only when it changes the tournament (a level or break starts or ends,
a time warning, late registration closes: :func:`pi_app.service.core_protocol.tick_changes`),
or when ``tick_journal_every`` seconds passed since the last record (so a restart knows
when the service stopped, to within that, for the clock's restart policy).  The other
ticks are applied without a record: the clock is derived from the events' times, so replay
rebuilds the same state without them.  An idle hour writes about 60 records, not 3,600.

The public notices among an applied event's effects go on the TV's board
(:attr:`ServiceLoop.notices`, :mod:`pi_app.service.notice_board`) and into the screen
state for a few seconds of table time; the loop's wait ends when one times out, so the TV
is drawn without it then (one timed wake, no polling).

Journal failure (disk full, read-only, I/O error: :class:`pi_app.service.journal.JournalUnavailable`):

* the event that could not be written is **not applied** (never play unjournaled);
* an alarm is shown on the TV (among ``ScreenState.alarms``, beside the table's own, such
  as the shoe offline) and logged;
* clock ticks that cannot be journaled are applied to a *display copy* of the core only,
  so the clock keeps running on screen; the real core catches up at the next journaled
  tick (its ``t`` carries the elapsed time);
* an event that would start a new hand (:func:`pi_app.service.core_protocol.starts_new_hand`) is
  refused until a probe write succeeds;
* every later event is tried again, and a successful write clears the alarm.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import queue
import threading
from collections.abc import Callable
from typing import Any

from engine.betting.odds_view import OddsProvider
from engine.effects import Effect, Notice, ShoeCommand
from engine.events import ClockTick, Event
from engine.views import ScreenState, SeatDisplayView
from pi_app.service.changes import ViewChanges
from pi_app.service.clock_source import ClockSource
from pi_app.service.core_protocol import TableCore, starts_new_hand, tick_changes
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal, JournalUnavailable
from pi_app.service.notice_board import NoticeBoard
from pi_app.service.notify import Notifier
from pi_app.service.recovery import apply_event
from pi_app.service.testhooks import kill_point

log = logging.getLogger("pokertable.loop")

APPLIED, REJECTED, REFUSED, DISPLAY_ONLY = "applied", "rejected", "refused", "display_only"
VIEW = "view"  #: the verdict of a :class:`ViewCall`: no input, nothing journaled or applied


@dataclasses.dataclass(frozen=True)
class ViewCall:
    """A function for the loop's thread that changes only what is shown or published (an
    adapter's overlay on the TV, a table's retained public view): not an input event, so
    it is neither journaled nor applied to the core.  The loop runs it between events and
    then draws the views that changed, so a view fed from another thread (the venue
    director's state, taken on the broker's thread) is on the TV at once rather than at
    the next event or clock tick (:meth:`ServiceLoop.call_soon`)."""

    fn: Callable[[], Any]


def _alarm_text(err: JournalUnavailable) -> str:
    return (f"JOURNAL UNAVAILABLE ({err.reason}): stop dealing; new hands are refused. "
            "Free disk space or call the operator.")


class ServiceLoop:
    """The single event loop.

    Args:
        core: a :class:`pi_app.service.core_protocol.TableCore` (already recovered).
        journal: the open, writable journal.
        clock: the injected clock (:mod:`pi_app.service.clock_source`).
        effects: carries out effects (default: an :class:`EffectRunner` with no devices).
        tv: ``tv(screen_state)`` called when the public screen changed.
        seats: ``seats({seat: view})`` called with the seat views that changed.
        changes: decides what changed (default: a :class:`ViewChanges` comparing states).
        tick_interval: seconds between clock ticks (> 0).
        notifier: a :class:`pi_app.service.notify.Notifier` (watchdog pings) or None.
        max_wait: the longest the loop blocks on the queue, seconds (stop-flag latency).
        backlog_limit: queue length above which the loop reports itself unhealthy.
        tick_journal_every: seconds after the last journal record at which a clock tick
            is journaled even when it changes nothing (see the module docstring).
    """

    def __init__(self, core: TableCore, journal: Journal, clock: ClockSource, *,
                 effects: EffectRunner | None = None,
                 tv: Callable[[ScreenState], Any] | None = None,
                 seats: Callable[[dict[int, SeatDisplayView]], Any] | None = None,
                 tick_interval: float = 1.0, notifier: Notifier | None = None,
                 max_wait: float = 0.5, backlog_limit: int = 10_000,
                 tick_journal_every: float = 60.0,
                 changes: ViewChanges | None = None) -> None:
        if tick_interval <= 0:
            raise ValueError("tick_interval must be > 0")
        self.core = core
        self.journal = journal
        self.clock = clock
        self.effects = effects or EffectRunner()
        self.tv = tv
        self.seats = seats
        self.tick_interval = float(tick_interval)
        self.notifier = notifier
        self.max_wait = max_wait
        self.backlog_limit = backlog_limit
        self.queue: queue.Queue[Event | ViewCall] = queue.Queue()
        self._stop = threading.Event()
        self.journal_error: JournalUnavailable | None = None
        self._display_core: TableCore | None = None
        self.changes = changes or ViewChanges()
        self.counts = {APPLIED: 0, REJECTED: 0, REFUSED: 0, DISPLAY_ONLY: 0, "ticks": 0,
                       "unjournaled_ticks": 0}
        #: ``observer(event, verdict, reason)`` after every event (the console's push and
        #: its answers); ``reason`` is the one-line refusal, or None.  Runs on this thread.
        self.observers: list[Callable[[Event, str, str | None], Any]] = []
        #: ``overlay(screen) -> screen`` for the TV only (the console's pairing panel)
        self.tv_overlays: list[Callable[[ScreenState], ScreenState]] = []
        self._render_due = False  # an applied event's views, drawn after the observers
        #: who works out the TV's all-in odds (None: the core, synchronously); the live
        #: service sets a :class:`pi_app.service.odds_worker.OddsWorker`
        self.odds_provider: OddsProvider | None = None
        #: the table's public notices on the TV (:mod:`pi_app.service.notice_board`)
        self.notices = NoticeBoard()
        start = journal.last_t if journal.last_t is not None else clock.now()
        self._tick_k = math.floor(start / self.tick_interval) + 1
        self.tick_journal_every = float(tick_journal_every)
        # the time of the last event applied (unjournaled ticks included): never go back
        self._applied_t: float | None = getattr(core, "last_t", None)
        if not isinstance(self._applied_t, (int, float)):
            self._applied_t = journal.last_t

    # --- input --------------------------------------------------------------------------
    def put(self, event: Event) -> None:
        """Queue an event (thread-safe; what adapters call)."""
        self.queue.put(event)

    def call_soon(self, fn: Callable[[], Any]) -> None:
        """Run ``fn()`` on the loop's thread before the next event, then draw the views
        that changed (thread-safe; see :class:`ViewCall`).  A failing ``fn`` is logged."""
        self.queue.put(ViewCall(fn))

    def request_stop(self) -> None:
        """Ask :meth:`run` to return after the current event (safe from a signal handler)."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    @property
    def next_tick_t(self) -> float:
        return self._tick_k * self.tick_interval

    @property
    def journal_ok(self) -> bool:
        return self.journal_error is None

    # --- one event ----------------------------------------------------------------------
    def handle(self, event: Event | ViewCall) -> str:
        """Journal, apply, render, carry out effects.  Returns ``"applied"``,
        ``"rejected"`` (journaled, the core refused it), ``"refused"`` (not journaled,
        not applied) or ``"display_only"`` (a tick shown while the journal is down); a
        :class:`ViewCall` is run, the views drawn, and ``"view"`` returned.

        An event the core can check beforehand (``core.precheck(event)`` returns a one-line
        reason, e.g. a console command that does not fit the table now) is refused without
        being journaled.  Every observer hears the verdict before the views of an applied
        event are drawn: a console's answer and push never wait for a full TV redraw."""
        if isinstance(event, ViewCall):
            return self._view_call(event)
        self._render_due = False
        verdict, reason = self._handle(event)
        for observer in self.observers:
            try:
                observer(event, verdict, reason)
            except Exception:  # noqa: BLE001 - an observer never stops the loop
                log.exception("loop observer failed")
        if self._render_due:
            self._render_due = False
            self.render()
        return verdict

    def _view_call(self, call: ViewCall) -> str:
        try:
            call.fn()
        except Exception:  # noqa: BLE001 - a view never stops the loop
            log.exception("loop view call failed")
        self.render()
        return VIEW

    def _handle(self, event: Event) -> tuple[str, str | None]:
        event = self._monotonic(event)
        precheck = getattr(self.core, "precheck", None)
        if precheck is not None:
            refusal = precheck(event)
            if refusal is not None:
                self.counts[REFUSED] += 1
                return REFUSED, refusal
        if isinstance(event, ClockTick) and self.journal_error is None \
                and not self._journal_tick(event):
            return self._apply_unjournaled(event), None
        refused = self._journal_event(event)
        if refused is not None:
            return refused
        effects, err = apply_event(self.core, event)
        self._applied_t = event.t
        kill_point("apply")
        if err is not None:
            log.info("%s rejected: %s", event.TYPE, err)
            if not isinstance(err, ValueError):
                log.error("core raised %s on %s", type(err).__name__, event.TYPE,
                          exc_info=err)
        self._render_due = True  # drawn by handle(), after the observers
        self._after_apply(effects)
        if err is not None:
            self.counts[REJECTED] += 1
            return REJECTED, str(err).splitlines()[0] if str(err) else type(err).__name__
        self.counts[APPLIED] += 1
        return APPLIED, None

    def _monotonic(self, event: Event) -> Event:
        """``event``, its time moved up to the last journaled or applied time if it is
        earlier: journal time never goes back (an event stamped by another thread just
        before a clock tick the loop applied first); done before the precheck sees it."""
        last_t = max((x for x in (self.journal.last_t, self._applied_t) if x is not None),
                     default=None)
        if last_t is not None and event.t < last_t:
            return dataclasses.replace(event, t=last_t)
        return event

    def _journal_event(self, event: Event) -> tuple[str, str | None] | None:
        """Journal ``event`` before it is applied; None when it is journaled, else the
        verdict: a refusal while the journal is down (a new hand is not started without
        it), or display-only for a clock tick."""
        if self.journal_error is not None and starts_new_hand(self.core, event):
            try:
                self.journal.probe()
            except JournalUnavailable as perr:
                return self._refuse_unjournaled(event, perr)
        try:
            self.journal.append(event, sync_mark=False)  # its mark's fsync: idle()
        except JournalUnavailable as aerr:
            if isinstance(event, ClockTick):
                self._journal_failed(aerr)
                self._apply_display_only(event)
                self.counts[DISPLAY_ONLY] += 1
                return DISPLAY_ONLY, None
            return self._refuse_unjournaled(event, aerr)
        if self.journal_error is not None:
            self._journal_recovered()
        return None

    def _refuse_unjournaled(self, event: Event,
                            err: JournalUnavailable) -> tuple[str, str | None]:
        self._journal_failed(err)
        log.warning("refused %s: journal unavailable (%s)", event.TYPE, err.reason)
        self.counts[REFUSED] += 1
        self.render()
        return REFUSED, f"journal unavailable ({err.reason})"

    def _after_apply(self, effects: list[Effect]) -> None:
        """Run the effects of an applied event; a hand history the disk refused, or a
        snapshot that cannot be written, puts the journal's alarm up."""
        self.effects.run(effects)
        self._post_notices(effects)
        if self.effects.disk_errors:
            exc = self.effects.disk_errors[-1]
            self.effects.disk_errors.clear()
            self._journal_failed(JournalUnavailable(f"hand history: {exc}", "disk full"
                                                    if getattr(exc, "errno", 0) == 28
                                                    else "write error"))
            self.render()
        if self.journal.snapshot_due():
            try:
                self.journal.write_snapshot(self.core.snapshot())
            except JournalUnavailable as jerr:
                self._journal_failed(jerr)
                self.render()

    def _post_notices(self, effects: list[Effect]) -> None:
        """Put the notices among ``effects`` of the event just applied on the TV's board,
        at the event's time (a replay never comes here: see the board's docstring)."""
        for effect in effects:
            if isinstance(effect, Notice):
                self.notices.post(effect.text, self._applied_t or 0.0, self._hand())

    def _hand(self) -> int | None:
        hand = getattr(self.core, "hand_number", None)
        return hand if isinstance(hand, int) else None

    def _journal_tick(self, tick: ClockTick) -> bool:
        """Whether ``tick`` goes to the journal (see the module docstring)."""
        last = self.journal.last_t
        if last is None or tick.t - last >= self.tick_journal_every:
            return True
        return tick_changes(self.core, tick.t)

    def _apply_unjournaled(self, tick: ClockTick) -> str:
        """A tick that changes nothing but the time: applied and shown, not journaled."""
        effects, err = apply_event(self.core, tick)
        self._applied_t = tick.t
        if err is not None:  # pragma: no cover - a tick is never refused
            log.error("core raised %s on a clock tick", type(err).__name__, exc_info=err)
        self._render_due = True
        self.effects.run(effects)
        self._post_notices(effects)
        self.counts["unjournaled_ticks"] += 1
        return APPLIED

    def _journal_failed(self, err: JournalUnavailable) -> None:
        if self.journal_error is None:
            log.error("journal unavailable: %s", err)
            self._display_core = None
            # cards drawn now could not be recorded: the shoe stops dealing until it can
            self.effects.run([ShoeCommand("lock")])
        changed = self.journal_error is None or _alarm_text(self.journal_error) != _alarm_text(err)
        self.journal_error = err
        if changed:
            self._status(_alarm_text(err))

    def _journal_recovered(self) -> None:
        log.warning("journal writable again; alarm cleared")
        self.effects.run([ShoeCommand("unlock")])
        self.journal_error = None
        self._display_core = None
        self._status(f"table running; journal writable again at record {self.journal.last_seq}")

    def _status(self, text: str) -> None:
        """The systemd status line (``systemctl status``), when there is a notifier."""
        if self.notifier is not None:
            try:
                self.notifier.status(text)
            except OSError:
                log.debug("status notification failed", exc_info=True)

    def _apply_display_only(self, tick: ClockTick) -> None:
        if self._display_core is None:
            try:
                self._display_core = type(self.core).restore(self.core.snapshot())
            except Exception:  # noqa: BLE001
                log.exception("cannot copy the core for display")
                return
        apply_event(self._display_core, tick)
        self.render()

    # --- output -------------------------------------------------------------------------
    @property
    def alarms(self) -> tuple[str, ...]:
        """The service's own alarms now (the journal unavailable), for the TV."""
        return (_alarm_text(self.journal_error),) if self.journal_error is not None else ()

    def screen_state(self) -> ScreenState:
        """The public screen now, built once by the core with the service's alarms."""
        source = self._display_core if self._display_core is not None else self.core
        if self.odds_provider is None:
            screen = source.screen_state(self.alarms)
        else:
            screen = source.screen_state(self.alarms, odds_provider=self.odds_provider)
        if self.notices.posted:
            shown = self.notices.shown(self.clock.now(), self._hand())
            if shown:
                screen = dataclasses.replace(screen, notices=shown)
        for overlay in self.tv_overlays:
            screen = overlay(screen)
        return screen

    def render(self, force: bool = False) -> None:
        """Hand the views that changed (:attr:`changes` decides) to the renderers; a
        failing renderer is logged, not raised."""
        if self.tv is not None:
            try:
                screen = self.screen_state()
                if self.changes.screen(screen, force=force):
                    self.tv(screen)
            except Exception:  # noqa: BLE001 - a display failure never stops the loop
                log.exception("TV renderer failed")
        if self.seats is not None:
            try:
                changed = self.changes.seats(self.core.seat_views(), force=force)
                if changed:
                    self.seats(changed)
            except Exception:  # noqa: BLE001
                log.exception("seat display renderer failed")

    # --- driving ------------------------------------------------------------------------
    def due_ticks(self, now: float) -> list[ClockTick]:
        """The grid ticks due at ``now`` (at most a few: after a long stall, one tick at
        the latest grid point stands for the whole gap)."""
        k_now = math.floor(now / self.tick_interval)
        if k_now < self._tick_k:
            return []
        if k_now - self._tick_k > 5:
            self._tick_k = k_now
        ticks = [ClockTick(t=k * self.tick_interval) for k in range(self._tick_k, k_now + 1)]
        self._tick_k = k_now + 1
        return ticks

    def _handle_ticks(self, now: float) -> None:
        for tick in self.due_ticks(now):
            self.counts["ticks"] += 1
            self.handle(tick)
        if self.notices.due(now):  # the timed wake: the TV without what timed out
            self.notices.expire(now, self._hand())
            self.render()

    def pump(self) -> int:
        """Handle the ticks due now, then every queued event, without waiting.
        Returns the number of queued events handled (for virtual-time drivers)."""
        self._handle_ticks(self.clock.now())
        n = 0
        while True:
            try:
                event = self.queue.get_nowait()
            except queue.Empty:
                self.idle()
                return n
            self.handle(event)
            n += 1

    def idle(self) -> None:
        """What waits for the loop to be idle (no event queued): the fsync of the journal's
        high-water mark, left by the appends since, and the WAL's checkpoint when one is
        due (:meth:`pi_app.service.journal.Journal.idle`; each record itself is committed
        and fsynced before it is applied)."""
        self.journal.idle()

    def healthy(self) -> bool:
        """The loop is turning and not flooded.  A journal failure does not make it
        unhealthy: restarting would not free the disk, and the clock must stay on screen."""
        return self.queue.qsize() < self.backlog_limit

    def run_once(self) -> None:
        """One turn: due ticks, a watchdog ping, then wait (bounded) for one event."""
        now = self.clock.now()
        self._handle_ticks(now)
        if self.notifier is not None and self.healthy():
            self.notifier.watchdog_if_due()
        expiry = self.notices.next_expiry  # a notice timing out: one timed wake
        deadline = min(self.next_tick_t, now + self.max_wait,
                       math.inf if expiry is None else expiry)
        if self.queue.empty():
            self.idle()
        try:
            event = self.clock.wait(self.queue, deadline)
        except queue.Empty:
            return
        self.handle(event)

    def run(self, until: Callable[[], bool] | None = None) -> None:
        """Turn until :meth:`request_stop` (or ``until()`` is true)."""
        self.render(force=True)
        while not self._stop.is_set() and not (until is not None and until()):
            self.run_once()

    def final_snapshot(self) -> bool:
        """Snapshot the current state if anything happened since the last one (on stop)."""
        if self.journal.last_seq == self.journal.last_snapshot_seq:
            return True
        try:
            self.journal.write_snapshot(self.core.snapshot())
            return True
        except JournalUnavailable as err:
            log.error("final snapshot failed: %s", err)
            return False
