"""The TV's renderer: it redraws only what changed since the frame on screen.

:class:`ScreenRenderer` keeps what the last whole frame drew
(:class:`pi_app.screens.render.Frame`) and redraws as little as possible:

* nothing when nothing visible changed (``now`` alone moving, the clock moving inside the
  same second, or the clock's time while no clock is on screen);
* the two time fields when the clock ticked, and what lies over them (the overlays) drawn
  again, clipped to them;
* in the table and split layouts, when only the table, the clock's other figures, the room
  or the odds panel changed: the table's regions that changed
  (:mod:`pi_app.screens.regions`: the felt, the regions and the overlays again in their old
  and new rectangles), the split layout's clock column whole when its clock or room
  changed (the room as the column draws it: not the stacks), the odds panel's old and
  new rectangles, and the table's notices when they come or go (their zone over the
  table, the column in the split layout; :mod:`pi_app.screens.toasts`);
* the whole frame otherwise: a new layout, the status strip changing, a ruling, season,
  banner, pairing or wheel coming, going or changing, the wheel while it spins, a new
  surface, :meth:`ScreenRenderer.invalidate`.

A partial frame is pixel-identical to a whole redraw of the same state
(tests/pi_app/screens/test_partial_redraw.py plays real hands through both).  Wiring into
``hardware.tv``, which puts only the rectangles returned on the display::

    TV(draw=ScreenRenderer(), ...)   # a renderer is a draw callable; the loop hands it
                                     # the states whose screen_key changed (ViewChanges)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pygame

from engine.cards import Card
from engine.views import ClockView, ScreenState
from pi_app.screens import clock as clock_mod
from pi_app.screens.column import drawn_room
from pi_app.screens.overlays import STRIP_H, has_strip, offline_display_seats, status_messages
from pi_app.screens.regions import NOWHERE, redraw_layer
from pi_app.screens.render import (
    SPLIT_CLOCK_W,
    Frame,
    draw_divider,
    draw_overlays,
    layout_drawn,
    render_frame,
    table_area,
)
from pi_app.screens.season import season_of
from pi_app.screens.table import table_regions
from pi_app.screens.theme import BG, Canvas
from pi_app.screens.toasts import zone_for
from pi_app.screens.venue_banner import venue_banner_of
from pi_app.screens.wheel import wheel_angle

Over = Callable[[pygame.Rect], None]


def _static_clock(c: ClockView | None) -> ClockView | None:
    """The clock without its per-second fields: the two ticking texts (compared through
    :func:`_ticking_key`) and ``estimated_end_seconds``, which no screen draws.  It keeps
    whether the level is timed (``remaining_seconds`` None or 0.0), which the PAUSED badge
    reads (:func:`pi_app.screens.clock.is_paused`): the badge is drawn with the clock's
    static parts, so a change of what it reads must redraw them, not the time alone."""
    if c is None:
        return None
    return replace(c, remaining_seconds=None if c.remaining_seconds is None else 0.0,
                   seconds_to_break=None, estimated_end_seconds=None)


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


def _fixed(static: ScreenState) -> ScreenState:
    """What a partial redraw of the table needs unchanged: the state without the table,
    the clock's figures, the room, the odds and the notices."""
    return replace(static, table=None, clock=None, room=None, odds=None, notices=())


