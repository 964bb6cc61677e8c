"""The slow all-in odds worked out in a child process, not on a thread of the service.

A multiway all-in preflop is a Monte Carlo of seconds of pure Python.  Worked out on a
thread of the service's own process (:class:`pi_app.service.odds_worker.OddsWorker`'s), it
holds the interpreter lock for those seconds: every time the loop's thread lets the lock
go (a journal commit waiting for its fsync, a blocking write), it waits for it again,
up to the interpreter's switch interval (5 ms) each time.  In the service bench that made
the 80 events after such an all-in 40-270 ms each, the whole tail of "event to journaled,
applied and rendered" (docs/performance.md).

:class:`OddsProcess` is the ``compute`` an :class:`~pi_app.service.odds_worker.OddsWorker`
is given in the live service: a fast spot (:func:`~pi_app.service.odds_worker.is_slow`
false) is worked out at once on the caller's thread, a slow one is sent to one child
process (started by :meth:`OddsProcess.start`, or else at the first slow spot, with the
``spawn`` method: no copy of the service's threads or open files) and its answer awaited on the worker's thread, which
holds no lock while it waits.  The figures are the same (:func:`spot_odds` is seeded).

A child that died (killed, out of memory) makes that spot fail (the worker logs it and the
TV keeps the panel pending) and is started again for the next slow spot.  :meth:`close`
ends the child at once, a spot being worked out with it.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from multiprocessing.connection import Connection
from typing import Any

from engine.betting.equity import AllInOdds
from engine.betting.odds_view import Holes, OddsProvider, Pots, spot_odds
from engine.cards import Card
from pi_app.service.odds_worker import is_slow

log = logging.getLogger(__name__)


class OddsProcessError(RuntimeError):
    """The child process ended before it answered (the spot stays pending)."""


def _serve(conn: Connection, compute: OddsProvider) -> None:  # pragma: no cover - child
    """The child's loop: a spot in, ``(True, odds)`` or ``(False, error text)`` out; None
    or a closed pipe (the service gone, even killed) ends it."""
    while True:
        try:
            spot = conn.recv()
        except (EOFError, OSError):
            return
        if spot is None:
            return
        answer: tuple[bool, object]
        try:
            answer = (True, compute(*spot))
        except Exception as exc:  # noqa: BLE001 - told to the parent, which logs it
            answer = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except OSError:
            return


class OddsProcess:
    """An :data:`~engine.betting.odds_view.OddsProvider` that works slow spots out in one
    child process (see the module docstring).

    Args:
        compute: the synchronous provider (default :func:`spot_odds`); for the child it
            must be picklable (a module-level function).
        start_method: the :mod:`multiprocessing` start method (default ``spawn``).
    """

    def __init__(self, compute: OddsProvider = spot_odds, *,
                 start_method: str = "spawn") -> None:
        self._compute = compute
        self._ctx: Any = multiprocessing.get_context(start_method)
        self._lock = threading.Lock()  # one spot at a time through the pipe
        self._child: Any = None
        self._conn: Connection | None = None
        self._closed = False
        self.started = 0  #: children started so far

    def __call__(self, holes: Holes, board: tuple[Card, ...], pots: Pots,
                 samples: int) -> AllInOdds | None:
        """The spot's odds; a slow spot's from the child (blocks the calling thread,
        without the interpreter lock, until it answers).

        Raises:
            OddsProcessError: the child ended before it answered, or its work failed.
        """
        if not is_slow(holes, board):
            return self._compute(holes, board, pots, samples)
        with self._lock:
            if self._closed:
                return None
            conn = self._connection()
            try:
                conn.send((holes, board, pots, samples))
                ok, value = conn.recv()
            except (EOFError, OSError) as exc:
                self._end_child()
                if self._closed:
                    return None
                raise OddsProcessError("the odds process ended before it answered") from exc
        if not ok:
            raise OddsProcessError(f"the odds process failed: {value}")
        odds: AllInOdds | None = value
        return odds

    def start(self) -> None:
        """Start the child now rather than at the first slow spot (its start-up, a new
        interpreter importing the evaluator, then costs no event anything)."""
        with self._lock:
            if not self._closed:
                self._connection()

    @property
    def alive(self) -> bool:
        """Whether a child is running now."""
        child = self._child
        return child is not None and child.is_alive()

    def _connection(self) -> Connection:
        if self._conn is None or not self.alive:
            self._end_child()
            parent, child_end = self._ctx.Pipe()
            child = self._ctx.Process(target=_serve, args=(child_end, self._compute),
                                      name="pokertable-odds", daemon=True)
            child.start()
            child_end.close()
            self._child, self._conn = child, parent
            self.started += 1
        return self._conn

    def _end_child(self) -> None:
        child, conn = self._child, self._conn
        self._child = self._conn = None
        if child is not None and child.is_alive():
            child.terminate()
        if child is not None:
            child.join(2.0)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        """End the child now (a spot being worked out is dropped; its caller gets None).
        Later slow spots answer None."""
        self._closed = True
        if self._lock.acquire(blocking=False):
            try:
                self._end_child()
            finally:
                self._lock.release()
            return
        child = self._child  # a caller waits for it: its recv() ends, and it tidies up
        if child is not None and child.is_alive():
            child.terminate()
            child.join(2.0)
