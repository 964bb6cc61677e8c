"""The director's registration desk: the players registered before the start.

Before the opening draw the director takes registrations (from the venue's console, or
``--sim-players``): each name is checked (:func:`engine.tournament.venue_prizes.
check_entry_name`: as at one table, no control or bidi characters, at most 24 characters,
no name twice whatever its case), journaled, then taken; the venue's seats bound the
count.  A restarted director finds them in its journal.  The start (at least two players)
hands the list, in the order they came, to :class:`pi_app.venue.director.Director`, whose
opening draw seats them at random (TDA 6); after it, an entry is a late entry
(:meth:`pi_app.venue.director.Director.enter`).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from typing import Any

from engine.tournament.structure import Structure
from engine.tournament.venue_prizes import EntryError, check_entry_name
from pi_app.venue.director_journal import DirectorJournal
from pi_app.venue.entry import ClockRefused, ClockRequest, Entry, Start

log = logging.getLogger(__name__)


class Desk:
    """Registration before the start, journaled in ``journal``.

    Args:
        journal: the director's journal (its ``registrations``).
        structure: the night's structure (each entry's chips: the starting stack).
        seats: the venue's seats, the most players it can take.
    """

    def __init__(self, journal: DirectorJournal, structure: Structure, seats: int) -> None:
        self.journal = journal
        self.structure = structure
        self.seats = seats
        self.players = journal.registered()
        self.events: queue.Queue[Any] = queue.Queue()
        #: called after each request answered (the venue console's push)
        self.observer: Callable[[Desk], None] | None = None

    def register(self, name: str) -> tuple[str, int]:
        """Register ``name``; returns (name, chips).

        Raises:
            engine.text.UnsafeTextError, EntryError: a bad or taken name, or every seat of
                the venue taken (nothing journaled).
        """
        name = check_entry_name(name, self.players)
        if len(self.players) >= self.seats:
            raise EntryError(f"the venue's {self.seats} seats are all taken")
        self.journal.register(name)
        self.players.append(name)
        return name, self.structure.starting_stack

    def start(self) -> list[str]:
        """The players of the opening draw.

        Raises:
            EntryError: fewer than two players registered.
        """
        if len(self.players) < 2:
            raise EntryError("at least two players are needed to start")
        return list(self.players)

    def run(self, timeout: float | None = None) -> list[str]:
        """Take the requests on :attr:`events` (:class:`Entry`, :class:`Start`) until a
        start is accepted; returns the players (TimeoutError after ``timeout`` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if self.observer is not None:
            self.observer(self)
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("the tournament was not started in time")
            try:
                event = self.events.get(timeout=0.5 if left is None else min(0.5, left))
            except queue.Empty:
                continue
            if isinstance(event, Entry):
                event.answer(self.register, event.name)
            elif isinstance(event, ClockRequest):
                event.answer(_not_started)
            elif isinstance(event, Start):
                event.answer(self.start)
                if event.future.exception() is None:
                    log.info("venue: started with %d players", len(self.players))
                    return list(self.players)
            if self.observer is not None:
                self.observer(self)


def _not_started() -> None:
    raise ClockRefused("the tournament has not started: its clock runs from the start")
