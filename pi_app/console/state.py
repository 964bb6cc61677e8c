"""The documents pushed to console pages: built on the service loop's thread from the core.

* :func:`public_state`: what anyone may see (the TV's public screen, the registered names,
  the clock, results so far).  Built from :meth:`TableCore.screen_state`, which never holds
  an unrevealed hole card.
* :func:`role_state`: the public state plus what a director or dealer needs (audit list,
  waiting list, the late-entry stack now, the seat to act and its legal amounts).

Shapes are in docs/design/console.md.  All chips are ints; times are seconds.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from engine.cards import Card
from engine.table.core import TableCore


def jsonable(value: Any) -> Any:
    """Dataclasses, tuples and cards as JSON-able values (a card as ``"As"``)."""
    if isinstance(value, Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


def clock_summary(core: TableCore) -> dict[str, Any]:
    """``{"level": N, "remaining_seconds": S, "running": bool, "started": bool,
    "small_blind", "big_blind", "ante", "is_break"}`` (S: whole seconds, or None on a
    level counted in hands)."""
    tour = core.tournament
    view = tour.clock_view(core.last_t)
    remaining = view.remaining_seconds
    return {"level": view.level_number,
            "remaining_seconds": None if remaining is None else max(0, int(remaining + 0.999)),
            "running": bool(tour.clock.started and tour.clock.paused_at is None
                            and not tour.finished),
            "started": bool(tour.clock.started), "small_blind": view.small_blind,
            "big_blind": view.big_blind, "ante": view.ante, "is_break": view.is_break}


def players(core: TableCore) -> list[dict[str, Any]]:
    """Registered players: seated entries of the round (``name``, ``seat``, ``chips``,
    ``status`` in/out/away, ``place``), then those waiting for the seat draw."""
    from engine.tournament.results import results

    console = getattr(core, "console", None)
    away = set(console.away) if console is not None else set()
    out = [{"name": r["name"], "seat": r["seat"], "status": "away" if r["seat"] in away
            and r["status"] == "in" else r["status"], "place": r["place"]}
           for r in results(core.tournament)]
    stacks = core.tournament.stacks()
    for row in out:
        row["chips"] = stacks.get(row["seat"], 0) if row["status"] != "out" else 0
    for name in (console.waiting if console is not None else ()):
        out.append({"name": name, "seat": None, "status": "waiting", "place": None,
                    "chips": 0})
    return out


def public_state(core: TableCore) -> dict[str, Any]:
    """The public document (``"type": "state"``); see docs/design/console.md."""
    from engine.betting.odds_view import no_odds
    from engine.tournament.results import results

    screen = core.screen_state(odds_provider=no_odds)  # the page has no odds panel
    tour = core.tournament
    return {
        "type": "state", "role": "public", "table": core.settings.name,
        "tournament": tour.name, "clock": clock_summary(core),
        "players": players(core), "players_left": len(tour.active()),
        "entries": len(tour.entries()), "payouts": [list(p) for p in tour.payouts()],
        # money is whole currency units (ints) put after this symbol, as on the TV
        "currency": tour.structure.currency,
        "results": results(tour), "finished": bool(tour.finished),
        # the all-in odds are the TV's alone (exact fractions; the page has no panel for them)
        "screen": jsonable(dataclasses.replace(screen, now=0.0, extra={}, odds=None)),
    }
