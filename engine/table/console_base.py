"""The console's part of the table state and its errors (:mod:`engine.table.console`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalActionError, InvalidInputError
from engine.text import unsafe_reason

ROLES = ("director", "dealer")
AUDIT_SHOWN = 50  #: audit entries in a pushed document (the API has them all)
MAX_NAME = 24     #: characters in a player's name (the seat displays' width)


class ConsoleCommandError(InvalidInputError):
    """A console command with a bad argument (missing, wrong type, out of range)."""


class ConsoleRefused(IllegalActionError):
    """A console command that does not fit the table now (the message says why)."""


class ForbiddenCommand(IllegalActionError):
    """A role sent a command it may not send."""


@dataclass
class ConsoleState:
    """What the console adds to the table's state (in the core's snapshot).

    ``waiting``: names registered before the seat draw; ``away``: seats whose player is
    away (blinded in, folded when to act); ``audit``: the applied commands;
    ``requests``: request ids seen; ``color_up_seen``/``color_up_pending``: color-ups
    done and one waiting for the director's confirmation; ``level_minutes``: the length
    given to the remaining levels tonight (``[from_index, minutes]``); ``keyed_hand``: the
    hand whose cards were keyed in by hand; ``ended``: the director ended the tournament
    (the service archives it and starts a new one)."""

    waiting: list[str] = field(default_factory=list)
    away: list[int] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    color_up_seen: int = 0
    color_up_pending: bool = False
    level_minutes: list[int] | None = None
    keyed_hand: int = 0
    ended: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"waiting": list(self.waiting), "away": list(self.away),
                "audit": [dict(a) for a in self.audit], "requests": list(self.requests),
                "color_up_seen": self.color_up_seen,
                "color_up_pending": self.color_up_pending,
                "level_minutes": None if self.level_minutes is None
                else list(self.level_minutes), "keyed_hand": self.keyed_hand,
                "ended": self.ended}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ConsoleState:
        """Inverse of :meth:`to_dict` (None: a snapshot from before the console)."""
        if not d:
            return cls()
        return cls(waiting=list(d["waiting"]), away=list(d["away"]),
                   audit=[dict(a) for a in d["audit"]], requests=list(d["requests"]),
                   color_up_seen=int(d["color_up_seen"]),
                   color_up_pending=bool(d["color_up_pending"]),
                   level_minutes=None if d["level_minutes"] is None
                   else list(d["level_minutes"]), keyed_hand=int(d["keyed_hand"]),
                   ended=bool(d.get("ended", False)))


def check_name(value: Any) -> str:
    """A player's name in NFC with its spaces collapsed: 1..24 characters, none of them a
    control, bidirectional, invisible format or blank filler character
    (:func:`engine.text.unsafe_reason`).  Names are compared by :func:`engine.text.name_key`.

    Raises:
        ConsoleCommandError: naming what is wrong.
    """
    if not isinstance(value, str) or not value.strip():
        raise ConsoleCommandError("a player needs a name")
    # checked before spaces are collapsed, so that a line break is refused, not joined
    if unsafe_reason(value) is not None:
        raise ConsoleCommandError("a name must not hold control or direction characters")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if len(name) > MAX_NAME:
        raise ConsoleCommandError(f"a name has at most {MAX_NAME} characters")
    return name
