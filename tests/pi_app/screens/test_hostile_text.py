"""Text from outside on the TV and the seat displays (issue 11, item 6).

A NUL in a card UID once reached a foreign-card ruling, and every later TV render raised
``ValueError: null character``, leaving the TV on the frame from before the ruling.  A NUL in
a structure's chip colour did the same at the color-up.  Now such text is refused where it
enters, drawn safely if it gets through anyway, and a screen that raises for any reason
gives a fallback frame, counted and logged.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from dataclasses import replace

import pygame
import pytest

from engine.betting.hand import HandConfig
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import make_test_deck
from engine.events import CardDrawn
from engine.text import UidFormatError
from engine.tournament.structure import StructureError
from engine.tournament.structure_file import load_structure
from engine.views import ClockView, RulingView, ScreenState, SeatDisplayView
from hardware.seat_render import render_seat_view
from hardware.tv import FALLBACK_LINES, TV
from pi_app.screens import ScreenRenderer, render_frame
from pi_app.screens.samples import CLOCK, RULING, table_preflop
from tests.data_paths import REPO, data

HOSTILE = ["tag 04A1B2C3\u0000D4E5F6 is not in deck", "\u202eHOUSE\u202c RULES",
           "\x1b[2J\x1b[31mred", "\u200b\u200b\u200b", "T" * 400, "line\nbreak\u2028",
           "\ud800 lone surrogate"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_a_ruling_and_notices_draws(text):
    surface = pygame.Surface((1280, 720))
    ruling = replace(RULING, words=text, instruction=text, rule=text[:30])
    notice = f"Color-up: remove the 25 ({text}) chips"
    clock = replace(CLOCK, tournament_name=text, notices=(notice,))
    state = ScreenState(clock=clock, table=table_preflop(), ruling=ruling, layout="split",
                        alarms=(text,))
    render_frame(surface, state)          # raised ValueError: null character before
    renderer = ScreenRenderer()
    assert renderer.render(surface, state) == [surface.get_rect()]


@pytest.mark.parametrize("text", HOSTILE + ["Zoë", "李小龍"])
def test_hostile_text_on_a_seat_display_draws(text):
    view = SeatDisplayView(seat=3, name=text, stack=1500, message=text)
    img = render_seat_view(view, online_note=text[:50])
    assert img.size == (128, 64)


def test_a_renderer_that_raises_gives_a_fallback_frame_counted_and_logged(caplog):
    def draw(surface, state):
        if state.ruling is not None:
            raise ValueError("null character")   # what pygame said for a NUL in a text
        surface.fill((200, 30, 30))

    tv = TV(draw, None, size=(1280, 720), fps=0, driver="dummy")
    try:
        assert tv.render(ScreenState(clock=CLOCK, layout="clock")) is True
        assert tuple(tv.surface.get_at((5, 5)))[:3] == (200, 30, 30)
        bad = ScreenState(clock=CLOCK, layout="clock", ruling=RULING)
        with caplog.at_level(logging.ERROR, logger="hardware.tv"):
            assert tv.render(bad) is True
        assert tv.render_errors == 1
        assert "could not be drawn" in caplog.text and "null character" in caplog.text
        # not the stale frame: the fallback's dark background, with its words drawn
        assert tuple(tv.surface.get_at((5, 5)))[:3] == (10, 14, 22)
        middle = {tuple(tv.surface.get_at((x, 360 - 720 // 24)))[:3] for x in range(0, 1280, 2)}
        assert len(middle) > 1, "no words on the fallback frame"
        assert FALLBACK_LINES[0].startswith("The TV")
        # the loop does not hand the same state over again (ViewChanges), so a broken
        # screen is not retried every frame; the next state is drawn
        from pi_app.service.changes import ViewChanges
        changes = ViewChanges()
        assert changes.screen(bad) and not changes.screen(bad)
        assert tv.render(replace(bad, ruling=None, now=1.0)) is True
        assert tuple(tv.surface.get_at((5, 5)))[:3] == (200, 30, 30)
        assert tv.render_errors == 1
    finally:
        tv.close()


def test_a_nul_in_a_drawn_uid_is_refused_by_the_dealing_engine():
    """Whatever brings it (a journal, a replay script), the engine refuses such a UID
    before it becomes a foreign-card ruling, and changes nothing."""
    proc = DealingProcedure(HandConfig(stacks={1: 1000, 2: 1000}, button=1, small_blind=10,
                                       big_blind=20), make_test_deck(1), "tda2024", seed=1)
    before = proc.to_dict()
    for uid in ("04A1B2C3\u0000D4E5F6", "\u202e04A1B2C3D4E5F6", "tag"):
        with pytest.raises(UidFormatError):
            proc.apply(CardDrawn(t=1.0, uid=uid, draw=1))
    assert proc.to_dict() == before
    proc.apply(CardDrawn(t=2.0, uid="04a1b2c3d4e5f6", draw=1))   # lower case still reads
    assert proc.to_dict() != before


def test_a_nul_in_a_chip_colour_is_refused_at_load():
    with pytest.raises(StructureError, match="color") as exc:
        load_structure(data("tournament", "nul_in_chip_color.toml"))
    assert "\\x00" in str(exc.value) or "U+0000" in str(exc.value)
    proc = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "structure", "check",
                           str(data("tournament", "nul_in_chip_color.toml"))],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 2 and "U+0000" in proc.stderr   # one line per problem
    assert "\x00" not in proc.stderr and "Traceback" not in proc.stderr


def test_a_clock_view_with_a_nul_colour_still_draws():
    """Were a bad colour to reach the clock anyway (an old journal), the TV draws it."""
    surface = pygame.Surface((1920, 1080))
    clock = ClockView(level_number=2, notices=("Color-up: remove the 25 (gr\u0000een) chips",))
    render_frame(surface, ScreenState(clock=clock, layout="clock"))
    ruling = RulingView(code="FOREIGN_CARD", words="tag 04A1\u0000 is not in deck",
                        rule="TDA 35-A-6", instruction="", status="advisory")
    render_frame(surface, ScreenState(clock=clock, ruling=ruling, layout="clock"))
