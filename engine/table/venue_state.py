"""A table's part of a venue of several tables: what it keeps, and the director's command
bodies checked (pure; the rules are applied in :mod:`engine.table.venue`).

A table in venue mode (:attr:`engine.table.core.TableSettings.venue_table` > 0) plays the
hands; the director (docs/design/venue-topics.md) seats and moves the players, sets the
level and says when the next hand may be dealt.  :class:`VenueState` is the table's record
of that: the highest director command applied (``mark``, rebuilt from the journal on
restart), the hand the director has said ``go`` for, the chips the table must hold between
hands (``ledger``: chips seated in less chips moved out), the seats filled since the last deal (newcomers: TDA 10) and the
reports to the director (``outbox``, numbered from 1 in ``report_seq``).

>>> v = VenueState(table=2)
>>> VenueState.from_dict(v.to_dict()) == v
True
>>> check_body("seat", {"player": "Ann", "seat": 4, "chips": 20000, "reason": "draw"})
{'player': 'Ann', 'seat': 4, 'chips': 20000, 'reason': 'draw'}
>>> check_body("go", {"hand": -1})
Traceback (most recent call last):
...
engine.table.venue_state.VenueCommandError: go.hand must be a whole number 0..1000000000, got -1
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.errors import InvalidInputError
from engine.text import one_of, player_name, whole_number

#: reports kept in the outbox: the director acknowledges within a few hands, so older
#: ones are never asked for again (a table this far behind is re-seated by hand)
OUTBOX_KEEP = 512
MAX_NAME = 24  #: characters of a player's name (as in pi_app.venue.messages)
MAX_SEATS, MAX_TABLES, MAX_CHIPS, MAX_HAND = 10, 64, 10**12, 10**9
REASONS = ("draw", "late_entry", "balance", "break", "final_table")
SIGNALS = ("break", "hold", "pause", "resume")
#: command kinds that wait for the hand in play to end (the others apply at once)
AT_BOUNDARY = ("seat", "move", "go")
#: A night id (the director's, in every message): 4..40 characters, lowercase letters,
#: digits and hyphens, a letter or digit first (docs/design/venue-topics.md).
NIGHT_PATTERN = re.compile(r"[0-9a-z][0-9a-z-]{3,39}")


class VenueCommandError(InvalidInputError):
    """A director's command that is not well formed, not from the director, or already
    applied (a replay): it changes nothing."""


class VenueChipError(InvalidInputError):
    """The table's chips do not add up to the chips seated, moved out and won as bonus."""


Check = Callable[[Any, str], Any]


def _whole(lo: int, hi: int) -> Check:
    return whole_number(VenueCommandError, lo, hi)


_name = player_name(VenueCommandError, MAX_NAME)


def _choice(choices: tuple[str, ...]) -> Check:
    return one_of(VenueCommandError, choices)


def _night(value: Any, where: str) -> str:
    if not isinstance(value, str) or not NIGHT_PATTERN.fullmatch(value):
        raise VenueCommandError(f"{where} must be a night id (4..40 of a-z, 0-9 and -), "
                                f"got {value!r:.50}")
    return value


SEAT, TABLE, CHIPS = _whole(1, MAX_SEATS), _whole(1, MAX_TABLES), _whole(0, MAX_CHIPS)
BODIES: dict[str, dict[str, Check]] = {
    "seat": {"player": _name, "seat": SEAT, "chips": CHIPS, "reason": _choice(REASONS)},
    "move": {"player": _name, "from_seat": SEAT, "to_table": TABLE, "to_seat": SEAT},
    "signal": {"name": _choice(SIGNALS)},
    "level": {"index": _whole(0, 999), "small_blind": CHIPS, "big_blind": CHIPS,
              "ante": CHIPS},
    "go": {"hand": _whole(0, MAX_HAND)},
    "join": {"night": _night},
    "over": {"night": _night},
}


def check_body(kind: str, body: Any) -> dict[str, Any]:
    """``body`` checked against the fields of command ``kind`` (the bodies of
    docs/design/venue-topics.md: ``seat``, ``move``, ``signal``, ``level``, ``go``; and
    ``join`` and ``over``, the table's own records of the night it joined and of its end).

    Raises:
        VenueCommandError: an unknown kind, a missing or extra field, a value out of bounds.
    """
    checks = BODIES.get(kind) if isinstance(kind, str) else None
    if checks is None:
        raise VenueCommandError(f"unknown venue command {kind!r:.20}; expected one of "
                                f"{', '.join(BODIES)}")
    if not isinstance(body, Mapping) or set(body) != set(checks):
        raise VenueCommandError(f"{kind}: body has exactly the fields {', '.join(checks)}")
    return {k: check(body[k], f"{kind}.{k}") for k, check in checks.items()}


@dataclass
class VenueState:
    """What a table in venue mode keeps (JSON-able through :meth:`to_dict`).

    Attributes:
        table: the table's number in the venue (1..64).
        director: the director's broker user name (the only sender of commands).
        mark: the highest director command ``seq`` applied (0: none yet).
        go_hand: the highest hand number the director has said ``go`` for.
        broken: the table was broken (it deals no more).
        paused: the director's clock is paused.
        ledger: chips the table holds between hands.
        fresh: seats filled since the last deal (their players are newcomers: TDA 10).
        pending: commands for the hand in play (event dicts), applied when it ends.
        outbox: the reports ``{"seq", "kind", "for_hand", "body"}``, the last
            :data:`OUTBOX_KEEP`.
        report_seq: the ``seq`` of the last report.
        night: the night id the table joined ("" before its first director message):
            commands of another night are refused.
        over: the director's state said this night's winner (journaled as ``over``, seq
            0): a table started again on this journal knows its night is over.
    """

    table: int
    director: str = "director"
    mark: int = 0
    go_hand: int = 0
    broken: bool = False
    paused: bool = False
    ledger: int = 0
    fresh: list[int] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    report_seq: int = 0
    night: str = ""
    over: bool = False

    def report(self, kind: str, for_hand: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """Add the next report to the outbox and return it."""
        self.report_seq += 1
        rep = {"seq": self.report_seq, "kind": kind, "for_hand": for_hand, "body": dict(body)}
        self.outbox.append(rep)
        del self.outbox[:-OUTBOX_KEEP]
        return rep

    def unacknowledged(self, acked: int) -> list[dict[str, Any]]:
        """The reports above ``acked`` (the director's applied mark for this table)."""
        return [r for r in self.outbox if r["seq"] > acked]

    def copy(self) -> VenueState:
        """A copy sharing no list with this one (a report, never changed once made, and
        a pending command's dict are shared)."""
        return dataclasses.replace(self, fresh=list(self.fresh), pending=list(self.pending),
                                   outbox=list(self.outbox))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> VenueState | None:
        return None if d is None else cls(**copy.deepcopy(dict(d)))
