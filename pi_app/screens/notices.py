"""The clock's notices (PAUSED, a color-up, the bonus in the next pot, late registration...)
drawn as pills, every word of each in the pill, at a legible size.

:func:`plan` places them in a design rectangle: in one row when they fit it (the whole
clock's layout), else one under another; a notice that is too long for the width even at
the smallest legible size (:func:`pi_app.screens.theme.legible_px`) is wrapped over lines
in a taller pill instead of being cut.  :func:`height` is the design height they take (the
split layout's column draws its figures under them).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from pi_app.screens.theme import (
    ACCENT,
    BG,
    BLUE,
    GREEN,
    MUTED,
    ORANGE,
    RED,
    TEXT,
    Canvas,
    legible_px,
    text_surface,
)

GAP = 24  #: design pixels between two pills of a row
ROW_GAP = 8  #: design pixels between two rows


@dataclass(frozen=True)
class Pill:
    """One notice as drawn: its lines, its design box (x, y, w, h) and font size."""

    lines: tuple[str, ...]
    box: tuple[float, float, float, float]
    size: float


def notice_colour(text: str) -> tuple[int, int, int]:
    """The pill's colour for a notice (orange PAUSED, blue color-up, ...)."""
    t = text.lower()
    if t == "paused":
        return ORANGE
    if "colo" in t and "up" in t:
        return BLUE
    if "next hand" in t:
        return ACCENT
    if "late reg" in t and ("closed" in t or "closes" in t or "closing" in t):
        return RED
    if "late reg" in t:
        return GREEN
    return MUTED


def _px_width(cv: Canvas, text: str, size: float) -> int:
    """Real width of ``text`` drawn at ``size`` (design), never under the legible size."""
    px = max(cv.px(size), legible_px("bold", cv.screen_h))
    return text_surface("bold", px, text, TEXT).get_width()


def _inner(cv: Canvas, width: float) -> int:
    """Real width a pill ``width`` design pixels wide gives its text (as :func:`_draw_pill`)."""
    return cv.rect(0, 0, width, 1).w - cv.px(16)


def wrap(cv: Canvas, text: str, size: float, width: float) -> tuple[str, ...]:
    """``text`` in as few lines as fit a pill ``width`` design pixels wide at the legible
    size; one line when it fits there (it may still shrink from ``size`` to fit)."""
    limit = _inner(cv, width)
    floor = legible_px("bold", cv.screen_h)
    if text_surface("bold", floor, text, TEXT).get_width() <= limit:
        return (text,)
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if not cur or text_surface("bold", floor, trial, TEXT).get_width() <= limit:
            cur = trial
        else:
            lines.append(cur)
            cur = word
    return tuple(lines + [cur]) if cur else tuple(lines)


def row_scale(cv: Canvas, texts: list[str], size: float, width: float) -> float | None:
    """The scale (<= 1) at which ``texts`` fit one row ``width`` wide, or None when they
    would go under the legible size."""
    pad = size * 0.6
    total = sum(_px_width(cv, t, size) / cv.s + 2 * pad + GAP for t in texts) \
        + GAP * (len(texts) - 1)
    k = min(1.0, width / total)
    if k < 1.0 and cv.px(size * k) < legible_px("bold", cv.screen_h):
        return None
    return k


def plan(cv: Canvas, box: tuple[float, float, float, float], size: float,
         notices: tuple[str, ...], *, mode: str, row_h: float = 0.0) -> list[Pill]:
    """The pills of ``notices`` (already upper-cased) in ``box`` (design x, y, w, h).
    ``mode``: ``"row"``: one centred row ``h`` high, scaled down to fit the width (see
    :func:`row_scale`); ``"packed"``: rows of as many as fit, in order; ``"stacked"``:
    one a row.  Rows are ``row_h`` high plus the lines a wrapped notice adds."""
    x, y, w, h = box
    pad = size * 0.6
    if mode == "row":
        k = row_scale(cv, list(notices), size, w) or 1.0
        widths = [(_px_width(cv, t, size) / cv.s + 2 * pad + GAP) for t in notices]
        total = sum(widths) + GAP * (len(widths) - 1)
        cx = x + (w - total * k) / 2
        row = []
        for text, pw in zip(notices, widths, strict=True):
            row.append(Pill((text,), (cx, y, pw * k, h), size * k))
            cx += (pw + GAP) * k
        return row
    out: list[Pill] = []
    top = y
    for texts in rows(cv, notices, size, w, pack=mode == "packed"):
        widths = [min(_px_width(cv, t, size) / cv.s + 2 * pad + GAP, w) for t in texts]
        wrapped = [wrap(cv, t, size, pw) for t, pw in zip(texts, widths, strict=True)]
        most = max(len(lines) for lines in wrapped)  # a wrapped notice: its lines apart
        ph = row_h - ROW_GAP if most == 1 else most * size * 1.25 + size * 0.5
        cx = x + (w - sum(widths) - GAP * (len(texts) - 1)) / 2
        for lines, pw in zip(wrapped, widths, strict=True):
            out.append(Pill(lines, (cx, top, pw, ph), size))
            cx += pw + GAP
        top += ph + ROW_GAP
    return out


def rows(cv: Canvas, notices: tuple[str, ...], size: float, width: float, *,
         pack: bool) -> list[list[str]]:
    """The notices by row: one a row, or (``pack``) as many as fit each row in order."""
    if not pack:
        return [[t] for t in notices]
    pad = size * 0.6
    rows: list[list[str]] = []
    used = 0.0
    for t in notices:
        pw = _px_width(cv, t, size) / cv.s + 2 * pad + GAP
        if rows and used + GAP + pw <= width:
            rows[-1].append(t)
            used += GAP + pw
        else:
            rows.append([t])
            used = pw
    return rows


def height(pills: list[Pill]) -> float:
    """Design height from the first pill's top to the last one's bottom (0: none)."""
    if not pills:
        return 0.0
    return max(p.box[1] + p.box[3] for p in pills) - min(p.box[1] for p in pills)


def draw(cv: Canvas, pills: list[Pill]) -> None:
    """Draw the pills :func:`plan` placed."""
    for p in pills:
        colour = notice_colour(" ".join(p.lines))
        r = cv.rect(*p.box)
        radius = r.h // 2 if len(p.lines) == 1 else cv.px(p.size * 0.6)
        pygame.draw.rect(cv.surface, colour, r, border_radius=radius)
        fg = (12, 12, 16) if colour != MUTED else BG
        step = r.h / len(p.lines)
        for i, line in enumerate(p.lines):
            cv.text_px(line, "bold", cv.px(p.size), fg, (r.centerx, int(r.y + step * (i + 0.5))),
                       "center", max_width=r.w - cv.px(16))
