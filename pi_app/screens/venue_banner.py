"""The venue banner on the TV of a table in a venue: what the director has the table do.

A table of a venue (docs/venue.md, section 6) deals only on the director's ``go``; its TV
says so between hands ("Waiting for the director"), says "Final table" once the
director has drawn the final table at it (the issue's "Its TV says so"), and announces
the moves that touch the table the moment the director decides them ("P05 moves to
table 2 after this hand", "P05 joins from table 1"), one line each.  The service
puts the words into :attr:`engine.views.ScreenState.extra` under :data:`VENUE_KEY` with
:func:`with_venue_banner` (:class:`pi_app.venue.table_node.TableNode` decides them); the
renderer draws them as a band across the bottom of any layout, under the pairing panel
and the ruling banner; a band of several lines (the words' newlines) grows upwards, at
most :data:`MAX_LINES` of them (the last says how many more there are).

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
LINE_HEIGHT = 64   #: design pixels of each line after the first
MAX_LINES = 6      #: lines drawn; the band stays clear of the table's middle


def with_venue_banner(state: ScreenState, words: str | None) -> ScreenState:
    """``state`` with the venue banner saying ``words`` (None or empty: no banner)."""
    extra = {k: v for k, v in state.extra.items() if k != VENUE_KEY}
    if words:
        extra[VENUE_KEY] = words
    return replace(state, extra=extra)


def venue_banner_of(state: ScreenState) -> str | None:
    """The venue banner's words, or None when there is none."""
    return state.extra.get(VENUE_KEY) or None


def banner_lines(words: str) -> list[str]:
    """The lines the band shows for ``words``: one per newline, at most :data:`MAX_LINES`
    (the last then says how many more there are).

    >>> banner_lines("a\\nb")
    ['a', 'b']
    >>> banner_lines("\\n".join("abcdefgh"))[-1]
    '... and 3 more'
    """
    lines = [line for line in words.split("\n") if line.strip()]
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES - 1] + [f"... and {len(lines) - MAX_LINES + 1} more"]
    return lines


def draw_venue_banner(root: Canvas, words: str) -> pygame.Rect:
    """The band with ``words`` (one line per newline) across the bottom centre, growing
    upwards by :data:`LINE_HEIGHT` per extra line; returns its real rect."""
    lines = banner_lines(words) or [words]
    x, y, w, h = BAND_RECT
    extra = LINE_HEIGHT * (len(lines) - 1)
    r = root.rect(x, y - extra, w, h + extra)
    pygame.draw.rect(root.surface, PANEL, r, border_radius=root.px(18))
    pygame.draw.rect(root.surface, ACCENT, r, width=root.px(4), border_radius=root.px(18))
    first = y - extra + h / 2
    for i, line in enumerate(lines):
        root.text(line, "bold" if i == 0 else "sans", 52 if i == 0 else 44, TEXT,
                  (x + w / 2, first + i * LINE_HEIGHT), "center", max_width=w - 60)
    return r
