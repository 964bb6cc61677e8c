"""The TV's season panel: on only between tournaments, every text legible (at least 3.5 %
of the screen's height at 1080p and 720p), names drawn safe, the file re-read only when it
changed."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import replace
from decimal import Decimal

import pygame
import pytest

from engine.tournament.season import Standing
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from engine.views import ScreenState
from pi_app.console.season import SeasonOverlay
from pi_app.screens import ScreenRenderer, draw_screen, render_frame
from pi_app.screens.samples import CLOCK
from pi_app.screens.season import (
    PANEL_RECT,
    SEASON_KEY,
    SHOWN,
    between_tournaments,
    draw_season,
    season_of,
    with_season,
)
from pi_app.screens.theme import Canvas, record_texts
from pi_app.service.season_store import Season, season_path
from tests.data_paths import DATA

NOT_STARTED = replace(CLOCK, started=False, entrants=0, players_left=0)


def standing(rank: int, player: str, points: str) -> Standing:
    return Standing(rank, player, Decimal(points), 3, 1, 1, 0, 0)


TABLE = [standing(i, f"Player {i}", f"{300 - 10 * i}.50") for i in range(1, 13)]


def test_with_season_keeps_the_top_lines_and_the_next_night():
    st = ScreenState(clock=NOT_STARTED, layout="clock", extra={"other": "kept"})
    on = with_season(st, TABLE, dt.date(2026, 1, 20))
    rows, nxt = season_of(on)
    assert len(rows) == SHOWN and rows[0] == (1, "Player 1", "290.50") and nxt == "2026-01-20"
    assert on.extra["other"] == "kept"
    assert season_of(with_season(on, [], None)) is None
    assert between_tournaments(st) and not between_tournaments(replace(st, clock=CLOCK))
    assert between_tournaments(ScreenState())
    registering = replace(NOT_STARTED, entrants=3, players_left=3)
    assert not between_tournaments(replace(st, clock=registering))



@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_every_text_is_legible_from_five_metres(size):
    surf = pygame.Surface(size)
    cv = Canvas(surf)
    rows, nxt = season_of(with_season(ScreenState(clock=NOT_STARTED), TABLE,
                                      dt.date(2026, 1, 20)))
    with record_texts() as drawn:
        panel = draw_season(cv, rows, nxt, replace(NOT_STARTED, entrants=8,
                                                   tournament_name="Thursday "
                                                   "Gunpowder League of the Month"))
    boxes = [t.rect for t in drawn]
    assert len(boxes) == 3 + 3 * SHOWN + 5 + 3
    low = min(b.height for b in boxes)
    assert low >= 0.035 * size[1], (low, size)
    assert all(panel.contains(b) for b in boxes[:3 + 3 * SHOWN])
    assert all(surf.get_rect().contains(b) for b in boxes)


def test_the_panel_is_drawn_over_the_clock_only_with_its_key():
    size = (1920, 1080)
    x, y, w, _ = PANEL_RECT
    probe = (x + w // 2, y + 10)  # inside the panel's top edge, above its title
    plain, shown = pygame.Surface(size), pygame.Surface(size)
    state = ScreenState(clock=NOT_STARTED, layout="clock")
    draw_screen(plain, state)
    draw_screen(shown, with_season(state, TABLE, None))
    assert plain.get_at(probe) != shown.get_at(probe)
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(shown, "RGB")


def test_a_hostile_name_is_drawn_safe():
    surf = pygame.Surface((1920, 1080))
    cv = Canvas(surf)
    draw_season(cv, [(1, "Ann\u202e\u0000" + "x" * 80, "1.00")], "2026-01-20")  # no raise


def test_partial_redraws_never_draw_the_clock_over_the_panel():
    r = ScreenRenderer()
    surf = pygame.Surface((1920, 1080))
    state = with_season(ScreenState(clock=NOT_STARTED, layout="clock"), TABLE, None)
    r.render(surf, state)
    later = replace(state, clock=replace(NOT_STARTED, remaining_seconds=3.0))
    rects = r.render(surf, later)  # the time fields, the panel drawn over them again
    assert rects and surf.get_rect() not in rects
    whole = pygame.Surface((1920, 1080))
    render_frame(whole, later)
    assert pygame.image.tobytes(surf, "RGB") == pygame.image.tobytes(whole, "RGB")


def test_overlay_reads_the_season_between_tournaments_only(tmp_path):
    overlay = SeasonOverlay(tmp_path)
    idle = ScreenState(clock=NOT_STARTED, layout="clock")
    assert SEASON_KEY not in overlay(idle).extra  # no season yet: nothing, nothing created
    assert not season_path(tmp_path).exists()
    with Season(season_path(tmp_path)) as season:
        season.import_csv(DATA / "season" / "league.csv")
    rows, nxt = season_of(overlay(idle))
    assert rows[0] == (1, "Ann", "343.25") and nxt == "2026-01-20"
    assert SEASON_KEY not in overlay(replace(idle, clock=CLOCK)).extra  # playing: off
    extra = tmp_path / "more.csv"
    extra.write_text("date,player,place,points\n2026-01-20,Zed,1,999\n")
    with Season(season_path(tmp_path)) as season:
        season.import_csv(extra)
    os.utime(season_path(tmp_path), ns=(1, 1))  # a change of time alone is seen too
    rows, nxt = season_of(overlay(idle))
    assert rows[0] == (1, "Zed", "999.00") and nxt == "2026-01-27"


def _night(tmp_path):
    """A season with nights in ``tmp_path`` and tonight's gunpowder tournament, no one
    registered yet (the engine's own views)."""
    with Season(season_path(tmp_path)) as season:
        season.import_csv(DATA / "season" / "league.csv")
    return Tournament(load_structure("gunpowder"), seed=15)


def _screen(t: Tournament, now: float) -> ScreenState:
    return ScreenState(clock=t.clock_view(now), layout="clock", now=now, room=t.room_view())


def _texts(state: ScreenState) -> list[str]:
    with record_texts() as drawn:
        draw_screen(pygame.Surface((1920, 1080)), state)
    return [t.text for t in drawn]


def test_registration_shows_the_clock_with_the_players_and_the_entry_stack(tmp_path):
    t = _night(tmp_path)
    overlay = SeasonOverlay(tmp_path)
    before = overlay(_screen(t, 0.0))
    assert season_of(before) is not None  # no one registered yet: between tournaments
    assert "SEASON STANDINGS" in _texts(before)
    for seat, name in enumerate(("Ann", "Bob", "Carmen"), 1):
        t.register(name, seat)
    registering = overlay(_screen(t, 0.0))
    assert SEASON_KEY not in registering.extra  # players register: the clock shows
    texts = _texts(registering)
    assert "SEASON STANDINGS" not in texts
    assert "3 / 3" in texts  # the players registered
    stack = t.structure.starting_stack
    assert "ENTRY STACK" in texts and f"{stack:,} chips" in texts
    t.start(0.0)
    late = overlay(_screen(t, 60.0))
    assert SEASON_KEY not in late.extra
    late_texts = _texts(late)
    assert "LATE ENTRY NOW" in late_texts and "ENTRY STACK" not in late_texts


def test_the_winner_screen_stays_until_the_night_is_ended(tmp_path):
    t = _night(tmp_path)
    for seat, name in enumerate(("Ann", "Bob"), 1):
        t.register(name, seat)
    t.start(0.0)
    t.eliminate(60.0, 2)
    state = SeasonOverlay(tmp_path)(_screen(t, 65.0))
    assert state.room is not None and state.room.finished
    assert SEASON_KEY not in state.extra
    texts = _texts(state)
    assert "WINNER" in texts and "SEASON STANDINGS" not in texts
