"""Colours, shipped fonts, scaling and text helpers shared by the TV screens.

Every size in the screen modules is written in *design pixels* for a 1920x1080 TV and
scaled by :class:`Canvas` to the real surface (1280x720 scales by 2/3).  Fonts come only
from ``pi_app/screens/fonts/`` (DejaVu, Bitstream Vera license, see ``fonts/README.txt``);
system fonts are never used at run time.

Rendered text surfaces are cached (LRU, bounded by bytes: :mod:`pi_app.screens.cache`) by
font, size, text and colour, and so are whole parts of a frame (a seat's box, a card, the
ruling banner, the odds panel: :mod:`pi_app.screens.parts`), which is what makes a redraw
cheap (see ``bench/bench_screens.py``).  Texts that change every second (the countdown) are drawn from
cached glyphs (:meth:`Canvas.glyphs_px`), so a night of distinct clock values adds nothing;
over the solid colour of their box, from glyphs blended over it once (copied, not blended
again each second).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the service log

import pygame  # noqa: E402

from engine.text import safe_text  # noqa: E402
from pi_app.screens.cache import BUDGETS, ByteLRU  # noqa: E402

FONT_DIR = Path(__file__).with_name("fonts")
FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed-Bold.ttf",
}

DESIGN_W, DESIGN_H = 1920, 1080

# Palette: dark room, high contrast (all RGB).
BG = (10, 14, 22)
PANEL = (22, 30, 44)
PANEL_EDGE = (48, 62, 86)
TEXT = (236, 240, 246)
MUTED = (150, 162, 182)
ACCENT = (255, 196, 44)       # gold: blinds, amounts
TIME = (255, 255, 255)
GREEN = (64, 200, 120)
RED = (236, 72, 72)
ORANGE = (255, 140, 30)
BLUE = (80, 160, 255)
FELT = (18, 92, 58)
FELT_EDGE = (96, 62, 30)
FELT_DARK = (12, 64, 40)
CARD_FACE = (250, 250, 246)
CARD_BACK = (150, 28, 40)
SUIT_COLOURS = {"s": (20, 20, 24), "c": (16, 120, 56), "h": (204, 22, 34), "d": (30, 90, 210)}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
RANK_TEXT = {"T": "10"}


def font_path(kind: str) -> Path:
    """Path of the shipped TTF for ``kind`` in :data:`FONT_FILES`.

    Raises:
        KeyError: unknown kind.
    """
    return FONT_DIR / FONT_FILES[kind]


#: what one open font costs (bytes): measured as RSS per pygame Font of the shipped faces
#: once it has rendered a few glyphs (about 235 KB on x86-64; bench/bench_night.py)
FONT_BYTES = 256 * 1024


def surface_bytes(surf: pygame.Surface) -> int:
    """Pixel bytes held by ``surf`` (pitch x height)."""
    return surf.get_pitch() * surf.get_height()


FONTS: ByteLRU[pygame.font.Font] = ByteLRU(BUDGETS["fonts"], lambda _f: FONT_BYTES)
TEXTS: ByteLRU[pygame.Surface] = ByteLRU(BUDGETS["text"], surface_bytes)
GLYPHS: ByteLRU[pygame.Surface] = ByteLRU(BUDGETS["glyphs"], surface_bytes)
#: whole-area backgrounds drawn once (the table's felt): a few full-screen surfaces at most
LAYERS: ByteLRU[pygame.Surface] = ByteLRU(BUDGETS["layers"], surface_bytes)


def font(kind: str, size: int) -> pygame.font.Font:
    """A shipped font at ``size`` real pixels (cached, :data:`FONTS`).

    Raises:
        KeyError: unknown kind.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    size = max(6, int(size))
    return FONTS.get((kind, size), lambda: pygame.font.Font(str(font_path(kind)), size))


TEXT_MAX = 160  # characters of one drawn text; longer text is elided (engine.text)


