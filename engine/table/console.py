"""Console commands on the table core: the director's and the dealer's channel, pure.

A :class:`engine.events.ConsoleCommand` names one of :data:`COMMANDS` with its ``args``.
Each command is checked and applied here, on the core, like any other input event: it is
journaled before it is applied, a refused command raises an error subclassing both
:class:`engine.errors.PokerTableError` and :class:`ValueError` and changes nothing, and an
applied one is added to the audit list (who: role and token id; when: the console's UTC
time; what: the command, its arguments and, for corrections, from and to).

:func:`precheck` tells, without changing anything, whether a command fits the table now
(the service refuses it without journaling it when it does not), asking each command's
``verify``: no copy of the table is made.  The commands themselves are in
:mod:`engine.table.console_commands`; this module holds the state the
console adds to the table (:class:`ConsoleState`: the waiting list, players away, the
audit, the request ids seen) and the dispatch.

>>> from engine.table.core import TableCore, TableSettings
>>> from engine.events import ConsoleCommand
>>> core = TableCore.new(TableSettings(players={}, seats=(1, 2, 3)))
>>> for name in ("Ann", "Bob"):
...     _ = core.apply(ConsoleCommand(t=0.0, command="register", args={"name": name},
...                                   role="director"))
>>> _ = core.apply(ConsoleCommand(t=1.0, command="seat_draw", role="director"))
>>> sorted(e.name for e in core.tournament.active())
['Ann', 'Bob']
>>> precheck(core, ConsoleCommand(t=2.0, command="stack", role="dealer",
...                               args={"seat": 1, "chips": 5, "reason": "count"}))
'the dealer may not stack (director only)'
"""

from __future__ import annotations

from engine.effects import Effect, LogLine
from engine.errors import InvalidCardError, PokerTableError
from engine.events import ConsoleCommand, Event
from engine.table.console_base import (
    AUDIT_SHOWN,
    MAX_NAME,
    ROLES,
    ConsoleCommandError,
    ConsoleRefused,
    ConsoleState,
    ForbiddenCommand,
    check_name,
)
from engine.table.console_commands import COMMANDS, Spec
from engine.table.console_core import ConsoleCore
from engine.table.console_players import fold_away
from engine.table.console_venue import verify_venue_chips
from engine.table.venue import verify_console
from engine.table.verify import verify_time

__all__ = ["AUDIT_SHOWN", "MAX_NAME", "ROLES", "ConsoleCommandError", "ConsoleRefused",
           "ConsoleState", "ForbiddenCommand", "Refusal", "after_event", "apply_command",
           "check_name", "needs_guard", "precheck", "refusal", "role_may", "verify_command"]



#: the commands that check everything before they change anything, and then change one
#: part in one step (or through the core's own verified steps: a player action, a shoe
#: event, the UNDO): a refused one changes nothing with no copy of the table kept.  Every
#: other command changes the tournament in several steps (the clock, the seat draw,
#: eliminations, the next hand, a pot awarded by hand) and runs under the core's guard
#: (:class:`engine.table.atomic.Guard`), as the dealer's own commands do.
VERIFIED_FIRST = frozenset({
    "register", "late_entry", "back", "bet", "all_in", "fold", "call", "show", "muck",
    "stack", "confirm_color_up", "level_length", "declare", "confirm_ruling",
    "override_ruling", "card", "undo", "end_tournament", "token_issued", "token_revoked",
})


def needs_guard(event: ConsoleCommand) -> bool:
    """Whether ``event`` runs under the core's guard (see :data:`VERIFIED_FIRST`; a command
    not named there does, a new one included)."""
    return event.command not in VERIFIED_FIRST


def role_may(role: str, command: str) -> bool:
    """Whether ``role`` may send ``command`` (a director may send every command)."""
    spec = COMMANDS.get(command)
    return spec is not None and (role == "director" or role in spec.roles)


