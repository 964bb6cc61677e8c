"""The winner screen: once one player is left, the TV shows the winner, every place with
its payout and tonight's league points, instead of the clock (which the tournament has
stopped) and the table.

Drawn from :class:`engine.views.RoomView` (``finished`` True); design pixels of a 1920x1080
canvas, scaled like every screen (:class:`pi_app.screens.theme.Canvas`).
"""

from __future__ import annotations

import pygame

from engine.table.views import ordinal
from engine.views import PlaceLine, RoomView
from pi_app.screens.theme import (
    ACCENT,
    BG,
    GREEN,
    MUTED,
    TEXT,
    Canvas,
    fmt_chips,
    legible_px,
    text_surface,
)

ROW_BOX, ROW_PITCH = 84, 108  # design px: a place row's panel and the step between rows
ROWS_PER_COLUMN = 5
NAME_GAP = 30  #: design px at least between a place ("10th") and its name


def _width(cv: Canvas, text: str) -> float:
    """Design width of ``text`` as a place row draws it (bold, 44 design px or legible)."""
    size = max(cv.px(44), legible_px("bold", cv.screen_h))
    return text_surface("bold", size, text, TEXT).get_width() / cv.s


def money(currency: str, amount: int) -> str:
    """``"$60"``, ``"$1,250"``: whole currency units with the structure's symbol."""
    return f"{currency}{fmt_chips(amount)}"


def draw_winner(cv: Canvas, room: RoomView, title: str = "") -> None:
    """Draw the whole winner screen for ``room`` (``title``: the tournament's name)."""
    pygame.draw.rect(cv.surface, BG, cv.area)
    cx = cv.dw / 2
    if title:
        cv.text(title.upper(), "bold", 44, MUTED, (cx, 24), "midtop", max_width=cv.dw - 80)
    winner = room.places[0] if room.places and room.places[0].place == 1 else None
    cv.text("WINNER", "bold", 72, GREEN, (cx, 84), "midtop")
    cv.text(winner.name if winner else "-", "bold", 150, ACCENT, (cx, 166), "midtop",
            max_width=cv.dw - 120)
    if winner is not None:
        cv.text(_prize(room, winner), "bold", 64, TEXT, (cx, 350), "midtop",
                max_width=cv.dw - 120)
    if room.decided:
        cv.text(room.decided.upper(), "bold", 36, MUTED, (cx, 436), "midtop",
                max_width=cv.dw - 120)
    rest = [p for p in room.places if p.place != 1]
    _draw_places(cv, room, rest, 500)


def _prize(room: RoomView, line: PlaceLine) -> str:
    parts = [money(room.currency, line.payout)] if line.payout else []
    if line.points:
        parts.append(f"{line.points} POINTS")
    return "   ".join(parts) or "1ST PLACE"


def _draw_places(cv: Canvas, room: RoomView, lines: list[PlaceLine], top: float) -> None:
    """The places after the winner in up to two columns of :data:`ROWS_PER_COLUMN`."""
    if not lines:
        return
    cols = 1 if len(lines) <= ROWS_PER_COLUMN else 2
    col_w = 860 if cols == 2 else 1100
    x0 = cv.dw / 2 - (cols * col_w + (cols - 1) * 60) / 2
    shown = lines[: cols * ROWS_PER_COLUMN]
    name_x = 20 + max(_width(cv, ordinal(ln.place)) for ln in shown) + NAME_GAP
    for i, ln in enumerate(shown):
        col, row = divmod(i, ROWS_PER_COLUMN)
        x = x0 + col * (col_w + 60)
        y = top + row * ROW_PITCH
        cv.panel(cv.rect(x, y, col_w, ROW_BOX), radius=12, width=2)
        mid = y + ROW_BOX / 2
        cv.text(ordinal(ln.place), "bold", 44, MUTED, (x + 20, mid), "midleft")
        cv.text(ln.name, "bold", 44, TEXT, (x + name_x, mid), "midleft",
                max_width=col_w - name_x - 300)
        right = []
        if ln.payout:
            right.append(money(room.currency, ln.payout))
        if ln.points:
            right.append(f"{ln.points} PTS")
        if right:
            cv.text("   ".join(right), "bold", 44, ACCENT, (x + col_w - 20, mid), "midright",
                    max_width=280)
    if len(lines) > len(shown):  # more than eleven players: the rest are in the results
        cv.text(f"+ {len(lines) - len(shown)} MORE", "bold", 36, MUTED,
                (cv.dw - 30, cv.dh - 8), "bottomright")