def text_surface(kind: str, size: int, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
    """Antialiased text rendered once and cached (:data:`TEXTS`); callers only blit it.
    Every text drawn on the TV passes here or through :func:`glyph_run` and is made safe
    first (:func:`engine.text.safe_text`: no control, bidi or zero-width character reaches
    the font; at most :data:`TEXT_MAX` characters)."""
    key = (kind, size, text, tuple(colour))
    return TEXTS.get(key, lambda: font(kind, size).render(safe_text(text, TEXT_MAX), True,
                                                          colour))


def glyph(kind: str, size: int, char: str, colour: tuple[int, int, int]) -> pygame.Surface:
    """One character rendered once and cached (:data:`GLYPHS`)."""
    key = (kind, size, char, tuple(colour))
    return GLYPHS.get(key, lambda: font(kind, size).render(char, True, colour))


def glyph_on(kind: str, size: int, char: str, colour: tuple[int, int, int],
             bg: tuple[int, int, int], like: pygame.Surface) -> pygame.Surface:
    """:func:`glyph` blended once over the solid colour ``bg``, opaque, in ``like``'s pixel
    format (cached, :data:`GLYPHS`): copied onto ``bg`` it gives the pixels the glyph's
    alpha blit gives there, without the blend."""
    key = ("on", kind, size, char, tuple(colour), tuple(bg), like.get_bitsize(),
           like.get_masks())

    def make() -> pygame.Surface:
        g = glyph(kind, size, char, colour)
        out = pygame.Surface(g.get_size(), 0, like)
        out.fill(bg)
        out.blit(g, (0, 0))
        return out

    return GLYPHS.get(key, make)


#: real px: SDL's fill of 32-bit pixels on x86 writes each row with streaming stores
#: of whole cache lines from the row's first 64-byte boundary; a row that starts off such
#: a boundary costs several times more (a 580x170 fill 137 us against 21 us)
COLUMN = 16


def fill_columns(surface: pygame.Surface, colour: tuple[int, int, int],
                 r: pygame.Rect) -> None:
    """``surface.fill(colour, r)`` in two fills: the columns before the first multiple of
    :data:`COLUMN` (too few for the streaming stores), then the rest from it (the same
    pixels, most of them on the fast path)."""
    x1 = -(-r.x // COLUMN) * COLUMN
    if r.x < x1 < r.right:
        surface.fill(colour, (r.x, r.y, x1 - r.x, r.h))
        surface.fill(colour, (x1, r.y, r.right - x1, r.h))
    else:
        surface.fill(colour, r)


def glyph_run(kind: str, size: int, text: str, colour: tuple[int, int, int],
              max_width: int | None = None, floor: int = 8,
              on: tuple[tuple[int, int, int], pygame.Surface] | None = None
              ) -> list[pygame.Surface]:
    """The glyphs of ``text`` (made safe first, as in :func:`text_surface`) at ``size``
    real pixels, at a smaller size (never under ``floor``) when their total width exceeds
    ``max_width`` (as :func:`fit_text`).  ``on``: (colour, surface): the same glyphs
    blended over that colour once, in that surface's format (:func:`glyph_on`)."""
    text = safe_text(text, TEXT_MAX)
    run = [glyph(kind, size, c, colour) for c in text]
    width = sum(g.get_width() for g in run)
    if not (max_width is None or width <= max_width or size <= floor):
        size = max(floor, int(size * max_width / max(1, width)))
        while True:
            run = [glyph(kind, size, c, colour) for c in text]
            if sum(g.get_width() for g in run) <= max_width or size <= floor:
                break
            size -= 1
    if on is None:
        return run
    return [glyph_on(kind, size, c, colour, *on) for c in text]


def fmt_chips(n: int | None) -> str:
    """Chips with thousands separators: ``12500`` -> ``"12,500"``; None -> ``"-"``."""
    if n is None:
        return "-"
    return f"{int(n):,}"


def fmt_short(n: int) -> str:
    """Compact chips for tight places: 1500 -> ``"1,500"``, 125000 -> ``"125K"``,
    2500000 -> ``"2.5M"``."""
    n = int(n)
    if abs(n) >= 1_000_000:
        v = n / 1_000_000
        return f"{v:.1f}M".replace(".0M", "M")
    if abs(n) >= 100_000:
        return f"{n // 1000}K"
    return f"{n:,}"


def fmt_clock(seconds: float | None) -> str:
    """Remaining time as ``MM:SS`` (or ``H:MM:SS`` from one hour), rounded *up* so the
    display shows 00:01 until the last second has passed; None -> ``"--:--"``."""
    if seconds is None:
        return "--:--"
    total = max(0, int(-(-float(seconds) // 1)))
    h, rem = divmod(total, 3600)
    m, s = divmod(rem, 60)
    if h:
        return f"{h}:{m:02d}:{s:02d}"
    return f"{m:02d}:{s:02d}"


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: the text, the real rectangle of the rendered text (its height is
    the font's line box, about 1.17 times the font size) and ``minor`` (True for a text no
    player needs to read from the room: a seat's number on the felt, the director's
    pairing panel and status strip) and ``cut``."""

    text: str
    rect: pygame.Rect
    minor: bool = False
    cut: bool = False  # True when the text did not fit its width and was cut with "…"


class _Recorders(threading.local):
    """The recorders of the thread drawing (the TV may draw on a thread of its own)."""

    def __init__(self) -> None:
        self.lists: list[list[DrawnText]] = []


_LOCAL = _Recorders()


@contextmanager
def record_texts() -> Iterator[list[DrawnText]]:
    """Collect every text drawn through a :class:`Canvas` by this thread inside the
    ``with`` block (what the legibility test measures)::

        with record_texts() as drawn:
            draw_screen(surface, state)
        smallest = min(t.rect.h for t in drawn if not t.minor)
    """
    drawn: list[DrawnText] = []
    _LOCAL.lists.append(drawn)
    try:
        yield drawn
    finally:
        _LOCAL.lists.remove(drawn)


def note_text(text: str, rect: pygame.Rect, minor: bool = False, cut: bool = False) -> None:
    """Tell :func:`record_texts` about a text blitted without :meth:`Canvas.text_px`."""
    for rec in _LOCAL.lists:
        rec.append(DrawnText(text, pygame.Rect(rect), minor, cut))


@contextmanager
def texts_apart() -> Iterator[list[DrawnText]]:
    """As :func:`record_texts`, but the texts drawn inside the block reach only this list,
    not the recorders outside it (for a part drawn into a surface of its own, whose texts
    are told again, moved, each time it is blitted: :mod:`pi_app.screens.parts`)."""
    saved = _LOCAL.lists
    drawn: list[DrawnText] = []
    _LOCAL.lists = [drawn]
    try:
        yield drawn
    finally:
        _LOCAL.lists = saved


class Canvas:
    """A surface region plus the scale from design pixels to real pixels.

    ``area`` is the real rectangle drawn into (default: the whole surface) and ``design``
    its size in design pixels (default 1920x1080).  ``s`` is the uniform scale; the design
    area is centred when the aspect ratios differ.  :meth:`sub` makes a child canvas for a
    design sub-rectangle at the same scale, with its own design origin.  ``screen_h`` is
    the height in real pixels of the screen the drawing ends up on (default: the surface's;
    a part drawn into a surface of its own gives the screen's), which sets the legible size.
    """

    def __init__(self, surface: pygame.Surface, area: pygame.Rect | None = None,
                 design: tuple[float, float] = (DESIGN_W, DESIGN_H), faces: list | None = None,
                 scale: float | None = None, screen_h: int | None = None):
        self.surface = surface
        self.screen_h = screen_h if screen_h is not None else surface.get_height()
        area = pygame.Rect(area) if area is not None else surface.get_rect()
        self.area = area
        self.w, self.h = area.w, area.h
        self.dw, self.dh = design
        self.s = scale if scale is not None else min(area.w / self.dw, area.h / self.dh)
        self.ox = area.x + int((area.w - self.dw * self.s) / 2)
        self.oy = area.y + int((area.h - self.dh * self.s) / 2)
        # every card drawn face up in this frame (checked by the secrets test)
        self.faces: list = faces if faces is not None else []

    def sub(self, x: float, y: float, w: float, h: float) -> Canvas:
        """A child canvas for the design rectangle (x, y, w, h), same scale and face log."""
        return Canvas(self.surface, self.rect(x, y, w, h), (w, h), self.faces, self.s,
                      self.screen_h)

    def px(self, v: float) -> int:
        """A design length in real pixels (at least 1)."""
        return max(1, int(round(v * self.s)))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A design rectangle in real pixels."""
        return pygame.Rect(self.ox + int(round(x * self.s)), self.oy + int(round(y * self.s)),
                           int(round(w * self.s)), int(round(h * self.s)))

    def point(self, x: float, y: float) -> tuple[int, int]:
        return self.ox + int(round(x * self.s)), self.oy + int(round(y * self.s))

    def text(self, text: str, kind: str, size: float, colour, pos: tuple[float, float],
             anchor: str = "topleft", max_width: float | None = None, *,
             minor: bool = False) -> pygame.Rect:
        """Draw ``text`` in design units at design ``pos`` with a pygame Rect ``anchor``
        name (``"center"``, ``"midtop"``...); shrinks the font to fit ``max_width``.
        ``minor``: see :class:`DrawnText`.  Returns the real rect drawn."""
        return self.text_px(text, kind, self.px(size), colour, self.point(*pos), anchor,
                            None if max_width is None else self.px(max_width), minor=minor)

    def text_px(self, text: str, kind: str, size: int, colour, pos: tuple[int, int],
                anchor: str = "topleft", max_width: int | None = None, *,
                minor: bool = False) -> pygame.Rect:
        """As :meth:`text` in real pixels.  A text that is not ``minor`` is drawn at
        :func:`legible_px` at least (cut with an ellipsis rather than shrunk below it)."""
        floor = 8 if minor else legible_px(kind, self.screen_h)
        surf = fit_text(kind, max(size, floor), text, tuple(colour), max_width, floor)
        r = surf.get_rect(**{anchor: pos})
        self.surface.blit(surf, r)
        if _LOCAL.lists:  # fit_text cuts a text only when it is too wide at the floor
            cut = max_width is not None and \
                text_surface(kind, floor, text, tuple(colour)).get_width() > max_width
            note_text(text, r, minor, cut)
        return r

    def glyphs_px(self, text: str, kind: str, size: int, colour, pos: tuple[int, int],
                  anchor: str = "topleft", max_width: int | None = None, *,
                  box: tuple[tuple[int, int, int], pygame.Rect] | None = None) -> pygame.Rect:
        """As :meth:`text_px`, drawn glyph by glyph from :func:`glyph_run` (for texts that
        change every second: nothing new is cached per distinct text), at
        :func:`legible_px` at least.  ``box``: (colour, real rect): the rect is filled
        with the colour first and the text drawn within it (clipped to it) from glyphs
        blended over that colour once (:func:`glyph_on`): the same pixels as the alpha
        glyphs drawn over the fill, each glyph a plain copy."""
        floor = legible_px(kind, self.screen_h)
        surf = self.surface
        on = None if box is None else (box[0], surf)
        run = glyph_run(kind, max(size, floor), text, tuple(colour), max_width, floor, on)
        height = max((g.get_height() for g in run), default=0)
        r = pygame.Rect(0, 0, sum(g.get_width() for g in run), height)
        setattr(r, anchor, pos)
        saved = surf.get_clip()
        if box is not None:
            fill_columns(surf, box[0], box[1])
            surf.set_clip(box[1].clip(saved))
        x = r.x
        try:
            for g in run:
                surf.blit(g, (x, r.y))
                x += g.get_width()
        finally:
            surf.set_clip(saved)
        if _LOCAL.lists:
            note_text(text, r)
        return r

    def panel(self, r: pygame.Rect, fill=PANEL, edge=PANEL_EDGE, radius: float = 18,
              width: float = 3) -> None:
        """A rounded panel with an edge, ``r`` in real pixels."""
        rad = self.px(radius)
        pygame.draw.rect(self.surface, fill, r, border_radius=rad)
        if edge is not None and width:
            pygame.draw.rect(self.surface, edge, r, width=self.px(width), border_radius=rad)


def fit_text(kind: str, size: int, text: str, colour: tuple[int, int, int],
             max_width: int | None, floor: int = 8) -> pygame.Surface:
    """The cached text surface, at a smaller size (never under ``floor`` px) when wider
    than ``max_width``; a text still too wide at ``floor`` is cut with an ellipsis."""
    surf = text_surface(kind, size, text, colour)
    if max_width is None or surf.get_width() <= max_width or size <= floor:
        return _elide(kind, size, text, colour, max_width, surf)
    new = max(floor, int(size * max_width / surf.get_width()))
    surf = text_surface(kind, new, text, colour)
    while surf.get_width() > max_width and new > floor:
        new -= 1
        surf = text_surface(kind, new, text, colour)
    return _elide(kind, new, text, colour, max_width, surf)


def _elide(kind: str, size: int, text: str, colour: tuple[int, int, int],
           max_width: int | None, surf: pygame.Surface) -> pygame.Surface:
    """``surf`` if it fits ``max_width``, else ``text`` cut with "…" until it fits."""
    if max_width is None or surf.get_width() <= max_width:
        return surf
    cut = text
    while len(cut) > 1 and surf.get_width() > max_width:
        cut = cut[:-1]
        surf = text_surface(kind, size, cut.rstrip() + "\u2026", colour)
    return surf


#: no text a player needs is smaller than this fraction of the screen's height (its
#: rendered line box; issue 15: legible from 5 m on a 55-inch TV)
LEGIBLE_FRACTION = 0.035
_LEGIBLE: dict[tuple[str, int], int] = {}


def legible_px(kind: str, screen_h: int) -> int:
    """The smallest font size (real px) of ``kind`` whose rendered line box is at least
    :data:`LEGIBLE_FRACTION` of ``screen_h`` (1080 -> 33 px, 720 -> 22 px for DejaVu)."""
    key = (kind, screen_h)
    if key not in _LEGIBLE:
        need = LEGIBLE_FRACTION * screen_h
        size = max(6, int(need / 1.4))
        while font(kind, size).get_height() < need:
            size += 1
        _LEGIBLE[key] = size
    return _LEGIBLE[key]
