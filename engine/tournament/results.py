"""The results of a tournament so far: places, payouts, bounty and league points.

Pure: computed from a :class:`engine.tournament.tournament.Tournament` on demand.  A place
is known once a player is out (or has won); a player still in has ``place`` None.  Money
is whole currency units (int); league points come from the structure's ``[points]``
formula, exact multiples of 0.01 point, written with two decimals.

>>> from engine.tournament.structure_file import load_structure
>>> from engine.tournament.tournament import Tournament
>>> t = Tournament(load_structure("gunpowder"))
>>> for seat, name in ((1, "Ann"), (2, "Bob")):
...     _ = t.register(name, seat)
>>> [r["name"] for r in results(t)]
['Ann', 'Bob']
>>> results_csv(t).splitlines()[0]
'place,name,seat,entry,payout,bounty,knockouts,points,status'
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from engine.tournament.points import points_text

if TYPE_CHECKING:
    from engine.tournament.tournament import Tournament

COLUMNS = ("place", "name", "seat", "entry", "payout", "bounty", "knockouts", "points",
           "status")




def results(t: Tournament) -> list[dict[str, Any]]:
    """One row per entry of the round being played (every entry without qualifiers):
    ``place`` (1-based, None while still in), ``name``, ``seat`` (1-based), ``entry``
    (entry id), ``payout`` (currency units, 0 outside the money), ``bounty`` (True for the
    bounty holder), ``knockouts``, ``points`` (two-decimal string or None) and ``status``
    (``"in"`` or ``"out"``).  Sorted by place, then players still in by chips."""
    prizes = t.prizes()
    points = t.league_points()
    rows = []
    for place, e in t.standings():
        rows.append({
            "place": place, "name": e.name, "seat": e.seat, "entry": e.entry_id,
            "payout": prizes.get(e.entry_id, 0),
            "bounty": bool(e.bounty), "knockouts": e.knockouts,
            "points": points_text(points.get(e.entry_id)),
            "status": "in" if e.active and place != 1 else "out" if place != 1 else "winner",
        })
    return rows


def results_csv(t: Tournament) -> str:
    """:func:`results` as CSV text with a header line (:data:`COLUMNS`); empty cells for
    places not yet decided."""
    return rows_csv(results(t))


def rows_csv(rows: list[dict[str, Any]]) -> str:
    """Rows of :func:`results` as CSV text (header :data:`COLUMNS`)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow(["" if r[c] is None else str(r[c]).lower() if isinstance(r[c], bool)
                    else _csv_safe(r[c]) for c in COLUMNS])
    return out.getvalue()


def _csv_safe(value: Any) -> Any:
    """A name starting with ``= + - @`` is quoted with ``'`` so a spreadsheet does not run it."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value
