"""The TV's slow all-in odds, worked out off the service loop's thread.

A multiway all-in preflop (three hands or more) is a seeded Monte Carlo of
:data:`engine.betting.equity.PREFLOP_SAMPLES` boards: seconds on this machine, several
times that on a Pi.  Worked out inside the loop's screen building it would hold up the
console's answer, the seat displays and the keys.  :class:`OddsWorker` is the
:data:`engine.betting.odds_view.OddsProvider` the live service hands the core instead:

* a fast spot (heads-up preflop: a table look-up; any spot from the flop on: exact,
  milliseconds even with six hands) is worked out at once, on the caller's thread;
* a slow spot is handed to one daemon thread (started with the worker) and the provider answers None, so the TV
  shows the all-in panel pending (the hands face up, "odds: working out");
* when the figures are ready the worker hands them to the loop with ``call_soon``: on
  the loop's thread they are kept, and the loop redraws, now with the figures;
* one spot at a time: a newer spot asked for supersedes an older one, whose figures,
  when they come, are dropped (a spot's figures are only ever shown for that spot:
  they are looked up by its cards and pots); the spot being worked out is not queued
  again by a redraw meanwhile (until its figures are kept on the loop's thread), so it
  is worked out once and redrawn once;
* :meth:`OddsWorker.stop` ends the thread (the service calls it on exit; a spot being
  worked out is finished and dropped).

The figures are those of :func:`engine.betting.odds_view.spot_odds` (same seed, same
samples).  The simulator and the screenshots keep the synchronous provider: in virtual
time nothing is gained by a thread, and their pictures must not depend on thread timing.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

from engine.betting.equity import AllInOdds
from engine.betting.odds_view import Holes, OddsProvider, Pots, spot_odds
from engine.cards import Card

log = logging.getLogger(__name__)

Spot = tuple[Holes, tuple[Card, ...], Pots, int]
KEEP = 8  #: finished spots kept (the TV asks for the current one at every redraw)


def is_slow(holes: Holes, board: tuple[Card, ...]) -> bool:
    """Whether a spot takes seconds: preflop with three hands or more (a Monte Carlo of
    120,000 boards, 1.9 s for three hands on the development machine); heads-up preflop
    reads a table and a flop with six hands is enumerated in about 10 ms."""
    return not board and len(holes) >= 3


class OddsWorker:
    """An :data:`OddsProvider` that works slow spots out on one daemon thread.

    Args:
        call_soon: runs a function on the service loop's thread, then redraws
            (:meth:`pi_app.service.loop.ServiceLoop.call_soon`).
        compute: the synchronous provider (default :func:`spot_odds`; tests hold it).
    """

    def __init__(self, call_soon: Callable[[Callable[[], Any]], None], *,
                 compute: OddsProvider = spot_odds) -> None:
        self._call_soon = call_soon
        self._compute = compute
        self._cond = threading.Condition()
        self._wanted: Spot | None = None   # the latest spot asked for (any thread)
        self._queued: Spot | None = None   # the slow spot the thread is to work out next
        self._busy: Spot | None = None     # taken by the thread, its figures not kept yet
        self._done: OrderedDict[Spot, AllInOdds] = OrderedDict()  # loop thread only
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="odds", daemon=True)
        self._thread.start()

    def __call__(self, holes: Holes, board: tuple[Card, ...], pots: Pots,
                 samples: int) -> AllInOdds | None:
        """The spot's odds, or None while the thread works them out (module docstring)."""
        spot: Spot = (holes, board, pots, samples)
        with self._cond:
            self._wanted = spot
        if not is_slow(holes, board):
            return self._compute(*spot)
        if spot in self._done:
            return self._done[spot]
        with self._cond:
            if self._stopping or spot == self._busy:  # a redraw while it is worked out
                return None
            self._queued = spot
            self._cond.notify()
        return None

    @property
    def alive(self) -> bool:
        """Whether the thread is running."""
        return self._thread.is_alive()

    def stop(self, timeout: float = 2.0) -> None:
        """End the thread (waits up to ``timeout`` seconds, as a spot being worked out
        cannot be cut short; the thread is a daemon, so it never holds up the exit)."""
        with self._cond:
            self._stopping = True
            self._queued = None
            self._cond.notify()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._queued is None and not self._stopping:
                    self._cond.wait()
                if self._stopping or self._queued is None:
                    return
                spot: Spot = self._queued
                self._queued, self._busy = None, spot
            try:
                odds = self._compute(*spot)
            except Exception:  # noqa: BLE001 - the TV keeps the panel pending
                log.exception("all-in odds failed")
                odds = None
            with self._cond:
                if odds is None or self._stopping or self._wanted != spot:
                    self._busy = None  # failed, or superseded: a newer spot was asked for
                    continue
            self._call_soon(partial(self._keep, spot, odds))

    def _keep(self, spot: Spot, odds: AllInOdds | None) -> None:
        """On the loop's thread: keep ``spot``'s figures (the loop then redraws)."""
        with self._cond:
            if self._busy == spot:
                self._busy = None
        if odds is None:
            return
        self._done[spot] = odds
        while len(self._done) > KEEP:
            self._done.popitem(last=False)