class ScreenRenderer:
    """Draws states into one surface, redrawing only what changed (see the module
    docstring).

    ``render(surface, state)`` returns the list of real rectangles it changed: ``[]`` when
    the frame on screen is already right, the whole surface after a whole redraw.
    ``stats`` counts ``full``, ``partial`` and ``skipped`` frames; ``last_faces`` lists the
    cards drawn face up in the frame on screen.
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
        """Redraw in place what changed since the frame on screen; the rects redrawn, or
        None when the whole frame must be drawn."""
        fr, last = self._frame, self._last_static
        if fr is None or last is None:
            return None
        root = Canvas(surface)
        top = STRIP_H if has_strip(state) else 0
        layout = layout_drawn(state)

        def over(clip: pygame.Rect) -> None:  # what lies over the layout, clipped
            draw_divider(root, layout, top)
            draw_overlays(root, state, layout, top)

        rects: list[pygame.Rect] = []
        if static == last:
            if tick != self._last_tick and fr.clock_canvas is not None:
                rects = _tick(surface, state, fr, over)
            return rects
        if not self._only_table_changed(state, static, fr, last):
            return None
        toasts: tuple[pygame.Rect, ...] = ()
        notices_moved = static.notices != last.notices
        if notices_moved:
            if venue_banner_of(state) is not None or layout not in ("table", "split"):
                return None
            if layout == "table":  # the zone the notices are drawn in, old and new
                zone = zone_for(layout, top, None)
                toasts = (root.rect(zone.x, zone.edge, zone.w, zone.h).inflate(4, 4)
                          .clip(surface.get_rect()),)
            elif fr.clock_canvas is None:
                return None
        if (static.clock != last.clock or drawn_room(static.room) != drawn_room(last.room)
                or (notices_moved and layout == "split")):
            if fr.clock_canvas is not None:  # the split layout's column
                rects.append(_redraw_column(root, state, top, fr, over))
        elif tick != self._last_tick and fr.clock_canvas is not None:
            rects += _tick(surface, state, fr, over)
        table = _redraw_table(root, state, (layout, top), fr, over, static.odds != last.odds,
                              toasts)
        return None if table is None else rects + table

    def _only_table_changed(self, state: ScreenState, static: ScreenState, fr: Frame,
                            last: ScreenState) -> bool:
        """Whether a partial redraw can show ``state``: the table, the clock's figures, the
        room and the odds are all that changed, a table is on screen, and nothing drawn
        over it depends on what changed."""
        before = self._last
        return (fr.table is not None and state.table is not None
                and before is not None and before.table is not None
                and _fixed(static) == _fixed(last)
                and (static.clock is None) == (last.clock is None)
                and not (state.room is not None and state.room.finished)
                and status_messages(state) == status_messages(before)
                and (season_of(state) is None or static.clock == last.clock)
                and (state.ruling is None or static.odds == last.odds))


def _tick(surface: pygame.Surface, state: ScreenState, fr: Frame,
          over: Over) -> list[pygame.Rect]:
    """The clock's time fields redrawn, with what lies over them drawn again (clipped)."""
    assert fr.clock_canvas is not None and fr.clock_layout is not None
    assert state.clock is not None
    fr.clock_canvas.surface = surface
    rects = clock_mod.draw_ticking(fr.clock_canvas, fr.clock_layout, state.clock)
    _clipped(surface, rects, over)
    return rects


def _clipped(surface: pygame.Surface, rects: list[pygame.Rect], draw: Over) -> None:
    """``draw(rect)`` under the clip ``rect``, for each of ``rects``."""
    saved = surface.get_clip()
    try:
        for r in rects:
            surface.set_clip(r)
            draw(r)
    finally:
        surface.set_clip(saved)


def _redraw_column(root: Canvas, state: ScreenState, top: float, fr: Frame,
                   over: Over) -> pygame.Rect:
    """The split layout's clock column redrawn whole (its figures or the room changed);
    its real rect."""
    clock = state.clock
    assert clock is not None
    area = root.rect(0, top, SPLIT_CLOCK_W, root.dh - top)
    ccv = Canvas(root.surface, area, (SPLIT_CLOCK_W, 1080), faces=[])

    def column(clip: pygame.Rect) -> None:
        root.surface.fill(BG, clip)
        clock_mod.draw_clock(ccv, clock, clock_mod.COLUMN, state.room)
        over(clip)

    _clipped(root.surface, [area], column)
    fr.clock_canvas = ccv
    return area


def _redraw_table(root: Canvas, state: ScreenState, where: tuple[str, float], fr: Frame,
                  over: Over, odds_changed: bool,
                  toasts: tuple[pygame.Rect, ...] = ()) -> list[pygame.Rect] | None:
    """The table's regions that changed redrawn over the felt, with what lies over the
    table drawn again in those rects (:func:`pi_app.screens.regions.redraw_layer`), and
    the odds panel's old and new rects when it changed, and ``toasts`` (the notices'
    zone when they came or went); None when the table's geometry changed or something
    changed beyond its area.  ``where``: the layout drawn and the
    top of its area (design px)."""
    assert fr.table is not None and state.table is not None
    layout, top = where
    tcv, regions = table_regions(table_area(root, layout, top), state.table,
                                 offline_display_seats(state), state.room)
    old = fr.table.canvas
    if (tcv.area, tcv.dw, tcv.dh, tcv.s) != (old.area, old.dw, old.dh, old.s):
        return None
    extra: tuple[pygame.Rect, ...] = toasts
    faces_after = fr.faces_around[1]
    if odds_changed:
        measured = Canvas(root.surface)
        saved = root.surface.get_clip()
        root.surface.set_clip(NOWHERE)  # measured: nothing drawn yet
        try:
            new_odds = draw_overlays(measured, state, layout, top)
        finally:
            root.surface.set_clip(saved)
        extra += tuple(r.clip(root.surface.get_rect()) for r in (fr.odds_rect, new_odds)
                       if r is not None)
        faces_after, fr.odds_rect = measured.faces, new_odds
    rects = redraw_layer(fr.table, regions, over, extra)
    if rects is not None:
        fr.faces_around = (fr.faces_around[0], faces_after)
        fr.faces = fr.faces_around[0] + fr.table.faces + faces_after
    return rects
