"""What the console's commands use of the table core: :class:`ConsoleCore`.

The console modules (:mod:`engine.table.console`, :mod:`engine.table.console_commands`,
:mod:`engine.table.console_award`) work on :class:`engine.table.core.TableCore`, which
imports them: they cannot import it back (the engine's imports have no cycle, type-only
imports included).  This protocol states, with the engine's own types, every part of the
core they read or change, so the strict type check covers them; the core satisfies it
structurally: the type check verifies it wherever the core hands itself to them.
"""

from __future__ import annotations

from typing import Protocol

from engine.betting.hand import Hand
from engine.betting.seat_input import SeatInput
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import DeckRegistry
from engine.effects import Effect
from engine.events import DealerButton, DealerCommand, Event, PlayerAction
from engine.table.console_base import ConsoleState
from engine.table.positions import Positions
from engine.table.undo import UndoRecord
from engine.table.venue_state import VenueState
from engine.tournament.clock import ClockAlert
from engine.tournament.tournament import Tournament


class ConsoleSettings(Protocol):
    """The table's settings the console reads (:class:`engine.table.core.TableSettings`):
    ``seed`` (seeds the seat draws) and ``seats`` (1-based seats in use; () = all ten)."""

    @property
    def seed(self) -> int: ...

    @property
    def seats(self) -> tuple[int, ...]: ...


class ConsoleCore(Protocol):
    """The table core as the console's commands see it (:class:`engine.table.core.TableCore`).

    Chips are ints, seats 1-based, times in seconds.  The ``_``-named members are the
    core's own steps that a command takes part in (a player action, a dealer command, a
    shoe event, the clock's alerts); the console's precheck asks each command's
    ``verify`` (:mod:`engine.table.verify` for the core's own steps), never a copy."""

    proc: DealingProcedure | None
    undo: UndoRecord | None
    hand_number: int
    pos: Positions
    seat_inputs: dict[int, SeatInput]
    results: dict[int, int]
    offline: set[str]
    shoe_draws: int
    console: ConsoleState
    venue: VenueState | None
    last_t: float

    @property
    def settings(self) -> ConsoleSettings: ...

    @property
    def tournament(self) -> Tournament: ...

    @property
    def registry(self) -> DeckRegistry: ...

    @property
    def hand(self) -> Hand | None: ...

    @property
    def in_hand(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    def names(self) -> dict[int, str]: ...

    def apply(self, event: Event) -> list[Effect]: ...

    def _player_action(self, ev: PlayerAction) -> list[Effect]: ...

    def _command(self, ev: DealerCommand) -> list[Effect]: ...

    def _shoe_event(self, ev: Event) -> list[Effect]: ...

    def _dealer_button(self, ev: DealerButton) -> list[Effect]: ...

    def _undo(self) -> list[Effect]: ...

    def _clock_effects(self, alerts: list[ClockAlert]) -> list[Effect]: ...
