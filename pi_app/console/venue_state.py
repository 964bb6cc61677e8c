"""The documents the venue's console pushes: built on the director's thread, from the
registration desk before the start and from the director after it (docs/design/console.md,
"The venue's console").

One public document for the whole room, the same one every page renders (a per-table page
shows its table only)::

    {"type": "state", "role": "public", "venue": name, "night": night id (None before the
     director has one), "phase": "registration" | "seats" | "moves" | "play" | "over",
     "round": int,
     "tables": [{"number", "name", "seats", "status", "online", "held",
                 "players": [{"seat", "name", "chips"}]}],
     "pending": [{"player", "from", "to", "held"}],
     "planned": [{"from", "to"}],
     "clock": {"level" (the structure's index), "number" (as the TVs say it),
               "small_blind", "big_blind", "ante", "remaining_ms", "running"},
     "registered": [name], "entries": int, "late_entry": {"open", "chips"},
     "currency": str, "prize_pool": int, "payouts": [[place, amount]],
     "results": [[place, player, prize]], "finished": bool}

Names, seats and chips between hands only: what the tables' TVs show; nothing private
(no hole card ever reaches the director).  ``planned``: the balancing moves decided at
a bust whose player the giving table names at its next boundary.  ``remaining_ms`` is
the clock's time left when the document was made; the page counts down from it while
``running`` (false before the start, while the director has paused the clock, and at
the end).  The director's document adds ``"console": {"may_start": bool}``.  Chips and money are ints; money is whole units of the structure's
``currency``, put before the amount (as the table console's ``currency``,
pi_app/console/state.py).
"""

from __future__ import annotations

from typing import Any

from engine.errors import PokerTableError
from engine.tournament.venue_prizes import late_entry_chips, payouts, prize_pool


def registration_document(desk: Any, venue: Any) -> dict[str, Any]:
    """The public document before the start (``desk``: :class:`pi_app.venue.desk.Desk`,
    ``venue``: the :class:`pi_app.venue.config.VenueConfig`)."""
    entries = len(desk.players)
    level = next((lv for lv in desk.structure.levels if not lv.is_break), None)
    return {"type": "state", "role": "public", "venue": venue.name, "night": None,
            "phase": "registration", "round": 0,
            "tables": [{"number": t.number, "name": t.name, "seats": t.seats,
                        "status": "closed", "online": None, "held": 0, "players": []}
                       for t in venue.tables],
            "pending": [],
            "clock": {"level": 0 if level is None else level.index,
                      "number": 1 if level is None else level.number,
                      "small_blind": getattr(level, "small_blind", 0),
                      "big_blind": getattr(level, "big_blind", 0),
                      "ante": getattr(level, "ante", 0), "remaining_ms": None,
                      "running": False},
            "planned": [],
            "registered": list(desk.players), "entries": entries,
            "late_entry": {"open": True, "chips": desk.structure.starting_stack},
            "currency": desk.structure.currency,
            "prize_pool": prize_pool(desk.structure, entries),
            "payouts": [list(p) for p in payouts(desk.structure, entries)],
            "results": [], "finished": False}


def director_document(director: Any) -> dict[str, Any]:
    """The public document after the start (``director``: a running
    :class:`pi_app.venue.director.Director`)."""
    s = director.state
    held = {(p, f, t) for p, f, t in director.held.pending()}
    stacks = dict(s.chips)
    tables = []
    for cfg in director.venue.tables:
        seats = s.seating.table(cfg.number)
        tables.append({
            "number": cfg.number, "name": cfg.name, "seats": cfg.seats,
            "status": seats.status, "online": cfg.number in director.held.online,
            "held": director.held.count(cfg.number),
            "players": [{"seat": seat, "name": p, "chips": stacks.get(p, 0)}
                        for seat, p in seats.players.items()
                        if p not in s.transit and not any(p == h[0] for h in held)]})
    pending = [{"player": p, "from": f, "to": t, "held": (p, f, t) in held}
               for p, f, t in sorted(set(s.pending()) | held)]
    index, small, big, ante = s.clock.level_args()
    prizes = director.prizes()
    try:
        late = {"open": s.phase != "over" and s.seating.final_table is None,
                "chips": late_entry_chips(director.structure, index)}
    except PokerTableError:
        late = {"open": False, "chips": None}
    return {"type": "state", "role": "public", "venue": director.venue.name,
            "night": director.night, "phase": s.phase, "round": s.round, "tables": tables, "pending": pending,
            "clock": {"level": index, "number": _number(director.structure, index),
                      "small_blind": small, "big_blind": big, "ante": ante,
                      "remaining_ms": s.clock.remaining_ms(),
                      "running": s.phase != "over" and s.paused_at is None},
            "planned": [{"from": f, "to": t} for f, t in s.planned],
            "registered": [], "entries": len(set(s.chips) | set(s.places)),
            "late_entry": late, "currency": director.structure.currency,
            "prize_pool": prizes["prize_pool"],
            "payouts": prizes["payouts"], "results": prizes["results"],
            "finished": s.phase == "over"}


def _number(structure: Any, index: int) -> int:
    """The level's number as the TVs say it ("LEVEL 3") from its structure index."""
    return next((lv.number for lv in structure.levels if lv.index == index), index + 1)
