"""Text drawn from glyphs blended once over a solid colour (pi_app.screens.theme): the same
pixels as the alpha glyphs drawn over that colour, clipped to the box, and a surface
under a narrower clip keeps it."""

from __future__ import annotations

import pygame
import pytest

from pi_app.screens.theme import BG, PANEL, TEXT, Canvas, fill_columns


def _drawn(box: bool, text: str, colour, bg, rect: pygame.Rect,
           clip: pygame.Rect | None = None) -> bytes:
    surf = pygame.Surface((640, 240))
    surf.fill((90, 30, 60))  # not the box's colour: anything drawn outside it shows
    surf.set_clip(clip)
    cv = Canvas(surf, design=(640, 240))
    if box:
        cv.glyphs_px(text, "bold", 120, colour, rect.center, "center", max_width=rect.w,
                     box=(bg, rect))
    else:
        surf.fill(bg, rect)
        cv.glyphs_px(text, "bold", 120, colour, rect.center, "center", max_width=rect.w)
    surf.set_clip(None)
    return pygame.image.tobytes(surf, "RGB")


@pytest.mark.parametrize(("text", "colour", "bg"), [
    ("59:59", (250, 250, 250), BG), ("0:07", (230, 60, 60), BG), ("1:02:03", TEXT, PANEL),
    ("12:00", (250, 160, 40), (0, 0, 0))])
def test_glyphs_blended_over_the_box_colour_draw_the_same_pixels(text, colour, bg):
    rect = pygame.Rect(40, 50, 520, 130)  # lower than the glyphs: they are clipped to it
    assert _drawn(True, text, colour, bg, rect) == _drawn(False, text, colour, bg, rect)
    narrow = pygame.Rect(0, 0, 300, 240)
    assert _drawn(True, text, colour, bg, rect, narrow) \
        == _drawn(False, text, colour, bg, rect, narrow)


def test_a_text_too_wide_for_its_box_shrinks_as_the_alpha_glyphs_do():
    rect = pygame.Rect(40, 50, 200, 130)
    assert _drawn(True, "1:02:03", TEXT, PANEL, rect) == _drawn(False, "1:02:03", TEXT, PANEL,
                                                               rect)


def test_a_fill_in_columns_gives_the_pixels_of_one_fill():
    for x, w in ((0, 40), (3, 40), (17, 5), (17, 60), (31, 1), (32, 33)):
        for clip in (None, pygame.Rect(20, 2, 30, 9)):
            one, two = pygame.Surface((100, 20)), pygame.Surface((100, 20))
            for surf in (one, two):
                surf.fill((9, 8, 7))
                surf.set_clip(clip)
            r = pygame.Rect(x, 3, w, 11)
            one.fill((200, 100, 50), r)
            fill_columns(two, (200, 100, 50), r)
            assert pygame.image.tobytes(one, "RGB") == pygame.image.tobytes(two, "RGB"), (x, w)
