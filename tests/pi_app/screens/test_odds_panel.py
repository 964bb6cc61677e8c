"""The TV's all-in odds panel: drawn only from ``ScreenState.odds`` (which the engine sets
only once no player can act), every text legible at 1080p and 720p, the faces it draws are
the tabled all-in hands, percentages rounded from the exact fractions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pygame
import pytest

from engine.betting.equity import all_in_odds
from engine.cards import parse_cards
from engine.views import OddsHand, OddsPot, OddsView, ScreenState
from pi_app.screens import ScreenRenderer, render_frame
from pi_app.screens.odds import MAX_HANDS, draw_odds, percent
from pi_app.screens.samples import CLOCK, table_side_pots
from pi_app.screens.theme import Canvas, record_texts

HOLES = [parse_cards(h) for h in ("AhKh", "QsQd", "7c7d")]
SEATS = (1, 2, 3)


def view() -> OddsView:
    odds = all_in_odds(HOLES, parse_cards("2c7s9h"), pots=[[0, 1, 2], [1, 2]])
    hands = tuple(OddsHand(s, f"P{s}", tuple(h), odds.main.win[i], odds.main.tie[i])
                  for i, (s, h) in enumerate(zip(SEATS, HOLES, strict=True)))
    pots = tuple(OddsPot("Main pot" if k == 0 else f"Side pot {k}", 1_000,
                         tuple(SEATS[i] for i in p.eligible), p.win, p.tie)
                 for k, p in enumerate(odds.pots))
    return OddsView("flop", hands, pots, odds.exact)


def test_percent_rounds_the_exact_fraction_half_up():
    assert percent(Fraction(3, 8)) == "37.5%"
    assert percent(Fraction(1, 3)) == "33.3%" and percent(Fraction(2, 3)) == "66.7%"
    assert percent(Fraction(1)) == "100.0%" and percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(1, 2000)) == "0.1%" and percent(Fraction(1, 2001)) == "0.0%"



@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_every_text_is_legible_and_the_faces_are_the_tabled_hands(size):
    surf = pygame.Surface(size)
    cv = Canvas(surf)
    with record_texts() as drawn:
        panel = draw_odds(cv, view())
    boxes = [t.rect for t in drawn]
    assert len(boxes) == 3 + 3 * 3 + 1 + 1  # header, hands, one side pot, footer
    assert min(b.height for b in boxes) >= 0.035 * size[1]
    assert all(panel.contains(b) for b in boxes)
    assert cv.faces == [c for h in HOLES for c in h]


def test_the_renderer_draws_the_panel_only_with_odds():
    surf = pygame.Surface((1920, 1080))
    state = ScreenState(clock=CLOCK, table=table_side_pots(), layout="split")
    plain = render_frame(surf, state)
    public = set(state.table.board) | {c for s in state.table.seats for c in s.shown_cards}
    assert set(plain.faces) <= public
    shown = render_frame(surf, replace(state, odds=view()))
    tabled = {c for h in HOLES for c in h}
    assert set(shown.faces) <= public | tabled and tabled <= set(shown.faces)


def test_the_pending_panel_shows_the_hands_and_no_figure():
    full = view()
    pending = replace(full, pots=(), exact=False, pending=True, hands=tuple(
        replace(h, win=Fraction(0), tie=Fraction(0)) for h in full.hands))
    cv = Canvas(pygame.Surface((1920, 1080)))
    with record_texts() as drawn:
        draw_odds(cv, pending)
    texts = [t.text for t in drawn]
    assert "odds: working out" in texts and not any("%" in t for t in texts)
    assert "WIN" not in texts and len(texts) == 1 + 3 + 1  # header, names, footer
    assert cv.faces == [c for h in HOLES for c in h]  # the same cards as the full panel


def test_many_hands_are_cut_to_fit():
    many = replace(view(), hands=view().hands * 3)
    cv = Canvas(pygame.Surface((1920, 1080)))
    draw_odds(cv, many)
    assert len(cv.faces) == 2 * MAX_HANDS


def test_a_clock_tick_with_the_panel_up_redraws_the_time_as_a_whole_frame_would():
    r = ScreenRenderer()
    surf = pygame.Surface((1920, 1080))
    state = ScreenState(clock=CLOCK, table=table_side_pots(), layout="split", odds=view())
    r.render(surf, state)
    later = replace(state, clock=replace(CLOCK, remaining_seconds=CLOCK.remaining_seconds - 1))
    rects = r.render(surf, later)
    assert r.stats["partial"] == 1 and surf.get_rect() not in rects
    whole = pygame.Surface((1920, 1080))
    assert sorted(render_frame(whole, later).faces) == sorted(r.last_faces)
    assert pygame.image.tobytes(surf, "RGB") == pygame.image.tobytes(whole, "RGB")


def test_new_odds_redraw_the_panel_in_place():
    r = ScreenRenderer()
    surf = pygame.Surface((1920, 1080))
    state = ScreenState(clock=CLOCK, table=table_side_pots(), layout="split", odds=view())
    r.render(surf, state)
    fewer = replace(state, odds=replace(view(), hands=view().hands[:2]))
    for st in (fewer, replace(state, odds=None), state):
        rects = r.render(surf, st)
        assert surf.get_rect() not in rects
        whole = pygame.Surface((1920, 1080))
        assert sorted(render_frame(whole, st).faces) == sorted(r.last_faces)
        assert pygame.image.tobytes(surf, "RGB") == pygame.image.tobytes(whole, "RGB")
    assert r.stats == {"full": 1, "partial": 3, "skipped": 0}
