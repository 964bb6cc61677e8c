"""The renderer's caches are bounded by bytes, and a clock tick redraws only the digits."""

from dataclasses import replace

import pygame
import pytest

from engine.views import ScreenState
from pi_app.screens import ScreenRenderer, draw_screen, screen_key, theme
from pi_app.screens.cache import ByteLRU
from pi_app.screens.samples import CLOCK, table_preflop


def test_byte_lru_evicts_least_recently_used_past_its_budget():
    c = ByteLRU(100, size_of=len)
    c.get("a", lambda: b"a" * 40)
    c.get("b", lambda: b"b" * 40)
    c.get("a", lambda: pytest.fail("a is cached"))  # "a" is now the most recent
    c.get("c", lambda: b"c" * 40)                    # evicts "b", not "a"
    assert c.bytes == 80 and len(c) == 2
    made = []
    c.get("b", lambda: made.append(1) or b"b" * 40)
    assert made == [1]
    # a value larger than the whole budget is handed back, never kept
    assert c.get("huge", lambda: b"h" * 101) == b"h" * 101
    assert c.bytes <= 100 and "huge" not in c._items
    c.resize(40)
    assert c.bytes <= 40 and len(c) == 1
    with pytest.raises(ValueError):
        ByteLRU(-1, size_of=len)


def test_text_cache_stays_within_its_byte_budget_over_many_distinct_texts(monkeypatch):
    budget = 3 * 1024 * 1024
    monkeypatch.setattr(theme, "TEXTS", ByteLRU(budget, theme.surface_bytes))
    for i in range(300):  # each is ~150 KB: 45 MB if nothing were evicted
        theme.text_surface("bold", 120, f"{i:05d} chips", (255, 255, 255))
        assert theme.TEXTS.bytes <= budget
    assert 0 < len(theme.TEXTS) < 300


def _night_states(n: int, layout: str):
    table = table_preflop() if layout == "split" else None
    for k in range(n):
        left = 1200.0 - k
        yield ScreenState(clock=replace(CLOCK, remaining_seconds=left, seconds_to_break=left + 900,
                                        estimated_end_seconds=9000.0 - k),
                          table=table, layout=layout, now=float(k))


@pytest.mark.parametrize("layout", ["clock", "split"])
def test_countdown_is_drawn_from_glyphs_and_caches_nothing_per_second(monkeypatch, layout):
    monkeypatch.setattr(theme, "TEXTS", ByteLRU(64 * 1024 * 1024, theme.surface_bytes))
    monkeypatch.setattr(theme, "GLYPHS", ByteLRU(64 * 1024 * 1024, theme.surface_bytes))
    surf = pygame.Surface((1920, 1080))
    r = ScreenRenderer()
    states = list(_night_states(120, layout))
    for st in states[:10]:
        r.render(surf, st)
    texts, glyphs = len(theme.TEXTS), len(theme.GLYPHS)
    for st in states[10:]:
        r.render(surf, st)
    # 110 new clock values: no new cached text and no new glyph (digits are reused)
    assert (len(theme.TEXTS), len(theme.GLYPHS)) == (texts, glyphs)
    # every tick was a partial redraw of the digits: estimated_end_seconds is not drawn
    assert r.stats["full"] == 1 and r.stats["partial"] == len(states) - 1
    ref = pygame.Surface((1920, 1080))
    draw_screen(ref, states[-1])
    assert pygame.image.tobytes(ref, "RGB") == pygame.image.tobytes(surf, "RGB")


def test_screen_key_ignores_the_estimated_end_that_no_screen_draws():
    st = ScreenState(clock=replace(CLOCK, estimated_end_seconds=100.0), layout="clock")
    assert screen_key(st) == screen_key(replace(st, clock=replace(st.clock,
                                                                  estimated_end_seconds=99.0)))
