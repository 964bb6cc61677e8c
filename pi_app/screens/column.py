"""The lower part of the split layout's clock column: the clock's figures as lines (name
left, value right) and the room's places below them.

The split layout gives the clock a column of 620x1080 design pixels beside the table, too
narrow for the room's column of the full clock (:mod:`pi_app.screens.room`).  So the
figures that the full clock shows in boxes are lines here, and the space saved holds what
the table cannot show: the payouts by place with the currency and tonight's league points
(one row per place), and the players out with their places (the latest first, as many as
fit, the OUT title saying how many more are out: "+4 more").  The chip counts, the chip leader and the bounty chip's holder are on the table
beside it (:mod:`pi_app.screens.table`).

Every text is at least :data:`SIZE` design pixels (3.7 % of the screen's height at 1080p
and 720p).  A section that does not fit whole is cut to the rows that fit; the column never
overflows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from engine.table.views import ordinal
from engine.views import ClockView, RoomView
from pi_app.screens.theme import (
    ACCENT,
    GREEN,
    MUTED,
    PANEL,
    TEXT,
    Canvas,
    fmt_chips,
    legible_px,
    text_surface,
)

SIZE = 34      #: design pixels of every text in the lines
LINE = 43      #: design pixels per line
PAD = 14       #: design pixels inside a panel
GAP = 10       #: design pixels between the figures' panel and the room's
MAX_PLACES = 3  #: place rows (payouts and points) at most

@dataclass(frozen=True)
class Line:
    """One line: ``left`` (muted unless ``left_colour``), ``right`` right-aligned in
    ``colour``; a place row has its payout in ``middle`` and its points in ``right``."""

    left: str
    right: str = ""
    colour: tuple[int, int, int] = TEXT
    middle: str = ""
    left_colour: tuple[int, int, int] = MUTED


def figure_lines(values: tuple[tuple[str, str, str], ...]) -> list[Line]:
    """The clock's figures (:func:`pi_app.screens.clock.stat_values`) as lines, without the
    prize pool (the places' title says it): a line of its own only for the next level's
    ante; a figure with no value ("-") shows its sub line instead."""
    out: list[Line] = []
    for i, (name, main, sub) in enumerate(values):
        if name == "PRIZE POOL":
            continue
        out.append(Line(name, sub if main == "-" and sub else main, ACCENT if i == 0 else TEXT))
        if i == 0 and sub:
            out.append(Line("", sub, MUTED))
    return out


def place_lines(clock: ClockView, room: RoomView | None) -> list[Line]:
    """The prize pool as a title (POINTS over the points column), then one row per place
    (at most :data:`MAX_PLACES`) with its payout and tonight's league points."""
    cur = room.currency if room is not None else ""
    pays = dict(room.payouts) if room is not None else {}
    points = dict(room.points) if room is not None else {}
    out = [Line(f"PRIZE POOL {cur}{fmt_chips(clock.prize_pool)}", "POINTS" if points else "",
                MUTED, left_colour=GREEN)]
    for place in sorted(set(pays) | set(points))[:MAX_PLACES]:
        pay = f"{cur}{fmt_chips(pays[place])}" if place in pays else ""
        out.append(Line(ordinal(place), points.get(place, ""), TEXT, middle=pay))
    return out


def out_lines(room: RoomView | None) -> list[Line]:
    """OUT and one row per player out (place, name), the latest first; none when no one
    is out."""
    if room is None or not room.eliminated:
        return []
    rows = sorted(room.eliminated, key=lambda p: p.place)
    return [Line("OUT")] + [Line(ordinal(p.place), p.name) for p in rows]


def cut_outs(outs: list[Line], rows: int) -> list[Line]:
    """The first ``rows`` lines of ``outs`` (:func:`out_lines`: the OUT title, then one
    line a player); when players are left off, the title says how many ("+4 more")."""
    if len(outs) <= rows:
        return outs
    kept = outs[:max(0, rows)]
    if kept:
        kept[0] = replace(kept[0], right=f"+{len(outs) - len(kept)} more", colour=MUTED)
    return kept


def drawn_room(room: RoomView | None) -> RoomView | None:
    """``room`` less what the column never draws: the stacks (the table shows the chips),
    the winner screen's places and wording, the wheel's name.  Two rooms alike by it give
    the same column, so the renderer does not redraw the column when only the stacks
    moved (each hand's end)."""
    if room is None:
        return None
    return replace(room, stacks=(), places=(), decided="", wheel_name="")


def value_rect(cv: Canvas, box: tuple[float, float, float, float], row: int) -> pygame.Rect:
    """The real rect of the value (the right half) of line ``row`` of the figures."""
    x, y, w, _h = box
    return cv.rect(x + w * 0.5, y + PAD + row * LINE, w * 0.5 - PAD, LINE)


def draw_column(cv: Canvas, box: tuple[float, float, float, float],
                values: tuple[tuple[str, str, str], ...], clock: ClockView,
                room: RoomView | None, tick: int) -> None:
    """Draw the figures' panel and below it the room's panel in the design rectangle
    ``box`` of ``cv``.  The value of line ``tick`` (the time to the next break) is left to
    :func:`ticking_value`."""
    x, y, w, h = box
    figures = figure_lines(values)
    fh = 2 * PAD + LINE * len(figures)
    cv.panel(cv.rect(x, y, w, fh), radius=14, width=3)
    for i, line in enumerate(figures):
        _line(cv, x, y + PAD + i * LINE, w, replace(line, right="") if i == tick else line)
    top = y + fh + GAP
    fit = max(0, int((y + h - top - 2 * PAD) // LINE))
    lines = place_lines(clock, room)[:fit]
    outs = cut_outs(out_lines(room), fit - len(lines))
    lines += outs if len(outs) > 1 else []  # the title alone says nothing
    if not lines:
        return
    cv.panel(cv.rect(x, top, w, 2 * PAD + LINE * len(lines)), radius=14, width=3)
    for i, line in enumerate(lines):
        _line(cv, x, top + PAD + i * LINE, w, line)


def _line(cv: Canvas, x: float, y: float, w: float, line: Line) -> None:
    """One line: the right part first, the left part in the width that is left (a label on
    the left is never cut: the right part, a name, is cut first)."""
    mid = y + LINE / 2
    inner = w - 2 * PAD - 12
    left_w = inner
    if line.middle:  # a place row: the payout in the middle column, the points right
        cv.text(line.middle, "bold", SIZE, ACCENT, (x + w * 0.6, mid), "midright",
                max_width=w * 0.6 - PAD - 110)
        left_w = 90
    if line.right:
        most = inner * (0.3 if line.middle else 0.75 if line.left else 1)
        if line.left and not line.middle:  # the label stays whole: a long name gives way
            label = text_surface("bold", max(cv.px(SIZE), legible_px("bold", cv.screen_h)),
                                 line.left, TEXT).get_width() / cv.s
            most = min(most, inner - label - 16)
        r = cv.text(line.right, "bold", SIZE, line.colour, (x + w - PAD - 6, mid), "midright",
                    max_width=most)
        left_w = min(left_w, inner - r.w / cv.s - 16)
    if line.left:
        cv.text(line.left, "bold", SIZE, line.left_colour, (x + PAD + 6, mid), "midleft",
                max_width=left_w)


def ticking_value(cv: Canvas, box: tuple[float, float, float, float], row: int,
                  text: str) -> pygame.Rect:
    """Clear the value of line ``row`` and draw ``text`` there from cached glyphs (the time
    to the next break, each second); returns the real rect touched."""
    r = value_rect(cv, box, row)
    cv.glyphs_px(text, "bold", cv.px(SIZE), TEXT, (r.right - cv.px(6), r.centery), "midright",
                 max_width=r.w - cv.px(6), box=(PANEL, r))
    return r
