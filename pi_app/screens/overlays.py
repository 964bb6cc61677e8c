"""Overlays drawn over any screen: the ruling banner and the device status strip.

* Ruling banner (:func:`draw_ruling`): the ruling in words, its rule reference (Poker TDA
  numbering), what the dealer must do now, and its status: ``ADVISORY`` until the dealer
  confirms or overrides it from the button box (then ``CONFIRMED`` / ``OVERRIDDEN``).
* Status strip (:func:`draw_status_strip`): devices offline (``ScreenState.offline`` entries
  such as ``"display:3"``, ``"shoe"``; seats whose ``display_online`` is False) and the journal
  alarms (``ScreenState.alarms``).  It takes :data:`STRIP_H` design pixels at the top.
"""

from __future__ import annotations

import re

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
    legible_px,
    text_surface,
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
    bottom), over the rest darkened.  The banner grows (upwards at the bottom, downwards
    at the top) by a line for each line of the dealer's instruction past two, so the
    instruction is always whole.  The banner is drawn once per ruling
    (:mod:`pi_app.screens.parts`).  Returns the banner's real rect."""
    extra = INSTRUCTION_STEP * max(0, len(instruction_lines(cv, ruling)) - 2)
    x, y, w, h = 50, cv.dh - 420 - extra, cv.dw - 100, 390 + extra
    if at_top:
        y, h = 10, 360 + extra
    r = cv.rect(x, y, w, h)
    _darken_around(cv, r, cv.px(24))
    return blit_part(cv, ("ruling", ruling, h), r, (w, h),
                     lambda pc: _banner(pc, ruling, w, h))


INSTRUCTION = 42  #: design px of the dealer's instruction
INSTRUCTION_STEP = INSTRUCTION * 1.25  #: design px from one of its lines to the next
INSTRUCTION_W = 1920 - 100 - 250  #: design px of its lines' width (right of "DEALER:")


def instruction_lines(cv: Canvas, ruling: RulingView) -> list[str]:
    """The dealer's instruction in words, wrapped whole (every word on some line, no line
    cut) at :data:`INSTRUCTION` design px into :data:`INSTRUCTION_W`."""
    size = max(cv.px(INSTRUCTION), legible_px("bold", cv.screen_h))
    limit = cv.px(INSTRUCTION_W)
    lines: list[str] = []
    for word in words(ruling.instruction).split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_surface("bold", size, trial, TEXT).get_width() <= limit:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines


def ruling_footer(ruling: RulingView) -> str:
    """The banner's last line, for the floor, in words: what the ruling is on and under
    which rules ("Ruling on exposed second card, TDA 2024 rules")."""
    m = re.fullmatch(r"tda(\d{4})", ruling.profile.lower())
    rules = f"TDA {m.group(1)} rules" if m else f"{words(ruling.profile)} house rules"
    return f"Ruling on {words(ruling.code).lower()}, {rules}"


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
    for i, line in enumerate(instruction_lines(cv, ruling)):
        cv.text(line, "bold", INSTRUCTION, TEXT, (x + 210, y + 198 + i * INSTRUCTION_STEP))
    cv.text(ruling_footer(ruling), "sans", 24, MUTED, (x + 36, y + h - 22), "bottomleft",
            max_width=w - 72, minor=True)  # what the ruling is on, and the rules


