"""Monotonic time sources injected into the service loop and the adapters.

Every time value in the service comes from one of these (float seconds, monotonic):

* :class:`RealClock`: ``time.monotonic()``; waiting on the event queue really blocks.
* :class:`VirtualClock`: time moves only when told to (tests, simulation); waiting on an
  empty queue jumps straight to the deadline instead of sleeping.
* :class:`OffsetClock`: another clock shifted so that it never reads earlier than the last
  journaled event (after a reboot ``time.monotonic()`` starts again near zero).
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Protocol


class ClockSource(Protocol):
    """A monotonic clock the loop can also wait on."""

    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def wait(self, q: queue.Queue[Any], deadline: float) -> Any:
        """Take an item from ``q``, waiting at most until ``deadline`` (clock seconds).

        Raises:
            queue.Empty: nothing arrived before the deadline.
        """
        ...


class RealClock:
    """``time.monotonic()``; :meth:`wait` blocks on the queue with a timeout."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, q: queue.Queue[Any], deadline: float) -> Any:
        timeout = max(0.0, deadline - self.now())
        return q.get(timeout=timeout)


class VirtualClock:
    """A clock that only moves when told to (thread-safe).

    ``wait`` never sleeps: an empty queue makes the clock jump to the deadline.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._t = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds`` (>= 0); returns the new time."""
        if seconds < 0:
            raise ValueError(f"a monotonic clock cannot go back ({seconds} s)")
        with self._lock:
            self._t += seconds
            return self._t

    def advance_to(self, t: float) -> float:
        """Move forward to ``t`` (no change if ``t`` is not later)."""
        with self._lock:
            if t > self._t:
                self._t = float(t)
            return self._t

    def wait(self, q: queue.Queue[Any], deadline: float) -> Any:
        try:
            return q.get_nowait()
        except queue.Empty:
            self.advance_to(deadline)
            raise


class OffsetClock:
    """``base.now() + offset``: continues a journal's timeline after a restart."""

    def __init__(self, base: ClockSource, offset: float) -> None:
        self.base = base
        self.offset = float(offset)

    def now(self) -> float:
        return self.base.now() + self.offset

    def wait(self, q: queue.Queue[Any], deadline: float) -> Any:
        return self.base.wait(q, deadline - self.offset)


def continue_after(base: ClockSource, last_t: float | None) -> ClockSource:
    """A clock that reads at least ``last_t`` now and moves with ``base`` from here on.

    Used after recovery so that new events never carry a time earlier than the last
    journaled one (the gap while the service was down counts as zero: the tournament
    clock behaves as if paused during the outage).  A :class:`VirtualClock` is moved
    forward to ``last_t`` and returned as is.
    """
    if last_t is None:
        return base
    if isinstance(base, VirtualClock):
        base.advance_to(last_t)  # virtual time simply continues from the journal
        return base
    now = base.now()
    if now >= last_t:
        return base
    return OffsetClock(base, last_t - now)