def _check_command(core: ConsoleCore, ev: ConsoleCommand) -> Spec:
    spec = COMMANDS.get(ev.command)
    if spec is None:
        raise ConsoleCommandError(f"unknown command {ev.command[:40]!r}")
    if ev.role not in ROLES:
        raise ForbiddenCommand(f"role {ev.role[:20]!r} may not send commands")
    if not role_may(ev.role, ev.command):
        raise ForbiddenCommand(f"the {ev.role} may not {ev.command} (director only)")
    if core.console.ended:
        raise ConsoleRefused("the tournament has ended: a new one is being set up")
    if ev.request and ev.request in core.console.requests:
        raise ConsoleRefused("request already applied")
    if not isinstance(ev.args, dict):
        raise ConsoleCommandError("args must be an object")
    return spec


class Refusal(str):
    """The one-line reason a command is refused, with its ``kind``: ``"bad_request"`` (a
    malformed argument), ``"forbidden"`` (the role may not) or ``"refused"`` (it does not
    fit the table now)."""

    kind: str = "refused"

    def __new__(cls, text: str, kind: str = "refused") -> Refusal:
        obj = super().__new__(cls, text)
        obj.kind = kind
        return obj


def precheck(core: ConsoleCore, event: Event) -> Refusal | None:
    """Why a console command would be refused now, or None if it fits (and for any other
    event).  Changes and copies nothing: it asks the command's ``verify``
    (:class:`engine.table.console_commands.Spec`), which raises exactly when applying the
    command would, in the same words, and at a table in venue mode the venue's count of
    the chips seated (:func:`engine.table.console_venue.verify_venue_chips`)."""
    if not isinstance(event, ConsoleCommand):
        return None
    try:
        verify_command(core, event)
    except (PokerTableError, ValueError, KeyError, TypeError) as exc:
        return refusal(exc)
    return None


def verify_command(core: ConsoleCore, event: ConsoleCommand) -> Spec:
    """The command of ``event``; raises as :meth:`engine.table.core.TableCore.apply` of
    the console command ``event`` would (its time before the last event's, the role, the
    request, at a venue table no local start, the command's own ``verify``, the venue's
    chip count); changes and copies
    nothing."""
    verify_time(core, event.t)
    spec = _check_command(core, event)
    verify_console(core, event.command)  # at a venue table: no local start
    args = dict(event.args)
    spec.verify(core, args, event.t)
    verify_venue_chips(core, event.command, args)
    return spec


def refusal(exc: Exception) -> Refusal:
    """The :class:`Refusal` a console shows for ``exc``, raised by a command's verify or
    by applying it: one line, its kind from the error's type."""
    text = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
    kind = ("bad_request" if isinstance(exc, (ConsoleCommandError, InvalidCardError,
                                              KeyError, TypeError))
            else "forbidden" if isinstance(exc, ForbiddenCommand) else "refused")
    return Refusal(" ".join(text.split()) or type(exc).__name__, kind)


def apply_command(core: ConsoleCore, ev: ConsoleCommand) -> list[Effect]:
    """Apply one console command to ``core``; the audit gets an entry.

    Raises:
        ConsoleCommandError, ConsoleRefused, ForbiddenCommand, or the engine's own errors
        (:class:`engine.errors.IllegalActionError` naming what is legal).
    """
    spec = verify_command(core, ev)  # verify, then do: a refusal changes nothing
    effects, detail = spec.do(core, dict(ev.args), ev.t)
    entry = {"n": len(core.console.audit) + 1, "at": ev.at, "t": ev.t, "role": ev.role,
             "token": ev.token, "command": ev.command,
             "args": spec.public_args(dict(ev.args)), "detail": detail}
    core.console.audit.append(entry)
    if ev.request:
        core.console.requests.append(ev.request)
    return effects + [LogLine("INFO", f"console {ev.role} {ev.token}: {ev.command}: {detail}")]


def after_event(core: ConsoleCore, t: float) -> list[Effect]:
    """After any event: fold an away player who is to act (TDA: an absent player is dealt
    in and posts, and the hand is killed when action reaches them), and note a color-up
    for the director to confirm."""
    console = core.console
    effects = fold_away(core, t) if console.away else []  # nearly always nobody is away
    done = len(core.tournament.colored_up)
    if done > console.color_up_seen:
        console.color_up_seen = done
        console.color_up_pending = True
    return effects
