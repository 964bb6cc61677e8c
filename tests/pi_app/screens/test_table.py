"""The table screen (pi_app.screens.table): what lies around the seats keeps clear of the
rest: a lower seat's markers clear its badge, a bet on a narrow table clears the board."""

from __future__ import annotations

import pygame

from pi_app.screens.render import SPLIT_CLOCK_W
from pi_app.screens.samples import ROOM, table_showdown, table_side_pots
from pi_app.screens.table import _board_rect, draw_table
from pi_app.screens.theme import Canvas, record_texts


def _texts(view, size, design, room=None):
    surf = pygame.Surface(size)
    cv = Canvas(surf, design=design)
    with record_texts() as drawn:
        draw_table(cv, view, room=room)
    return {t.text: t.rect for t in drawn}


def test_a_lower_seats_markers_clear_its_badge():
    for size in ((1920, 1080), (1280, 720)):
        rects = _texts(table_showdown(), size, (1920, 1080), ROOM)
        assert not rects["BB"].colliderect(rects["CHIP LEADER"])  # Eve, seat 5


def test_a_bet_on_a_narrow_table_goes_under_the_board():
    """The split layout's table at 720p: Bob's bet beside the board would hide the river."""
    size, design = (1280 * (1920 - SPLIT_CLOCK_W) // 1920, 720), (1920 - SPLIT_CLOCK_W, 1080)
    rects = _texts(table_side_pots(), size, design)
    k = 0.86  # a narrow table is drawn at a smaller scale (draw_table)
    cv = Canvas(pygame.Surface(size), design=(design[0] / k, design[1] / k))
    x0, top, cw, ch, gap = _board_rect(cv, cv.dh / 2 - 92)
    board = cv.rect(x0, top, 5 * cw + 4 * gap, ch)
    bet = rects["1,600"]
    assert not bet.colliderect(board) and bet.top >= board.bottom
