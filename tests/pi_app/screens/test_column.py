"""The split layout's clock column (pi_app.screens.column): beside the table it shows what
the full clock's room column shows and the table cannot (the payouts by place, tonight's
league points, the players out with their places), every text legible at 1080p and 720p,
inside the column, and the ticking time to the next break redrawn in place."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from engine.views import PlaceLine, ScreenState
from pi_app.screens import ScreenRenderer, render_frame
from pi_app.screens.column import out_lines, place_lines
from pi_app.screens.render import SPLIT_CLOCK_W
from pi_app.screens.samples import CLOCK, ROOM, table_preflop
from pi_app.screens.theme import record_texts

SIZES = ((1920, 1080), (1280, 720))


def _split(room=ROOM, clock=CLOCK) -> ScreenState:
    return ScreenState(clock=clock, table=table_preflop(), layout="split", room=room)


def _column_texts(state: ScreenState, size: tuple[int, int]):
    surf = pygame.Surface(size)
    with record_texts() as drawn:
        render_frame(surf, state)
    right = SPLIT_CLOCK_W * size[1] / 1080
    return [t for t in drawn if t.rect.right <= right]


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
def test_the_column_shows_payouts_points_and_the_players_out_legibly(size):
    drawn = _column_texts(_split(), size)
    texts = [t.text for t in drawn]
    for want in ("PRIZE POOL $400", "POINTS", "1st", "$260", "63.25", "2nd", "$140", "44.72",
                 "3rd", "36.51", "OUT", "8th", "Hiroshi", "9th", "Ines", "LATE ENTRY",
                 "5,400", "PLAYERS", "6 / 8", "NEXT BREAK"):
        assert want in texts, (want, texts)
    small = [(t.text, t.rect.h) for t in drawn if t.rect.h < 0.035 * size[1]]
    assert not small
    assert max(t.rect.bottom for t in drawn) <= size[1]


def test_place_rows_join_payouts_and_points_and_the_latest_out_comes_first():
    rows = place_lines(CLOCK, ROOM)
    assert [(r.left, r.middle, r.right) for r in rows] == [
        ("PRIZE POOL $400", "", "POINTS"), ("1st", "$260", "63.25"), ("2nd", "$140", "44.72"),
        ("3rd", "", "36.51")]
    outs = out_lines(replace(ROOM, eliminated=(PlaceLine(9, "Ines"), PlaceLine(7, "Zoe"))))
    assert [(r.left, r.right) for r in outs] == [("OUT", ""), ("7th", "Zoe"), ("9th", "Ines")]
    assert out_lines(replace(ROOM, eliminated=())) == [] and out_lines(None) == []


def test_more_notices_leave_fewer_rows_and_the_column_never_overflows():
    many = replace(CLOCK, notices=("Late registration open", "Blinds up next hand",
                                   "Color-up: 100 chips removed this level"))
    room = replace(ROOM, eliminated=tuple(PlaceLine(p, f"Player {p}") for p in range(4, 11)))
    few = [t.text for t in _column_texts(_split(room), (1920, 1080))]
    crowded = _column_texts(_split(room, many), (1920, 1080))
    # the notices are drawn whole (a long one wrapped over two lines): the players out get
    # what they leave, here none at all
    assert sum(t.startswith("Player") for t in few) > \
        sum(t.text.startswith("Player") for t in crowded)
    assert not [t.text for t in crowded if t.cut]
    assert max(t.rect.bottom for t in crowded) <= 1080
    assert "63.25" in [t.text for t in crowded]  # the places come before the players out


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
def test_a_tick_redraws_the_time_to_the_break_in_place(size):
    r = ScreenRenderer()
    surf = pygame.Surface(size)
    first = _split()
    r.render(surf, first)
    later = replace(first, clock=replace(CLOCK, remaining_seconds=800.0,
                                         seconds_to_break=2600.0))
    rects = r.render(surf, later)
    assert r.stats["partial"] == 1 and len(rects) == 2
    ref = pygame.Surface(size)
    render_frame(ref, later)
    assert pygame.image.tobytes(ref, "RGB") == pygame.image.tobytes(surf, "RGB")


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
@pytest.mark.parametrize("out", [1, 2, 3, 6, 8])
def test_a_cut_list_of_players_out_says_how_many_more(size, out):
    """Each player out is on the column by name or counted in "+N more" beside OUT.
    (Issue: the ten-seat TV showed 2 of 6 players out with no mark.)"""
    room = replace(ROOM, eliminated=tuple(PlaceLine(p, f"Gone {p}")
                                          for p in range(10, 10 - out, -1)))
    many = replace(CLOCK, notices=("Late registration open", "Blinds up next hand"))
    texts = [t.text for t in _column_texts(_split(room, many), size)]
    shown = sum(1 for p in range(10, 10 - out, -1) if f"Gone {p}" in texts)
    more = [t for t in texts if t.startswith("+") and t.endswith(" more")]
    assert "OUT" in texts
    if shown == out:
        assert not more
    else:
        assert more == [f"+{out - shown} more"], (texts, shown)
