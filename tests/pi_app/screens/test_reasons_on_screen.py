"""No raw identifier reaches the TV: every ruling and void reason the dealing scenarios give
is drawn in words, at 1920x1080 and 1280x720, and the TV puts in words an identifier a
view still carries.  (Issue: the TV showed "hand void: fouled_deck: TDA 35-E".)"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine.betting.hand_views import public_view
from engine.dealing.deal_run import run_deal
from engine.dealing.deal_script import parse_deal
from engine.dealing.outcomes import RulingDecided, RulingIssued
from engine.views import RulingView, ScreenState, TablePublicView
from pi_app.screens.render import draw_screen
from pi_app.screens.theme import record_texts
from tests.data_paths import data

FILES = sorted(data("dealing").glob("*.deal"))
SIZES = ((1920, 1080), (1280, 720))


def _drawn(state: ScreenState, size: tuple[int, int]) -> list[str]:
    surface = pygame.Surface(size)
    with record_texts() as drawn:
        draw_screen(surface, state)
    return [t.text for t in drawn]


def _states(path: Path) -> list[ScreenState]:
    """The table as the scenario leaves it, under each ruling it gave (and without)."""
    sc = parse_deal(path.read_text(encoding="utf-8").splitlines())
    result = run_deal(sc)
    table = public_view(sc.procedure.hand)
    rulings = [o.ruling.view() for o in result.outcomes
               if isinstance(o, (RulingIssued, RulingDecided))]
    return [ScreenState(table=table, layout="table", ruling=r) for r in [None, *rulings[-2:]]]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_scenario_is_drawn_in_words(path: Path):
    pygame.font.init()
    states = _states(path)
    for state in states:
        for size in SIZES if state.table and state.table.message else SIZES[1:]:
            texts = _drawn(state, size)
            assert not [t for t in texts if "_" in t], (size, texts)
            if state.table is not None and state.table.message:
                assert state.table.message in texts  # the void line, as the engine says it


def test_a_raw_reason_in_a_view_is_drawn_in_words():
    pygame.font.init()
    raw = ScreenState(
        table=TablePublicView(hand_number=3, message="hand void: fouled_deck: TDA 35-E"),
        ruling=RulingView(code="FOULED_DECK", words="FOULED_DECK",
                          rule="House rule (gunpowder; one_extra_card, after RRoP)",
                          instruction="reload_the_shoe", profile="my_house"),
        layout="table")
    for size in SIZES:
        texts = _drawn(raw, size)
        assert not [t for t in texts if "_" in t], (size, texts)
        assert "hand void: fouled deck: TDA 35-E" in texts
        assert any("one extra card" in t for t in texts)
