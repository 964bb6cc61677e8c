"""The venue banner on the TV of a table in a venue: what the director has the table do.

A table of a venue (docs/venue.md, section 6) deals only on the director's ``go``; its TV
says so between hands ("Waiting for the director"), and says "Final table" once the
director has drawn the final table at it (the issue's "Its TV says so").  The service
puts the words into :attr:`engine.views.ScreenState.extra` under :data:`VENUE_KEY` with
:func:`with_venue_banner` (:class:`pi_app.venue.table_node.TableNode` decides them); the
renderer draws them as a band across the bottom of any layout, under the pairing panel
and the ruling banner.

>>> from engine.views import ScreenState
>>> venue_banner_of(with_venue_banner(ScreenState(), "Final table"))
'Final table'
>>> venue_banner_of(with_venue_banner(ScreenState(extra={VENUE_KEY: "x"}), None)) is None
True
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from engine.views import ScreenState
from pi_app.screens.theme import ACCENT, PANEL, TEXT, Canvas

VENUE_KEY = "venue_banner"  #: ``ScreenState.extra`` key: the banner's words
#: the band in design pixels (1920x1080): x, y, width, height; bottom centre of the TV
BAND_RECT = (460, 960, 1000, 96)


def with_venue_banner(state: ScreenState, words: str | None) -> ScreenState:
    """``state`` with the venue banner saying ``words`` (None or empty: no banner)."""
    extra = {k: v for k, v in state.extra.items() if k != VENUE_KEY}
    if words:
        extra[VENUE_KEY] = words
    return replace(state, extra=extra)


def venue_banner_of(state: ScreenState) -> str | None:
    """The venue banner's words, or None when there is none."""
    return state.extra.get(VENUE_KEY) or None


def draw_venue_banner(root: Canvas, words: str) -> pygame.Rect:
    """The band with ``words`` across the bottom centre; returns its real rect."""
    x, y, w, h = BAND_RECT
    r = root.rect(x, y, w, h)
    pygame.draw.rect(root.surface, PANEL, r, border_radius=root.px(18))
    pygame.draw.rect(root.surface, ACCENT, r, width=root.px(4), border_radius=root.px(18))
    root.text(words, "bold", 52, TEXT, (x + w / 2, y + h / 2), "center", max_width=w - 60)
    return r
