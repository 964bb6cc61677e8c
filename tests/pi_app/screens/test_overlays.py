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


MISDEAL = replace(
    RULING, code="misdeal", profile="gunpowder", words="Misdeal: the shoe dealt out of turn",
    instruction="When the floor confirms, every chip put in is returned. Reshuffle, reload the "
                "shoe and deal again: same button, same players, same limits (TDA 35-C).")


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
@pytest.mark.parametrize("at_top", [False, True])
@pytest.mark.parametrize("ruling", [RULING, MISDEAL], ids=("short", "long"))
def test_the_instruction_is_whole_in_one_size_and_the_footer_in_words(size, at_top, ruling):
    """(Issue: the misdeal's instruction ended "same limits (TDA 35…", its second line
    smaller than its first; the footer said "code misdeal • rules gunpowder".)"""
    cv = Canvas(pygame.Surface(size))
    with record_texts() as drawn:
        banner = draw_ruling(cv, ruling, at_top=at_top)
    dealer = next(t for t in drawn if t.text == "DEALER:")
    footer = drawn[-1]
    lines = [t for t in drawn if t.rect.top >= dealer.rect.top - cv.px(12) and t is not dealer
             and t is not footer]
    assert " ".join(t.text for t in lines) == ruling.instruction
    assert not any(t.cut for t in lines)
    assert len({t.rect.h for t in lines}) == 1  # one font size
    assert all(banner.contains(t.rect) for t in drawn)
    assert footer.rect.top >= lines[-1].rect.bottom
    assert "_" not in footer.text and "code " not in footer.text
    assert footer.text.startswith(f"Ruling on {ruling.code}, ")
    assert footer.text.endswith("house rules" if ruling is MISDEAL else "TDA 2024 rules")
