"""The console commands' arguments and the table-state checks they share.

Each check raises (changing nothing) with one line that says why: a malformed argument
raises :class:`engine.table.console_base.ConsoleCommandError`, an argument that does not
fit the table now :class:`engine.table.console_base.ConsoleRefused`.  Seats are 1-based and
checked against the seats of this table (``TableSettings.seats``; () = all ten), not a
fixed 1..10.  "Between hands" is one predicate, :func:`hand_refusal`, used by the commands
that need it and shown to the console's pages (``console.between_hands``).
"""

from __future__ import annotations

from typing import Any

from engine.table.console_base import ConsoleCommandError, ConsoleRefused
from engine.table.console_core import ConsoleCore
from engine.text import unsafe_reason

MAX_REASON = 200  #: characters in a reason or a note


def whole(args: dict[str, Any], key: str, lo: int, hi: int) -> int:
    """``args[key]`` as an int in ``lo..hi``.

    Raises:
        ConsoleCommandError: not a whole number (a bool is not), or out of range.
    """
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConsoleCommandError(f"{key} must be a whole number, got {str(value)[:20]!r}")
    if not lo <= value <= hi:
        raise ConsoleCommandError(f"{key} must be {lo}..{hi}, got {value}")
    return value


def text(args: dict[str, Any], key: str, *, required: bool = True) -> str:
    """``args[key]`` as one line of at most :data:`MAX_REASON` characters, spaces collapsed.

    Raises:
        ConsoleCommandError: not text, control or direction characters (checked before
            spaces are collapsed: engine.text), empty when ``required``, or too long.
    """
    value = args.get(key, "")
    if not isinstance(value, str):
        raise ConsoleCommandError(f"{key} must be text")
    if value.strip() and unsafe_reason(value) is not None:
        raise ConsoleCommandError(f"{key} must not hold control or direction characters")
    line = " ".join(value.split())
    if required and not line:
        raise ConsoleCommandError(f"give a {key}")
    if len(line) > MAX_REASON:
        raise ConsoleCommandError(f"{key} has at most {MAX_REASON} characters")
    return line


def no_args(args: dict[str, Any]) -> None:
    """Raises ConsoleCommandError when a command that takes nothing was given something."""
    if args:
        raise ConsoleCommandError(f"no arguments expected, got {', '.join(sorted(args))[:60]}")


# --- seats ------------------------------------------------------------------------------
def table_seats(core: ConsoleCore) -> tuple[int, ...]:
    """This table's seats, 1-based and sorted (``TableSettings.seats``; () = all ten)."""
    return tuple(sorted(core.settings.seats)) or tuple(range(1, 11))


def seats_words(seats: tuple[int, ...]) -> str:
    """``"1..9"`` for a run of seats, ``"1, 3, 5"`` otherwise."""
    if list(seats) == list(range(seats[0], seats[-1] + 1)):
        return f"{seats[0]}..{seats[-1]}"
    return ", ".join(map(str, seats))


def seat_number(core: ConsoleCore, value: Any, key: str = "seat") -> int:
    """``value`` as a seat of this table (empty or not).

    Raises:
        ConsoleCommandError: not a whole number, or ``"no seat 10 at this 9-seat table
            (seats 1..9)"``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConsoleCommandError(f"{key} must be a whole number, got {str(value)[:20]!r}")
    seats = table_seats(core)
    if value not in seats:
        raise ConsoleCommandError(f"no seat {value} at this {len(seats)}-seat table "
                                  f"(seats {seats_words(seats)})")
    return value


def player_seat(core: ConsoleCore, args: dict[str, Any], key: str = "seat") -> int:
    """``args[key]``: a seat of this table with a player in it, while the tournament is
    being played.

    Raises:
        ConsoleCommandError: see :func:`seat_number`.
        ConsoleRefused: the tournament is over (:func:`need_not_over`), or nobody plays in
            that seat.
    """
    seat = seat_number(core, args.get(key), key)
    need_not_over(core)
    if seat not in core.tournament.stacks():
        raise ConsoleRefused(f"no player in seat {seat}")
    return seat


def need_not_over(core: ConsoleCore) -> None:
    """Raises ConsoleRefused once the tournament is over (one player left, or the final
    won): its players and its clock stay as they ended; only the last elimination can be
    undone, or the night ended."""
    if core.tournament.finished:
        raise ConsoleRefused("the tournament is over: undo the last elimination, or end "
                             "the night and start a new tournament")


# --- between hands ----------------------------------------------------------------------
def hand_refusal(core: ConsoleCore) -> str | None:
    """Why the table is not between hands now (None: it is).  A hand is being played; or
    a hand was made void (a misdeal, a fouled deck) and is to be dealt again with the same
    players and stacks (TDA 35-C): nothing that changes them may come in between."""
    if core.proc is not None and core.proc.stopped:
        return ("the void hand is to be dealt again first (same players, same stacks: "
                "TDA 35-C): press Next hand")
    if core.in_hand:
        return "finish the hand first"
    return None


def between_hands(core: ConsoleCore) -> bool:
    """Whether the table is between hands (:func:`hand_refusal` is None)."""
    return hand_refusal(core) is None


def need_between_hands(core: ConsoleCore) -> None:
    """Raises ConsoleRefused with :func:`hand_refusal`'s reason unless between hands."""
    refusal = hand_refusal(core)
    if refusal is not None:
        raise ConsoleRefused(refusal)
