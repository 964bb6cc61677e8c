"""Frame composition for the TV and the redraw-only-what-changed renderer.

:func:`draw_screen` draws one whole frame of a :class:`engine.views.ScreenState` into any
pygame surface (1920x1080, 1280x720 or other sizes: everything scales from the surface
size).  ``state.layout`` picks ``"clock"``, ``"table"`` or ``"split"``, and the winner screen
(:mod:`pi_app.screens.winner`) replaces them once one player is left; the bonus wheel, the
ruling banner, the device status strip, the all-in odds (:mod:`pi_app.screens.odds`), the
season panel (:mod:`pi_app.screens.season`)
and the pairing panel (:mod:`pi_app.screens.pairing`) are drawn over any layout.

:class:`ScreenRenderer` keeps the last state drawn and redraws as little as possible:
nothing when nothing visible changed (``now`` alone moving, or the clock moving inside the
same second), only the time fields when only the clock ticked, the whole frame otherwise.
Wiring into ``hardware.tv``::

    TV(draw=ScreenRenderer(), ...)   # a renderer is a draw callable; the loop hands it
                                     # the states whose screen_key changed (ViewChanges)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pygame

from engine.cards import Card
from engine.views import ClockView, ScreenState
from pi_app.screens import clock as clock_mod
from pi_app.screens.odds import draw_odds
from pi_app.screens.overlays import (
    STRIP_H,
    draw_ruling,
    draw_status_strip,
    has_strip,
    offline_display_seats,
    status_messages,
)
from pi_app.screens.pairing import draw_pairing, pairing_of
from pi_app.screens.regions import Layer, redraw_layer
from pi_app.screens.season import draw_season, season_of
from pi_app.screens.table import draw_table, table_regions
from pi_app.screens.theme import ACCENT, BG, MUTED, Canvas
from pi_app.screens.venue_banner import draw_venue_banner, venue_banner_of
from pi_app.screens.wheel import draw_wheel, wheel_angle
from pi_app.screens.winner import draw_winner

LAYOUTS = ("clock", "table", "split")
SPLIT_CLOCK_W = 620


@dataclass
class Frame:
    """What one full draw produced: the faces drawn (public cards only), when a clock was
    drawn its canvas and layout (for partial redraws of the time fields), and when a table
    was drawn its layer of regions with the faces drawn before and after it (for partial
    redraws of the regions that change: :mod:`pi_app.screens.regions`)."""

    faces: list[Card] = field(default_factory=list)
    clock_canvas: Canvas | None = None
    clock_layout: clock_mod.ClockLayout | None = None
    table: Layer | None = None
    faces_around: tuple[list[Card], list[Card]] = ([], [])


def render_frame(surface: pygame.Surface, state: ScreenState) -> Frame:
    """Draw the whole frame for ``state`` and return what was drawn (see :class:`Frame`).

    Raises:
        ValueError: ``state.layout`` not one of :data:`LAYOUTS`.
    """
    if state.layout not in LAYOUTS:
        raise ValueError(f"unknown layout {state.layout!r}: expected one of {LAYOUTS}")
    if not (state.layout == "table" and state.table is not None and not has_strip(state)):
        surface.fill(BG)  # (the table layout's felt layer covers the whole surface)
    root = Canvas(surface)
    frame = Frame(faces=root.faces)
    top = STRIP_H if has_strip(state) else 0
    layout = _layout_drawn(state)
    offline = offline_display_seats(state)
    before = 0
    if state.room is not None and state.room.finished:
        cv = Canvas(surface, root.rect(0, top, root.dw, root.dh - top), faces=root.faces)
        draw_winner(cv, state.room, state.clock.tournament_name if state.clock else "")
    elif layout == "clock" and state.clock is not None:
        cv = Canvas(surface, root.rect(0, top, root.dw, root.dh - top), faces=root.faces)
        clock_mod.draw_clock(cv, state.clock, clock_mod.FULL, state.room)
        frame.clock_canvas, frame.clock_layout = cv, clock_mod.FULL
    elif layout in ("table", "split") and state.table is not None:
        if layout == "split" and state.clock is not None:
            ccv = Canvas(surface, root.rect(0, top, SPLIT_CLOCK_W, root.dh - top),
                         (SPLIT_CLOCK_W, 1080), faces=root.faces)
            clock_mod.draw_clock(ccv, state.clock, clock_mod.COLUMN, state.room)
            frame.clock_canvas, frame.clock_layout = ccv, clock_mod.COLUMN
        before = len(root.faces)
        frame.table = draw_table(_table_area(root, layout, top), state.table, offline,
                                 state.room)
        _draw_divider(root, layout, top)
    else:
        root.text("POKER TABLE", "bold", 96, ACCENT, (root.dw / 2, root.dh / 2 - 40), "center")
        root.text("waiting for the tournament", "bold", 40, MUTED,
                  (root.dw / 2, root.dh / 2 + 50), "center")
    after = len(root.faces)
    _draw_overlays(root, state, layout, top)
    if frame.table is not None:
        frame.faces_around = (root.faces[:before], root.faces[after:])
    return frame


def _table_area(root: Canvas, layout: str, top: float) -> Canvas:
    """The canvas of the table's area: the whole screen under the status strip, or in the
    split layout the part right of the clock's column."""
    h = root.dh - top
    if layout == "split":
        tw = root.dw - SPLIT_CLOCK_W
        return Canvas(root.surface, root.rect(SPLIT_CLOCK_W, top, tw, h), (tw, 1080),
                      faces=root.faces)
    return Canvas(root.surface, root.rect(0, top, root.dw, h), faces=root.faces)


