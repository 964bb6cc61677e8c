"""Overlays drawn over any screen: the ruling banner and the device status strip.

* Ruling banner (:func:`draw_ruling`): the ruling in words, its rule reference (Poker TDA
  numbering), what the dealer must do now, and its status: ``ADVISORY`` until the dealer
  confirms or overrides it from the button box (then ``CONFIRMED`` / ``OVERRIDDEN``).
* Status strip (:func:`draw_status_strip`): devices offline (``ScreenState.offline`` entries
  such as ``"display:3"``, ``"shoe"``; seats whose ``display_online`` is False) and the journal
  alarms (``ScreenState.alarms``).  It takes :data:`STRIP_H` design pixels at the top.
"""

from __future__ import annotations

import pygame

from engine.views import RulingView, ScreenState
from engine.wording import words
from pi_app.screens.parts import blit_part
from pi_app.screens.theme import (
    ACCENT,
    GREEN,
    MUTED,
    ORANGE,
    PANEL,
    RED,
    TEXT,
    Canvas,
)

STRIP_H = 64

DEVICE_NAMES = {"shoe": "CARD SHOE", "buttons": "BUTTONS", "dealer": "DEALER BUTTONS",
                "tv": "TV", "journal": "JOURNAL", "audio": "SOUND", "clock": "CLOCK"}


def offline_display_seats(state: ScreenState) -> frozenset[int]:
    """Seats whose display is offline: ``"display:N"`` entries plus ``display_online`` False."""
    seats = set()
    for item in state.offline:
        kind, _, arg = item.partition(":")
        if kind.strip().lower() in ("display", "seat_display", "seat") and arg.strip().isdigit():
            seats.add(int(arg))
    if state.table is not None:
        seats.update(s.seat for s in state.table.seats
                     if not s.display_online and s.status != "empty")
    return frozenset(seats)


def status_messages(state: ScreenState) -> list[str]:
    """The strip's messages, alarms first; empty when everything is online."""
    msgs = [f"ALARM: {alarm}" for alarm in state.alarms]
    seats = sorted(offline_display_seats(state))
    if seats:
        msgs.append("DISPLAY OFFLINE: SEAT " + ", ".join(str(s) for s in seats))
    for item in state.offline:
        kind, _, arg = item.partition(":")
        k = kind.strip().lower()
        if k in ("display", "seat_display", "seat") and arg.strip().isdigit():
            continue
        name = DEVICE_NAMES.get(k, k.upper())
        msgs.append(f"{name}{' ' + arg.strip().upper() if arg.strip() else ''} OFFLINE")
    return msgs


def has_strip(state: ScreenState) -> bool:
    return bool(status_messages(state))


def draw_status_strip(cv: Canvas, state: ScreenState) -> None:
    """A red strip across the top naming what is offline and the alarms."""
    msgs = status_messages(state)
    if not msgs:
        return
    r = cv.rect(0, 0, cv.dw, STRIP_H)
    pygame.draw.rect(cv.surface, (150, 20, 28) if state.alarms else (120, 24, 30), r)
    pygame.draw.rect(cv.surface, RED, cv.rect(0, STRIP_H - 6, cv.dw, 6))
    cv.text("   \u2022   ".join(msgs), "bold", 36, TEXT, (cv.dw / 2, STRIP_H / 2 - 3), "center",
            max_width=cv.dw - 40)


STATUS_STYLE = {
    "advisory": ("ADVISORY - CONFIRM OR OVERRIDE ON THE BUTTON BOX", ORANGE),
    "confirmed": ("CONFIRMED", GREEN),
    "overridden": ("OVERRIDDEN BY THE FLOOR", MUTED),
}


