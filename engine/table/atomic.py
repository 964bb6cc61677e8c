"""Verify-then-do for the table core: what makes a refused input change nothing, without a
snapshot of the whole table per event.

The hot inputs need no copy of the table: :meth:`engine.dealing.procedure.DealingProcedure.apply`
verifies them before anything changes (PokerKit's ``verify_*`` twins).  A card the
sequence expects (:meth:`~engine.dealing.card_flow.CardFlow.card_fits`: nearly every card
of a night) is taken with no copy at all; a refused player action is refused before
anything is copied; an action with the betting open (nearly every action) is taken with no
copy either, and the table's UNDO of the last action keeps one copy per run of such
actions (:mod:`engine.table.undo`); an action while cards are due keeps the deal state from
before it, which that UNDO needs (:func:`copy_procedure`, :func:`undo_after`); only the
rare inputs that may end in a ruling (a card out of sequence, a duplicate, a foreign tag, a
declaration) keep a copy, the one an override of that ruling goes back to.
The core changes its own fields only after the procedure accepted the event
(:mod:`engine.table.core`).  The rare operator inputs (NEXT HAND, PAUSE/RESUME, the
operator's commands, the console's commands: a few per hand) change the tournament in
several steps, so :class:`Guard` keeps a structural copy of the tournament, of the core's
own fields and of the console's state (no dict round trip: a few dozen objects) and puts
them back if a step refuses.  The console's precheck copies nothing: it asks each
command's ``verify`` (:func:`engine.table.console.precheck`).

>>> from engine.table.core import TableCore, TableSettings
>>> from engine.events import DealerCommand
>>> core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob"}))
>>> before = core.snapshot()
>>> core.apply(DealerCommand(t=1.0, command="register", args={"name": "Cy", "seat": 1}))
Traceback (most recent call last):
...
engine.errors.InvalidInputError: command 'register': seat 1 is taken
>>> core.snapshot() == before
True
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

#: the core's own fields that the rare inputs change (the tournament is copied apart)
CORE_FIELDS = ("proc", "hand_number", "pos", "seat_inputs", "results", "offline", "muted",
               "history_digest", "undo", "shoe_draws", "load_count", "free_hand",
               "reshuffles")


def _shallow(obj: Any) -> Any:
    """``copy.copy(obj)`` for an object of a plain class (its attributes in ``__dict__``;
    no ``__slots__``, ``__copy__`` or ``__setstate__``), without the copy protocol's
    look-ups: a tournament's entrants are copied on every NEXT HAND."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def copy_tournament(tour: Any) -> Any:
    """A copy of a :class:`engine.tournament.tournament.Tournament` that shares nothing
    mutable with it (the structure, immutable, is shared)."""
    new = _shallow(tour)
    for name, value in vars(tour).items():
        if isinstance(value, (list, dict, set)):
            setattr(new, name, copy.copy(value))
    new.entrants = [_shallow(e) for e in tour.entrants]
    new.clock = _shallow(tour.clock)
    new.clock.fired = set(tour.clock.fired)
    return new


def copy_procedure(proc: Any, state: Any = None) -> Any:
    """A copy of a :class:`engine.dealing.procedure.DealingProcedure` for the UNDO of the
    last player action: what :meth:`DealingProcedure.apply` may change is copied, the
    deck registry and house profile (never changed by a hand) are shared.  ``state``: the
    deal state to use instead of a copy of ``proc``'s (filled in later by the caller)."""
    new = object.__new__(type(proc))
    new.__dict__.update(proc.__dict__)
    new.s = proc.s.copy() if state is None else state
    new.book = type(proc.book)(proc.book.rulings[:], proc.book.decisions[:])
    if proc._pending is not None:
        rid, snap, trigger, later = proc._pending
        new._pending = (rid, snap.copy(), trigger, list(later))
    return new


def undo_after(undo: Any, proc: Any) -> Any:
    """Complete ``undo`` (a :func:`copy_procedure` made before ``proc`` applied an event,
    with no state) with the deal state ``proc`` had before that event: the copy the
    procedure made for its own rollback, copied again only when a ruling now holds it."""
    before = proc.state_before
    pending = proc._pending
    undo.s = before.copy() if pending is not None and pending[1] is before else before
    return undo


class Guard:
    """Keeps the tournament, the core's fields and the console's state of ``core`` to put
    back on a refusal.

    Usage: ``g = Guard(core)``, then on an exception ``g.restore()`` and re-raise.
    """

    def __init__(self, core: Any) -> None:
        self.core = core
        self.tournament = copy_tournament(core.tournament)
        self.fields = {name: _copy_field(getattr(core, name)) for name in CORE_FIELDS}
        self.console = copy_console(core.console)
        self.venue = _copy_venue(core)

    def restore(self) -> None:
        self.core.tournament = self.tournament
        for name, value in self.fields.items():
            setattr(self.core, name, value)
        self.core.console = self.console
        self.core.venue = self.venue


def copy_console(state: Any) -> Any:
    """A copy of a :class:`engine.table.console_base.ConsoleState` that shares no list
    with it (the audit's entries, never changed once added, are shared)."""
    return dataclasses.replace(state, waiting=list(state.waiting), away=list(state.away),
                               audit=list(state.audit), requests=list(state.requests),
                               level_minutes=None if state.level_minutes is None
                               else list(state.level_minutes))


def _copy_venue(core: Any) -> Any:
    """A copy of the venue state of a table in venue mode (engine.table.venue_state)."""
    venue = getattr(core, "venue", None)
    return None if venue is None else venue.copy()


def _copy_field(value: Any) -> Any:
    return copy.copy(value) if isinstance(value, (list, dict, set)) else value