def _draw_divider(root: Canvas, layout: str, top: float) -> None:
    """The line between the clock's column and the table in the split layout."""
    if layout == "split":
        pygame.draw.line(root.surface, (40, 52, 72), root.point(SPLIT_CLOCK_W, top),
                         root.point(SPLIT_CLOCK_W, root.dh), max(1, root.px(3)))


def _layout_drawn(state: ScreenState) -> str:
    """The layout drawn for ``state``: its own, or what is left of it when the clock or
    the table is missing (``idle`` when both are)."""
    layout = state.layout
    if layout == "split" and (state.clock is None or state.table is None):
        layout = "clock" if state.clock is not None else "table"
    if layout == "clock" and state.clock is None:
        layout = "table"
    if layout == "table" and state.table is None:
        layout = "clock" if state.clock is not None else "idle"
    return layout


def _draw_overlays(root: Canvas, state: ScreenState, layout: str, top: float) -> None:
    """What is drawn over the layout, in this order: the wheel, the odds panel, the
    season, the venue banner, the pairing code, the ruling banner, the status strip."""
    if state.wheel is not None:
        draw_wheel(Canvas(root.surface, root.rect(0, top, root.dw, root.dh - top),
                          faces=root.faces), state.wheel, state.now)
    if state.odds is not None:  # over the table: beside the clock in the split layout
        draw_odds(root, state.odds, docked=layout == "split")
    season = season_of(state)
    if season is not None:
        draw_season(root, *season, state.clock)
    banner = venue_banner_of(state)
    if banner is not None:
        draw_venue_banner(root, banner)
    pairing = pairing_of(state)
    if pairing is not None:
        draw_pairing(root, *pairing)
    if state.ruling is not None:  # clear of the odds panel at the bottom when it is up
        draw_ruling(root, state.ruling, at_top=state.odds is not None)
    draw_status_strip(root, state)


def draw_screen(surface: pygame.Surface, state: ScreenState) -> None:
    """Draw one whole TV frame of ``state`` into ``surface`` (sized from the surface).

    Raises:
        ValueError: unknown ``state.layout``.
    """
    render_frame(surface, state)


def _static_clock(c: ClockView | None) -> ClockView | None:
    """The clock without its per-second fields: the two ticking texts (compared through
    :func:`_ticking_key`) and ``estimated_end_seconds``, which no screen draws."""
    if c is None:
        return None
    return replace(c, remaining_seconds=None, seconds_to_break=None,
                   estimated_end_seconds=None)


def _ticking_key(c: ClockView | None) -> tuple:
    if c is None:
        return ()
    return (clock_mod.time_text(c), clock_mod.break_text(c), clock_mod.time_colour(c))


def screen_key(state: ScreenState) -> tuple:
    """What decides whether a frame of ``state`` looks different: the state without ``now``
    and with the clock reduced to the texts it shows, plus the wheel's phase while it
    spins.  For :class:`pi_app.service.changes.ViewChanges`, so sub-second ticks cost nothing."""
    static = replace(state, now=0.0, clock=_static_clock(state.clock), extra={})
    phase = None
    if state.wheel is not None:
        angle, landed = wheel_angle(state.wheel, state.now)
        phase = None if landed else round(angle, 1)
    return (static, tuple(sorted(state.extra.items())), _ticking_key(state.clock), phase)


