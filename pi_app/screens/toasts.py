"""The table's public notices on the TV (:attr:`engine.views.ScreenState.notices`: "Last
action undone", "Ann joins in seat 4 with 12,000", "Bonus 1,500 in this pot"...), each
a panel of its own for the few seconds the service keeps it
(:mod:`pi_app.service.notice_board`), newest first.

They stand in one fixed place per layout, clear of the board, the pots and every seat's
cards (design pixels of the 1920x1080 screen):

* the table layout: :data:`TABLE_ZONE`, the top centre of the table, the dealer's place,
  where no seat ever sits (under the status strip when it is up), downwards, over the
  hand's header (its number, street and blinds) for their few seconds;
* the split layout: :data:`COLUMN_ZONE`, the bottom of the clock's column, over the room's
  prize pool and places, upwards;
* the clock layout: :data:`ROOM_ZONE`, the bottom of the room's panel, upwards;
* the winner screen and the waiting screen: :data:`TABLE_ZONE`.

With the venue banner up, a zone that grows upwards stands above the banner.  A notice
is wrapped over at most :data:`MAX_LINES` lines of :data:`SIZE` (never under the legible
size; a longer one ends with an ellipsis: only a full table's seat draw, whose names the
seats show); a notice that does not fit under the newer ones in its zone's height is left
out.  Drawn over the layout, under the ruling banner and the status strip.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from pi_app.screens.theme import ACCENT, PANEL, TEXT, Canvas, legible_px, text_surface
from pi_app.screens.venue_banner import BAND_RECT, LINE_HEIGHT, banner_lines

SIZE = 36.0        #: design font size of a notice's words (bold)
LINE = SIZE * 1.2  #: design height of each line
PAD_X, PAD_Y = 20.0, 8.0  #: design padding inside a panel
GAP = 8.0          #: design pixels between two panels
MAX_LINES = 3      #: lines of one notice at most


@dataclass(frozen=True)
class Zone:
    """Where the notices go: design ``x`` and width ``w``, the ``edge`` they grow from
    (design y of the top when ``down``, else of the bottom) and the most height ``h``."""

    x: float
    w: float
    edge: float
    h: float
    down: bool


#: the table layout: between the two top seats, over the hand's header, above every bet
#: and the pots (measured over 2..10 seats, with and without the status strip)
TABLE_ZONE = Zone(710, 500, 12, 150, down=True)
#: the split layout: the bottom of the clock's column (over the prize pool and places)
COLUMN_ZONE = Zone(14, 592, 1066, 300, down=False)
#: the clock layout: the bottom of the room's panel, under the pairing panel's place
ROOM_ZONE = Zone(1404, 492, 1060, 200, down=False)


@dataclass(frozen=True)
class Toast:
    """One notice as drawn: its lines and its design box (x, y, w, h)."""

    lines: tuple[str, ...]
    box: tuple[float, float, float, float]


def zone_for(layout: str, top: float, banner: str | None) -> Zone:
    """The zone of ``layout`` (as drawn: ``clock``, ``table``, ``split``, ``idle``, or
    ``winner``), ``top`` the status strip's height (design px, 0 without it) and the venue
    banner's words (None: no banner)."""
    if layout == "split":
        zone = COLUMN_ZONE
    elif layout == "clock":
        zone = ROOM_ZONE
    else:
        return Zone(TABLE_ZONE.x, TABLE_ZONE.w, TABLE_ZONE.edge + top, TABLE_ZONE.h, True)
    if banner is not None:
        lines = max(1, len(banner_lines(banner)))
        above = BAND_RECT[1] - LINE_HEIGHT * (lines - 1) - GAP
        zone = Zone(zone.x, zone.w, min(zone.edge, above), zone.h, False)
    return zone


def wrap(cv: Canvas, text: str, width: float) -> tuple[str, ...]:
    """``text`` in lines that fit ``width`` design pixels at :data:`SIZE`, at most
    :data:`MAX_LINES` (the words left over join the last line, which is then cut)."""
    px = max(cv.px(SIZE), legible_px("bold", cv.screen_h))
    limit = cv.px(width)
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and (len(lines) == MAX_LINES or
                      text_surface("bold", px, trial, TEXT).get_width() <= limit):
            lines[-1] = trial
        else:
            lines.append(word)
    return tuple(lines)


def plan(cv: Canvas, notices: tuple[str, ...], zone: Zone) -> list[Toast]:
    """The panels of ``notices`` (newest first) in ``zone``: as many as fit its height,
    the newest first; they read top to bottom, newest first, whichever way it grows."""
    sized: list[tuple[tuple[str, ...], float]] = []
    used = 0.0
    for text in notices:
        lines = wrap(cv, text, zone.w - 2 * PAD_X)
        h = len(lines) * LINE + 2 * PAD_Y
        if used + h > zone.h:
            break
        sized.append((lines, h))
        used += h + GAP
    total = sum(h for _, h in sized) + GAP * max(0, len(sized) - 1)
    y = zone.edge if zone.down else zone.edge - total
    out = []
    for lines, h in sized:
        out.append(Toast(lines, (zone.x, y, zone.w, h)))
        y += h + GAP
    return out


def draw_toasts(cv: Canvas, notices: tuple[str, ...], zone: Zone) -> pygame.Rect | None:
    """Draw ``notices`` (newest first) in ``zone`` of the screen's canvas ``cv``; the real
    rect they cover (None: none drawn)."""
    drawn = []
    for toast in plan(cv, notices, zone):
        x, y, w, h = toast.box
        r = cv.rect(x, y, w, h)
        cv.panel(r, fill=PANEL, edge=ACCENT, radius=14, width=4)
        for i, line in enumerate(toast.lines):
            cv.text(line, "bold", SIZE, TEXT, (x + w / 2, y + PAD_Y + LINE * (i + 0.5)),
                    "center", max_width=w - 2 * PAD_X)
        drawn.append(r)
    return drawn[0].unionall(drawn[1:]) if drawn else None
