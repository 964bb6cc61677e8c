"""The season panel on the TV, between tournaments: the league's standings and the next
night's date.

The service puts what to show into :attr:`engine.views.ScreenState.extra` under
:data:`SEASON_KEY` with :func:`with_season` (a short JSON text: the top
:data:`SHOWN` lines and the next night), and only while no tournament is under way
(:func:`between_tournaments`: before anyone registers for tonight).  The renderer draws the panel over
the layout while the key is present (a clean background, the standings on the left, tonight's
tournament on the right), under the pairing panel and the ruling banner.  Every
text is at least 40 design pixels high (3.7 % of the screen's height), legible from 5 m on
a 55-inch TV.

Example::

    state = with_season(state, standings[:10], next_night)
    draw_screen(surface, state)
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import replace

import pygame

from engine.text import safe_text
from engine.tournament.season import Standing
from engine.views import ClockView, ScreenState
from pi_app.screens.theme import ACCENT, BG, MUTED, PANEL, PANEL_EDGE, TEXT, Canvas, fmt_chips

SEASON_KEY = "season"  #: ``ScreenState.extra`` key: the panel's JSON text
SHOWN = 10  #: lines of the standings on the TV
#: The panel in design pixels (1920x1080): x, y, width, height; left of the pairing panel.
PANEL_RECT = (30, 40, 1430, 1000)
TONIGHT_X = 1490  #: design x of the right column (the pairing panel's place)
ROW_SIZE = 48   #: design pixels of a standings line (4.4 % of the height)
NOTE_SIZE = 40  #: design pixels of the smallest text (3.7 %)


def between_tournaments(state: ScreenState) -> bool:
    """Whether the room is between tournaments: no clock, or tonight's tournament not
    started and no one registered for it yet.  Registration opens for the room with the
    first entry: from then on the clock shows (the players registered, the stack an entry
    gets), as it does once the tournament starts and, after it, the winner screen until
    the night is ended."""
    c = state.clock
    return c is None or (not c.started and not c.entrants)


def with_season(state: ScreenState, standings: Sequence[Standing],
                next_night: dt.date | None) -> ScreenState:
    """``state`` with the season panel on (the first :data:`SHOWN` of ``standings``, the
    ``next_night``); off when ``standings`` is empty and there is no next night."""
    extra = {k: v for k, v in state.extra.items() if k != SEASON_KEY}
    if standings or next_night is not None:
        extra[SEASON_KEY] = json.dumps({
            "rows": [[s.rank, s.player, str(s.points)] for s in standings[:SHOWN]],
            "next": next_night.isoformat() if next_night else None})
    return replace(state, extra=extra)


def season_of(state: ScreenState) -> tuple[list[tuple[int, str, str]], str | None] | None:
    """``(rows, next_night)`` when the panel is on: rows of (rank, player, points text)."""
    text = state.extra.get(SEASON_KEY)
    if not text:
        return None
    doc = json.loads(text)
    return [(int(r), str(p), str(pts)) for r, p, pts in doc["rows"]], doc["next"]


def draw_season(cv: Canvas, rows: Sequence[tuple[int, str, str]],
                next_night: str | None, clock: ClockView | None = None) -> pygame.Rect:
    """Draw the season screen: the standings panel (design :data:`PANEL_RECT`) over a clean
    background, and in the right column tonight's tournament and its first blinds
    (``clock``), where the pairing panel goes while it is open.
    Returns the panel's real rect."""
    cv.surface.fill(BG, cv.area)
    x, y, w, h = PANEL_RECT
    r = cv.rect(x, y, w, h)
    cv.panel(r, fill=PANEL, edge=PANEL_EDGE, radius=24, width=4)
    cv.text("SEASON STANDINGS", "bold", 64, ACCENT, (x + 50, y + 30), max_width=w - 100)
    top = y + 120
    if next_night:
        when = dt.date.fromisoformat(next_night)
        cv.text(f"next night {when.strftime('%a %d %b %Y')}", "bold", NOTE_SIZE, TEXT,
                (x + 50, top), max_width=w - 400)
    cv.text("POINTS", "bold", NOTE_SIZE, MUTED, (x + w - 50, top), "topright")
    line = ROW_SIZE + 26
    for i, (rank, player, points) in enumerate(rows):
        ry = top + 80 + i * line
        colour = ACCENT if rank == 1 else TEXT
        cv.text(f"{rank}.", "bold", ROW_SIZE, MUTED, (x + 140, ry), "topright")
        cv.text(safe_text(player, 24), "bold", ROW_SIZE, colour, (x + 170, ry),
                max_width=w - 520)
        cv.text(points, "bold", ROW_SIZE, colour, (x + w - 50, ry), "topright")
    if not rows:
        cv.text("no nights played yet", "bold", ROW_SIZE, MUTED, (x + 170, top + 80))
    if clock is not None:
        _tonight(cv, clock)
    return r


def wrap(text: str, width: int = 15, lines: int = 3) -> list[str]:
    """``text`` in at most ``lines`` lines of about ``width`` characters, broken at spaces
    (the last line takes the rest).

    >>> wrap("Thursday Gunpowder League")
    ['Thursday', 'Gunpowder', 'League']
    """
    out: list[str] = []
    for word in text.split():
        if out and len(out) < lines and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        elif len(out) < lines:
            out.append(word)
        else:
            out[-1] += " " + word
    return out


def _tonight(cv: Canvas, clock: ClockView) -> None:
    """The right column: tonight's name, first blinds and players registered (if any)."""
    x, w = TONIGHT_X, 1920 - TONIGHT_X - 30
    mid = x + w / 2
    cv.text("TONIGHT", "bold", NOTE_SIZE, MUTED, (mid, 120), "midtop")
    for i, part in enumerate(wrap(safe_text(clock.tournament_name or "tournament", 45))):
        cv.text(part, "bold", 44, ACCENT, (mid, 180 + i * 56), "midtop", max_width=w)
    cv.text("BLINDS", "bold", NOTE_SIZE, MUTED, (mid, 380), "midtop")
    cv.text(f"{fmt_chips(clock.small_blind)}/{fmt_chips(clock.big_blind)}", "bold", 72,
            TEXT, (mid, 440), "midtop", max_width=w)
    if clock.entrants:  # (the panel is off once anyone registers: see between_tournaments)
        cv.text("PLAYERS", "bold", NOTE_SIZE, MUTED, (mid, 640), "midtop")
        cv.text(str(clock.entrants), "bold", 72, TEXT, (mid, 700), "midtop", max_width=w)