class ScreenRenderer:
    """Draws states into one surface, redrawing only what changed.

    ``render(surface, state)`` returns the list of real rectangles it changed: ``[]`` when
    the frame on screen is already right, the two time fields when only the clock ticked,
    the whole surface otherwise.  ``stats`` counts ``full``, ``partial`` and ``skipped``
    frames; ``last_faces`` lists the cards drawn face up in the frame on screen.
    """

    def __init__(self) -> None:
        self._last: ScreenState | None = None
        self._last_static: ScreenState | None = None
        self._last_tick: tuple = ()
        self._size: tuple[int, int] | None = None
        self._surface_id: int | None = None
        self._frame: Frame | None = None
        self._wheel_moving = False
        self.stats = {"full": 0, "partial": 0, "skipped": 0}

    @property
    def last_faces(self) -> list[Card]:
        return list(self._frame.faces) if self._frame else []

    def invalidate(self) -> None:
        """Force a full redraw next time (window exposed, surface replaced)."""
        self._last = None

    def __call__(self, surface: pygame.Surface, state: ScreenState) -> list[pygame.Rect]:
        """``draw(surface, state)`` for :class:`hardware.tv.TV`: :meth:`render`'s rects,
        the only ones the TV puts on the display."""
        return self.render(surface, state)

    def render(self, surface: pygame.Surface, state: ScreenState) -> list[pygame.Rect]:
        static = replace(state, now=0.0, clock=_static_clock(state.clock))
        tick = _ticking_key(state.clock)
        same_surface = (self._size == surface.get_size() and self._surface_id == id(surface))
        if self._last is not None and same_surface and not self._wheel_moving:
            rects = self._redraw(surface, state, static, tick)
            if rects is not None:
                self.stats["partial" if rects else "skipped"] += 1
                self._last, self._last_static, self._last_tick = state, static, tick
                return rects
        self._frame = render_frame(surface, state)
        self.stats["full"] += 1
        self._last, self._last_static, self._last_tick = state, static, tick
        self._size, self._surface_id = surface.get_size(), id(surface)
        self._wheel_moving = state.wheel is not None and not wheel_angle(state.wheel,
                                                                         state.now)[1]
        return [surface.get_rect()]

    def _redraw(self, surface: pygame.Surface, state: ScreenState, static: ScreenState,
                tick: tuple) -> list[pygame.Rect] | None:
        """Redraw in place what changed since the frame on screen: the time fields when the
        clock ticked, the table's regions that changed; the rects redrawn, or None when the
        whole frame must be drawn (anything else changed)."""
        fr = self._frame
        table_changed = static != self._last_static
        if fr is None or (table_changed and not self._only_table_changed(state, static)):
            return None
        rects: list[pygame.Rect] = []
        if tick != self._last_tick and fr.clock_canvas is not None:
            ticked = self._tick(surface, state, fr)
            if ticked is None:
                return None
            rects += ticked
        if table_changed:
            redrawn = self._redraw_table(surface, state, fr)
            if redrawn is None:
                return None
            rects += redrawn
        return rects

    def _only_table_changed(self, state: ScreenState, static: ScreenState) -> bool:
        """Whether the table's view is all that changed (besides the clock's time): the
        same layout, clock, room, overlays and status strip."""
        last = self._last
        return (self._frame is not None and self._frame.table is not None
                and last is not None and self._last_static is not None
                and state.table is not None and last.table is not None
                and replace(static, table=None) == replace(self._last_static, table=None)
                and status_messages(state) == status_messages(last))

    def _tick(self, surface: pygame.Surface, state: ScreenState,
              fr: Frame) -> list[pygame.Rect] | None:
        """The clock's time fields redrawn (the pairing panel put back over them), or None
        when an overlay lies over the clock (the whole frame is drawn then)."""
        if state.ruling is not None or state.wheel is not None or state.clock is None \
                or season_of(state) is not None or state.odds is not None \
                or fr.clock_canvas is None or fr.clock_layout is None:
            return None
        fr.clock_canvas.surface = surface
        rects = clock_mod.draw_ticking(fr.clock_canvas, fr.clock_layout, state.clock)
        pairing = pairing_of(state)
        if pairing is not None:  # the panel lies over the time: put it back on top
            rects.append(draw_pairing(Canvas(surface), *pairing))
        return rects

    def _redraw_table(self, surface: pygame.Surface, state: ScreenState,
                      fr: Frame) -> list[pygame.Rect] | None:
        """The table's regions that changed redrawn over the felt, with what lies over the
        table drawn again in those rects (:func:`pi_app.screens.regions.redraw_layer`);
        None when the table's geometry changed or a region lies beyond its area."""
        assert fr.table is not None and state.table is not None
        root = Canvas(surface)
        top = STRIP_H if has_strip(state) else 0
        layout = _layout_drawn(state)
        tcv, regions = table_regions(_table_area(root, layout, top), state.table,
                                     offline_display_seats(state), state.room)
        old = fr.table.canvas
        if (tcv.area, tcv.dw, tcv.dh, tcv.s) != (old.area, old.dw, old.dh, old.s):
            return None

        def over(_clip: pygame.Rect) -> None:
            _draw_divider(root, layout, top)
            _draw_overlays(root, state, layout, top)

        rects = redraw_layer(fr.table, regions, over)
        if rects is not None:
            fr.faces = fr.faces_around[0] + fr.table.faces + fr.faces_around[1]
        return rects
