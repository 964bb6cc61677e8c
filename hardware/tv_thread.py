"""The TV drawn on its own thread: the service loop hands over a state and goes on.

A 1080p frame takes the loop's thread ten to thirty milliseconds; drawn there, every
command that arrives meanwhile (a key press, a console command) waits behind it.
:class:`TVThread` owns a :class:`hardware.tv.TV` on one thread of its own, which opens the
display, draws, handles the window's events and closes it (SDL wants one thread for all
of a window's calls).  The loop's :meth:`TVThread.render` only puts the state in a
one-slot mailbox (the newest state wins: the TV needs the table now, not every state in
between) and returns.

The states handed over are :class:`engine.views.ScreenState` values (frozen, public data
only): the table's state stays the loop's, and what changed is still decided by the loop
(:class:`pi_app.service.changes.ViewChanges`).  Frames are paced at the TV's ``fps``
(at most ``fps`` frames a second; a burst of states is drawn as its newest), and window
events are handled every :data:`PUMP_INTERVAL` seconds while idle.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.health import HasHealth, Health
from hardware.tv import TV

log = logging.getLogger(__name__)

PUMP_INTERVAL = 0.25  #: seconds between window-event checks while no state arrives


class TVThread(HasHealth):
    """A :class:`TV` drawn on a thread of its own (see the module docstring).

    Args:
        tv: the TV (not yet opened: the thread opens it).
        clock: monotonic seconds (injectable), for the pacing.

    ``render``, ``pump`` and ``close`` are what the loop and the devices call, as on a
    :class:`TV`; :meth:`wait_drawn` waits until every state handed over is on screen.
    """

    def __init__(self, tv: TV, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.tv = tv
        self.health: Health = tv.health  # the same one: the TV reports, this reads
        self._clock = clock
        self._surface = threading.Lock()  # the frame being drawn, or saved
        self._cond = threading.Condition()
        self._pending: Any = None
        self._posted = 0   # states handed over
        self._drawn = 0    # of those, drawn (or replaced by a newer one that was)
        self._stopping = False
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tv", daemon=True)

    @property
    def size(self) -> tuple[int, int]:
        return self.tv.size

    @property
    def frames_drawn(self) -> int:
        return self.tv.frames_drawn

    @property
    def quit_requested(self) -> bool:
        return self.tv.quit_requested

    # --- life cycle ---------------------------------------------------------------------
    def open(self, timeout: float = 10.0) -> bool:
        """Start the thread, which opens the display; True when the real display is up
        (False: offline, drawing off-screen, retried with back-off, as :meth:`TV.open`)."""
        if not self._thread.is_alive():
            self._thread.start()
        self._opened.wait(timeout)
        return self.tv.online

    def close(self, timeout: float = 5.0) -> None:
        """Draw nothing more, close the display on the thread and wait for it."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        else:
            self.tv.close()

    # --- what the loop calls --------------------------------------------------------------
    def render(self, state: Any, now: float | None = None) -> bool:
        """Hand ``state`` to the thread (it replaces a state not yet drawn); True.
        Never waits for a frame."""
        with self._cond:
            self._pending = state
            self._posted += 1
            self._cond.notify_all()
        return True

    def pump(self) -> list[Any]:
        """Nothing: the thread handles the window's events itself."""
        return []

    def wait_drawn(self, timeout: float = 10.0) -> bool:
        """Wait until every state handed over so far is drawn; False on ``timeout``."""
        with self._cond:
            target = self._posted
            return self._cond.wait_for(lambda: self._drawn >= target or self._stopping,
                                       timeout)

    def save_png(self, path: Any) -> str:
        """The newest state's frame as a PNG (:meth:`TV.save_png`), once it is drawn."""
        self.wait_drawn()
        with self._surface:
            return self.tv.save_png(path)

    # --- the thread ---------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self.tv.open()
        except Exception:  # noqa: BLE001 - TV.open reports its own failures; a bug too
            log.exception("tv: the display could not be opened")
        finally:
            self._opened.set()
        last_frame = -1e9
        try:
            while True:
                state, target = self._next(last_frame)
                if state is _STOP:
                    break
                if state is not None:
                    last_frame = self._clock()
                    self._draw(state, target)
                self.tv.pump()
        finally:
            self.tv.close()
            with self._cond:
                self._stopping = True
                self._cond.notify_all()

    def _next(self, last_frame: float) -> tuple[Any, int]:
        """The newest state once the frame pacing allows (``(None, 0)`` after
        :data:`PUMP_INTERVAL` without one; ``_STOP`` when closing)."""
        gap = 1.0 / self.tv.fps if self.tv.fps else 0.0
        with self._cond:
            self._cond.wait_for(lambda: self._pending is not None or self._stopping,
                                PUMP_INTERVAL)
            if self._stopping:
                return _STOP, 0
            if self._pending is None:
                return None, 0
            wait = last_frame + gap - self._clock()
            if wait > 0:  # paced: later states of a burst replace this one meanwhile
                self._cond.wait_for(lambda: self._stopping, wait)
                if self._stopping:
                    return _STOP, 0
            state, self._pending = self._pending, None
            return state, self._posted

    def _draw(self, state: Any, target: int) -> None:
        with self._surface:  # not the mailbox's lock: the loop never waits for a frame
            try:
                self.tv.render(state)
            except Exception:  # noqa: BLE001 - TV.render handles its own; a bug here too
                log.exception("tv: a frame failed")
        with self._cond:
            self._drawn = target
            self._cond.notify_all()


_STOP: Any = object()
