"""The operator's commands to the table (:class:`engine.events.DealerCommand`): the
clock, late entries, eliminations, sound, a hand set up by hand, a restart's clock policy.

The table core (:class:`engine.table.core.TableCore`) hands itself to
:func:`dealer_command` as an :class:`OperatorCore`, the part of it the commands read and
change; the core imports this module, so this module states that part as a protocol
instead of importing the core back.  :class:`TableStateError` is the table's refusal of an
input that does not fit its state now.

Commands (``args`` in brackets; seats 1-based, seconds, chips as ints):
``add_time`` [seconds=60], ``next_level``, ``previous_level``, ``jump_level`` [index],
``pause``, ``resume``, ``late_entry``/``register`` [name, seat], ``eliminate`` [seat,
by], ``undo_elimination``, ``mute`` [on], ``start_hand`` [config: a
:meth:`engine.betting.hand_config.HandConfig.to_dict`], ``restarted`` [policy=paused].
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.betting.hand import HandConfig
from engine.effects import Effect, LogLine, Notice
from engine.errors import IllegalActionError, InvalidInputError, PokerTableError
from engine.events import DealerCommand
from engine.tournament.clock import ClockAlert
from engine.tournament.eliminations import undo_target, verify_eliminate
from engine.tournament.tournament import Tournament


class TableStateError(IllegalActionError):
    """An input that does not fit the table's state now (e.g. NEXT HAND mid-hand)."""


class CommandTable(Protocol):
    """What :func:`verify_dealer_command` reads of the table core: its tournament and
    whether a hand is being played."""

    @property
    def tournament(self) -> Tournament: ...

    @property
    def in_hand(self) -> bool: ...


class OperatorCore(CommandTable, Protocol):
    """The table core as the operator's commands see it: also the sound switch and two of
    its own steps."""

    muted: bool

    def _clock_effects(self, alerts: list[ClockAlert]) -> list[Effect]: ...

    def _start_free_hand(self, cfg: HandConfig, t: float) -> list[Effect]: ...


def dealer_command(core: OperatorCore, ev: DealerCommand) -> list[Effect]:
    """Apply the operator's command ``ev`` to ``core``; return the effects.

    Raises:
        InvalidInputError: an unknown command, a missing or malformed argument
            (``"command 'jump_level': bad arguments {...} (...)"``), or a command the
            table or the tournament refuses now, in their own words and nothing else
            (``"command 'eliminate': finish the hand first"``, ``"command 'register':
            seat 1 is taken"``).
    """
    verify_dealer_command(core, ev)
    c, a = ev.command, ev.args
    try:
        effects = _clock_command(core, c, a, ev.t)
        if effects is None:
            effects = _player_command(core, c, a, ev.t)
    except (KeyError, ValueError, TypeError) as exc:
        raise _refusal(c, a, exc) from None
    if effects is None:
        raise InvalidInputError(f"unknown command {c!r}")
    return effects


def verify_dealer_command(core: CommandTable, ev: DealerCommand) -> None:
    """Raises as :func:`dealer_command` would refuse ``ev`` now, in the same words;
    changes nothing.  The commands checked here: ``add_time``, ``jump_level``, ``pause``,
    ``resume``, ``eliminate`` and ``undo_elimination`` (every other command is checked as
    it is applied, under the core's guard)."""
    c, a = ev.command, ev.args
    tour = core.tournament
    try:
        if c == "add_time":
            tour.clock.verify_add_time(ev.t, float(a.get("seconds", 60)))
        elif c == "jump_level":
            tour.clock.verify_jump_to(int(a["index"]))
        elif c == "pause":
            tour.clock.verify_pause()
        elif c == "resume":
            tour.clock.verify_resume(ev.t)
        elif c in ("eliminate", "undo_elimination") and core.in_hand:
            raise TableStateError("finish the hand first")
        elif c == "eliminate":
            by = a.get("by")
            verify_eliminate(tour, int(a["seat"]), None if by is None else int(by))
        elif c == "undo_elimination":
            undo_target(tour)
    except (KeyError, ValueError, TypeError) as exc:
        raise _refusal(c, a, exc) from None


def _refusal(c: str, a: dict[str, Any], exc: Exception) -> InvalidInputError:
    """A command's refusal in its own words: the table's or the tournament's, or the bad
    arguments."""
    if isinstance(exc, InvalidInputError):
        return exc
    if isinstance(exc, PokerTableError):  # the table's or tournament's own words
        return InvalidInputError(f"command {c!r}: {exc}")
    return InvalidInputError(f"command {c!r}: bad arguments {dict(a)!r} ({exc})")


def _clock_command(core: OperatorCore, c: str, a: dict[str, Any],
                   t: float) -> list[Effect] | None:
    """The clock's commands; None if ``c`` is not one."""
    tour = core.tournament
    if c == "add_time":
        return core._clock_effects(tour.add_time(t, float(a.get("seconds", 60))))
    if c == "next_level":
        return core._clock_effects(tour.next_level(t))
    if c == "previous_level":
        return core._clock_effects(tour.previous_level(t))
    if c == "jump_level":
        return core._clock_effects(tour.jump_to_level(t, int(a["index"])))
    if c == "pause":
        return core._clock_effects(tour.pause(t))
    if c == "resume":
        return core._clock_effects(tour.resume(t))
    if c == "restarted":
        # the service restarted: the clock policy decides (paused by default)
        if a.get("policy", "paused") == "paused" and tour.clock.started \
                and tour.clock.paused_at is None:
            return core._clock_effects(tour.pause(t)) + [
                Notice("Clock paused after a restart: press PAUSE/RESUME")]
        return []
    return None


def _player_command(core: OperatorCore, c: str, a: dict[str, Any],
                    t: float) -> list[Effect] | None:
    """The commands on players, the sound and free hands; None if ``c`` is not one."""
    tour = core.tournament
    if c in ("late_entry", "register"):
        e = tour.register(str(a["name"]), int(a["seat"]), now=t)
        return [Notice(f"{e.name} joins in seat {e.seat} with {e.chips:,}"),
                LogLine("INFO", f"late entry {e.name} seat {e.seat}: {e.chips} chips "
                                f"(deduction {e.deduction})")]
    if c == "eliminate":
        if core.in_hand:
            raise TableStateError("finish the hand first")
        by = a.get("by")
        return core._clock_effects(tour.eliminate(
            t, int(a["seat"]), None if by is None else int(by)))
    if c == "undo_elimination":
        if core.in_hand:
            raise TableStateError("finish the hand first")
        e = tour.undo_elimination(t)
        return [Notice(f"{e.name} is back in seat {e.seat}")]
    if c == "mute":
        core.muted = bool(a.get("on", not core.muted))
        return [Notice("Sound off" if core.muted else "Sound on")]
    if c == "start_hand":
        return core._start_free_hand(HandConfig.from_dict(a["config"]), t)
    return None
