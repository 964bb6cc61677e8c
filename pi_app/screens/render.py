"""Frame composition for the TV.

:func:`draw_screen` draws one whole frame of a :class:`engine.views.ScreenState` into any
pygame surface (1920x1080, 1280x720 or other sizes: everything scales from the surface
size).  ``state.layout`` picks ``"clock"``, ``"table"`` or ``"split"``, and the winner screen
(:mod:`pi_app.screens.winner`) replaces them once one player is left; the bonus wheel, the
ruling banner, the device status strip, the all-in odds (:mod:`pi_app.screens.odds`), the
table's notices (:mod:`pi_app.screens.toasts`), the season panel (:mod:`pi_app.screens.season`)
and the pairing panel (:mod:`pi_app.screens.pairing`) are drawn over any layout.

:func:`render_frame` says what it drew (:class:`Frame`), so that
:class:`pi_app.screens.renderer.ScreenRenderer` can redraw only what changed after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from engine.cards import Card
from engine.views import ScreenState
from pi_app.screens import clock as clock_mod
from pi_app.screens.odds import draw_odds
from pi_app.screens.overlays import (
    STRIP_H,
    draw_ruling,
    draw_status_strip,
    has_strip,
    offline_display_seats,
)
from pi_app.screens.pairing import draw_pairing, pairing_of
from pi_app.screens.regions import Layer
from pi_app.screens.season import draw_season, season_of
from pi_app.screens.table import draw_table
from pi_app.screens.theme import ACCENT, BG, MUTED, Canvas
from pi_app.screens.toasts import draw_toasts, zone_for
from pi_app.screens.venue_banner import draw_venue_banner, venue_banner_of
from pi_app.screens.wheel import draw_wheel
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
    odds_rect: pygame.Rect | None = None  #: where the odds panel was drawn


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
    layout = layout_drawn(state)
    offline = offline_display_seats(state)
    before = 0
    if state.room is not None and state.room.finished:
        cv = Canvas(surface, root.rect(0, top, root.dw, root.dh - top), faces=root.faces)
        c = state.clock
        draw_winner(cv, state.room, (c.structure_name or c.tournament_name) if c else "")
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
        frame.table = draw_table(table_area(root, layout, top), state.table, offline,
                                 state.room)
        draw_divider(root, layout, top)
    else:
        root.text("POKER TABLE", "bold", 96, ACCENT, (root.dw / 2, root.dh / 2 - 40), "center")
        root.text("waiting for the tournament", "bold", 40, MUTED,
                  (root.dw / 2, root.dh / 2 + 50), "center")
    after = len(root.faces)
    frame.odds_rect = draw_overlays(root, state, layout, top)
    if frame.table is not None:
        frame.faces_around = (root.faces[:before], root.faces[after:])
    return frame


def table_area(root: Canvas, layout: str, top: float) -> Canvas:
    """The canvas of the table's area: the whole screen under the status strip, or in the
    split layout the part right of the clock's column."""
    h = root.dh - top
    if layout == "split":
        tw = root.dw - SPLIT_CLOCK_W
        return Canvas(root.surface, root.rect(SPLIT_CLOCK_W, top, tw, h), (tw, 1080),
                      faces=root.faces)
    return Canvas(root.surface, root.rect(0, top, root.dw, h), faces=root.faces)


def draw_divider(root: Canvas, layout: str, top: float) -> None:
    """The line between the clock's column and the table in the split layout."""
    if layout == "split":
        pygame.draw.line(root.surface, (40, 52, 72), root.point(SPLIT_CLOCK_W, top),
                         root.point(SPLIT_CLOCK_W, root.dh), max(1, root.px(3)))


def layout_drawn(state: ScreenState) -> str:
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


def draw_overlays(root: Canvas, state: ScreenState, layout: str,
                  top: float) -> pygame.Rect | None:
    """What is drawn over the layout, in this order: the wheel, the odds panel, the
    season, the venue banner, the pairing code, the table's notices
    (:mod:`pi_app.screens.toasts`), the ruling banner, the status strip.
    Returns the odds panel's real rect (None without one)."""
    if state.wheel is not None:
        draw_wheel(Canvas(root.surface, root.rect(0, top, root.dw, root.dh - top),
                          faces=root.faces), state.wheel, state.now)
    odds = None
    if state.odds is not None:  # over the table: beside the clock in the split layout
        odds = draw_odds(root, state.odds, docked=layout == "split")
    season = season_of(state)
    if season is not None:
        draw_season(root, *season, state.clock)
    banner = venue_banner_of(state)
    if banner is not None:
        draw_venue_banner(root, banner)
    pairing = pairing_of(state)
    if pairing is not None:
        draw_pairing(root, *pairing)
    if state.notices:
        finished = state.room is not None and state.room.finished
        draw_toasts(root, state.notices, zone_for("winner" if finished else layout, top,
                                                  banner))
    if state.ruling is not None:  # clear of the odds panel at the bottom when it is up
        draw_ruling(root, state.ruling, at_top=state.odds is not None)
    draw_status_strip(root, state)
    return odds


def draw_screen(surface: pygame.Surface, state: ScreenState) -> None:
    """Draw one whole TV frame of ``state`` into ``surface`` (sized from the surface).

    Raises:
        ValueError: unknown ``state.layout``.
    """
    render_frame(surface, state)
