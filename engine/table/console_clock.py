"""The console's clock commands: pause, resume, add and remove time, jump to a level, and
the remaining levels' length for tonight.  Each is a pair ``(verify, do)``
(:class:`engine.table.console_commands.Spec`); times are whole seconds, lengths whole
minutes.  Time added and time removed are two commands, each with a positive number of
seconds, so the journal and the audit name what was done (``add_time: added 1:00``,
``remove_time: removed 1:00``)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from engine.effects import Alert, Effect, Notice
from engine.events import DealerCommand
from engine.table.console_args import need_between_hands, need_not_over, no_args, whole
from engine.table.console_base import ConsoleCommandError, ConsoleRefused
from engine.table.console_core import ConsoleCore
from engine.table.dealer_commands import verify_dealer_command

Result = tuple[list[Effect], str]
Check = Callable[[ConsoleCore, dict[str, Any], float], None]
Run = Callable[[ConsoleCore, dict[str, Any], float], Result]
MAX_SHIFT = 36000  #: seconds added or removed at once (ten hours)


def clock_command(command: str, words: str) -> tuple[Check, Run]:
    """Pause or resume (``command``), refused when the clock is not started or already so."""
    def verify(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
        no_args(args)
        clock = core.tournament.clock
        if not clock.started:
            raise ConsoleRefused("the clock has not started")
        need_not_over(core)
        if (command == "pause") == (clock.paused_at is not None):
            raise ConsoleRefused(f"the clock is already {'paused' if clock.paused_at else 'running'}")
        verify_dealer_command(core, DealerCommand(t=t, command=command))

    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        return core._command(DealerCommand(t=t, command=command)) + [
            Alert("paused" if command == "pause" else "resumed")], words
    return verify, run


def _shift_command(core: ConsoleCore, args: dict[str, Any], t: float,
                   sign: int) -> DealerCommand:
    """The operator's add_time that adds (``sign`` 1) or removes (-1) ``seconds``."""
    value = args.get("seconds")
    if sign > 0 and isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise ConsoleCommandError(f"seconds must be 1..{MAX_SHIFT}: to take time off the "
                                  "level, remove time")
    seconds = whole(args, "seconds", 1, MAX_SHIFT)
    if not core.tournament.clock.started:
        raise ConsoleRefused("the clock has not started")
    need_not_over(core)
    if sign < 0:
        _check_left(core, seconds, t)
    return DealerCommand(t=t, command="add_time", args={"seconds": sign * seconds})


def _shift(sign: int) -> tuple[Check, Run]:
    def verify(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
        verify_dealer_command(core, _shift_command(core, args, t, sign))

    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        effects = core._command(_shift_command(core, args, t, sign))
        return effects, f"{'added' if sign > 0 else 'removed'} {clock_text(args['seconds'])}"
    return verify, run


def _check_left(core: ConsoleCore, seconds: int, t: float) -> None:
    """Raises ConsoleRefused when ``seconds`` is not less than the time left: taken off,
    it would end the level at once (the clock's rule) while the audit said only "removed"
    (a slip of a digit would jump a level: jump-level says it)."""
    view = core.tournament.clock_view(t)
    left = view.remaining_seconds
    if left is not None and seconds >= left:
        what = "break" if view.is_break else f"level {view.level_number}"
        raise ConsoleRefused(f"only {clock_text(math.ceil(left))} is left of {what}: take "
                             "off less, or jump to the next level")


#: ``seconds`` (1..36000) added to the level being played
add_time = _shift(1)
#: ``seconds`` (1..36000) taken off the level being played, less than it has left
remove_time = _shift(-1)


def clock_text(seconds: int) -> str:
    """Seconds as a clock shows them: ``"1:00"``, ``"0:30"``, ``"1:05:00"`` (an hour or
    more)."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _jump_command(core: ConsoleCore, args: dict[str, Any], t: float) -> DealerCommand:
    """To level number ``level`` (not a break), between hands."""
    number = whole(args, "level", 1, 1000)
    need_not_over(core)
    levels = core.tournament.clock.structure.levels
    index = next((lv.index for lv in levels if lv.number == number and not lv.is_break), None)
    if index is None:
        raise ConsoleRefused(f"no level {number}; levels are 1..{max(lv.number for lv in levels)}")
    need_between_hands(core)
    return DealerCommand(t=t, command="jump_level", args={"index": index})


def _verify_jump_level(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    verify_dealer_command(core, _jump_command(core, args, t))


def _jump_level(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    effects = core._command(_jump_command(core, args, t))
    return effects, f"jumped to level {args['level']}"


jump_level = (_verify_jump_level, _jump_level)


def _first_changed(core: ConsoleCore, args: dict[str, Any]) -> int:
    """The index of the first level :data:`level_length` changes (checking ``args``)."""
    whole(args, "minutes", 1, 240)
    need_not_over(core)
    tour = core.tournament
    if tour.structure.qualifiers is not None:
        raise ConsoleRefused("the rounds of this structure have fixed lengths")
    first = tour.clock.index + (1 if tour.clock.started else 0)
    if first >= len(tour.clock.structure.levels):
        raise ConsoleRefused("no level is left to change")
    return int(first)


def _verify_level_length(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    _first_changed(core, args)


def _level_length(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    minutes = args["minutes"]
    core.console.level_minutes = [_first_changed(core, args), minutes]
    apply_level_length(core)
    return [Notice(f"Levels from now on: {minutes} minutes")], \
        f"remaining levels {minutes} minutes each"


#: every level after the one being played lasts ``minutes`` (1..240) tonight
level_length = (_verify_level_length, _level_length)


def apply_level_length(core: ConsoleCore) -> None:
    """Give the remaining levels tonight's length (``console.level_minutes``; after a
    restore too: the structure file is unchanged)."""
    if core.console.level_minutes is None:
        return
    first, minutes = core.console.level_minutes
    tour = core.tournament
    levels = tuple(dataclasses.replace(lv, minutes=float(minutes))
                   if lv.index >= first and not lv.is_break and lv.minutes is not None else lv
                   for lv in tour.structure.levels)
    tour.structure = dataclasses.replace(tour.structure, levels=levels)
    tour.clock.structure = tour.structure
