"""The ruling banner (pi_app.screens.overlays): across the lower part of the screen, or, while
the all-in odds panel holds the bottom, across the upper part clear of the board and of
the panel; the rest of the screen darkened under it."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from pi_app.screens import render_frame
from pi_app.screens.odds import draw_odds
from pi_app.screens.overlays import draw_ruling
from pi_app.screens.samples import RULING, busiest_state, odds_all_in
from pi_app.screens.theme import Canvas, record_texts


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_banner_goes_up_while_the_odds_hold_the_bottom(size):
    surf = pygame.Surface(size)
    cv = Canvas(surf)
    low = draw_ruling(cv, RULING)
    odds = draw_odds(cv, odds_all_in())
    high = draw_ruling(cv, RULING, at_top=True)
    assert low.colliderect(odds) and not high.colliderect(odds)
    assert high.bottom <= cv.point(0, 1080 / 2 - 92)[1]  # above the board (table.py)


def test_both_are_drawn_and_read_on_the_busiest_screen():
    surf = pygame.Surface((1920, 1080))
    with record_texts() as drawn:
        render_frame(surf, busiest_state())
    rects = {t.text: t.rect for t in drawn}
    assert rects["ALL IN \u2022 TURN"].top > rects["RULING"].bottom
    assert "16.7%" in rects and RULING.words in rects


def test_the_screen_under_the_banner_is_darkened_but_the_banner_is_not():
    state = busiest_state()
    plain, ruled = pygame.Surface((1920, 1080)), pygame.Surface((1920, 1080))
    render_frame(plain, replace(state, ruling=None))
    render_frame(ruled, state)
    probe = (960, 440)  # the pots' line between the banner and the board, on the felt
    assert sum(ruled.get_at(probe)[:3]) < sum(plain.get_at(probe)[:3])
