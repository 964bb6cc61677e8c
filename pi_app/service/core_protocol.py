"""The interface between the service and the pure table core.

The service (:mod:`pi_app.service.loop`, :mod:`pi_app.service.journal`, :mod:`pi_app.service.recovery`) is written
against :class:`TableCore` only; the real core is ``engine.table.core.TableCore`` (the tournament
clock, the current hand and the dealing procedure combined), which the service constructs
directly.  Tests and benches pass a small deterministic fake instead.

Contract (what recovery relies on):

* ``apply`` is deterministic and performs no I/O: the same snapshot plus the same events
  give the same state and the same effects, so replaying the journal rebuilds the state
  exactly.  Time comes only from ``event.t`` (monotonic seconds).
* A rejected input may raise a :class:`engine.errors.PokerTableError`; it must then leave
  the state unchanged (replay sees the same exception and skips the event the same way).
* ``snapshot`` returns plain JSON-able data (dicts with string keys, lists, str, int,
  float, bool, None) that ``restore`` turns back into an equal core:
  ``Core.restore(json.loads(json.dumps(c.snapshot()))).snapshot() == c.snapshot()``.
  It contains private data (hole cards, deck order): it goes to the journal only.
* ``screen_state(alarms)`` is public (never an unrevealed hole card) and holds the
  service's alarms given, before the core's own (one list: none overwrites another);
  ``seat_views`` maps a seat
  (1-based) to what that seat's display may show.
* ``summary`` is JSON-able: at least ``hands_played``, ``final_stacks`` (seat -> chips),
  ``places`` (seat -> place where decided); the simulator adds ``history_sha256``.
* Optional: ``starts_new_hand(event) -> bool`` tells whether applying ``event`` would start
  a new hand (the loop refuses those while the journal is unavailable).  Without it, the
  loop treats ``DealerButton(button="next_hand")`` as the only such event
  (:func:`starts_new_hand`).
* Optional: ``replaying``, a bool attribute: while :func:`pi_app.service.recovery.recover`
  replays the journal it is True, and ``apply`` may leave out every effect but the hand
  histories (the replay drops the others).  The state must come out the same.
* Optional: ``tick_changes(t) -> bool`` tells whether a clock tick at ``t`` would change
  the state beyond the time itself (a level or break starting or ending, a time warning,
  late registration closing).  A tick that would not is applied without being journaled:
  the clock is derived from the times of the events, so replay needs only the ticks that
  change something (:func:`tick_changes`).  Without it, every tick is journaled.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from engine.betting.odds_view import OddsProvider
from engine.effects import Effect
from engine.events import DealerButton, Event
from engine.views import ScreenState, SeatDisplayView


@runtime_checkable
class TableCore(Protocol):
    """The pure core the service drives (see the module docstring for the contract)."""

    def apply(self, event: Event) -> list[Effect]:
        """Apply one input event; return the effects to carry out.  No I/O."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The whole state as exact JSON-able data (private: for the journal only)."""
        ...

    @classmethod
    def restore(cls, data: dict[str, Any]) -> TableCore:
        """Inverse of :meth:`snapshot`."""
        ...

    @classmethod
    def from_config(cls, config: Any) -> TableCore:
        """A new tournament for a table config (:class:`pi_app.service.config.TableConfig`,
        or None where the core has defaults of its own)."""
        ...

    def screen_state(self, alarms: tuple[str, ...] = (),
                     odds_provider: OddsProvider | None = None) -> ScreenState:
        """What the TV shows now (public), with the service's ``alarms`` among its own;
        ``odds_provider`` works out the all-in odds (None: the core's own, synchronous)."""
        ...

    def seat_views(self) -> dict[int, SeatDisplayView]:
        """Seat (1-based) -> that seat's private display view."""
        ...

    def summary(self) -> dict[str, Any]:
        """JSON-able: ``hands_played``, ``final_stacks``, ``places``, ..."""
        ...


def starts_new_hand(core: TableCore, event: Event) -> bool:
    """Whether applying ``event`` to ``core`` would start a new hand.

    Asks ``core.starts_new_hand(event)`` when the core has it; otherwise a
    ``DealerButton`` press of ``next_hand`` counts as starting a hand.
    """
    ask = getattr(core, "starts_new_hand", None)
    if callable(ask):
        return bool(ask(event))
    return isinstance(event, DealerButton) and event.button == "next_hand"


def tick_changes(core: Any, t: float) -> bool:
    """Whether a clock tick at ``t`` must be journaled: ``core.tick_changes(t)`` when the
    core has it, else True (every tick journaled)."""
    ask = getattr(core, "tick_changes", None)
    return bool(ask(t)) if callable(ask) else True