def draw_ruling(cv: Canvas, ruling: RulingView, at_top: bool = False) -> pygame.Rect:
    """The ruling banner across the lower part of the screen (``at_top``: the upper part,
    a little lower in height, clear of the board, while the all-in odds panel holds the
    bottom), over the rest darkened.  The banner is drawn once per ruling
    (:mod:`pi_app.screens.parts`).  Returns the banner's real rect."""
    x, y, w, h = 50, cv.dh - 420, cv.dw - 100, 390
    if at_top:
        y, h = 10, 360
    r = cv.rect(x, y, w, h)
    _darken_around(cv, r, cv.px(24))
    return blit_part(cv, ("ruling", ruling, h), r, (w, h),
                     lambda pc: _banner(pc, ruling, w, h))


def _darken_around(cv: Canvas, r: pygame.Rect, radius: int) -> None:
    """Darken the canvas (as a black veil of alpha 110 would), in place, but for the part of
    ``r`` the opaque banner covers whole (all of it but the rows of its rounded corners):
    no full-screen surface is made or alpha-blitted per frame."""
    area = cv.area
    inner = pygame.Rect(r.x, r.y + radius, r.w, r.h - 2 * radius).clip(area)
    rects = [pygame.Rect(area.x, area.y, area.w, inner.y - area.y),
             pygame.Rect(area.x, inner.bottom, area.w, area.bottom - inner.bottom),
             pygame.Rect(area.x, inner.y, inner.x - area.x, inner.h),
             pygame.Rect(inner.right, inner.y, area.right - inner.right, inner.h)]
    clip = cv.surface.get_clip()
    for part in rects:
        # clipped here: a blended fill whose rect misses the surface's clip entirely
        # ignores the clip (pygame-ce 2.5), and a partial redraw draws under a clip
        part = part.clip(clip)
        if part.w > 0 and part.h > 0:
            cv.surface.fill((145, 145, 145), part, special_flags=pygame.BLEND_RGB_MULT)


def _banner(cv: Canvas, ruling: RulingView, w: float, h: float) -> None:
    """The banner in its own canvas, (0, 0) its top left corner.  Every text is in words
    (:func:`engine.wording.words`): no raw identifier reaches the room."""
    x = y = 0
    r = cv.rect(x, y, w, h)
    status_text, status_colour = STATUS_STYLE.get(
        ruling.status, (ruling.status.upper(), ORANGE))
    cv.panel(r, fill=PANEL, edge=status_colour, radius=24, width=8)
    head = cv.rect(x, y, w, 84)
    pygame.draw.rect(cv.surface, status_colour, head, border_top_left_radius=cv.px(24),
                     border_top_right_radius=cv.px(24))
    cv.text("RULING", "bold", 50, (10, 10, 10), (x + 36, y + 42), "midleft")
    cv.text(status_text, "bold", 32, (10, 10, 10), (x + w / 2 + 40, y + 42), "center",
            max_width=w - 640)
    cv.text(words(ruling.rule), "bold", 44, (10, 10, 10), (x + w - 36, y + 42), "midright",
            max_width=300)
    cv.text(words(ruling.words or ruling.code), "bold", 62, TEXT, (x + 36, y + 110),
            max_width=w - 72)
    cv.text("DEALER:", "bold", 34, ACCENT, (x + 36, y + 206))
    _wrap(cv, words(ruling.instruction), "bold", 42, TEXT, x + 210, y + 198, w - 250, 2)
    foot = f"code {words(ruling.code)}   \u2022   rules {words(ruling.profile)}"
    cv.text(foot, "sans", 24, MUTED, (x + 36, y + h - 22), "bottomleft", max_width=w - 72,
            minor=True)  # the code and rule set, for the floor


def _wrap(cv: Canvas, text: str, kind: str, size: float, colour, x: float, y: float,
          width: float, max_lines: int) -> None:
    """Word-wrap ``text`` into at most ``max_lines`` lines (the last one shrinks to fit)."""
    from pi_app.screens.theme import text_surface
    words = text.split()
    lines: list[str] = []
    cur = ""
    limit = cv.px(width)
    for word in words:
        trial = f"{cur} {word}".strip()
        if text_surface(kind, cv.px(size), trial, colour).get_width() <= limit or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    for i, line in enumerate(lines):
        cv.text(line, kind, size, colour, (x, y + i * size * 1.25), max_width=width)
