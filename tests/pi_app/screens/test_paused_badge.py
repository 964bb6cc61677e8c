"""The PAUSED badge is never stale: the redraw key holds everything the badge reads
(:func:`pi_app.screens.clock.is_paused`: the notices, ``started``, ``running`` and whether
the level is timed), and pausing and resuming the engine's clock redraws it, in every
layout that shows the clock, as a whole redraw would."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from engine.views import ClockView, ScreenState
from pi_app.screens import ScreenRenderer, render_frame
from pi_app.screens.clock import PAUSED, is_paused, notices_of
from pi_app.screens.renderer import _static_clock, screen_key
from pi_app.screens.samples import table_preflop
from pi_app.screens.theme import record_texts

SIZES = ((1920, 1080), (1280, 720))


def _tournament(preset: str) -> Tournament:
    t = Tournament(load_structure(preset), seed=3)
    for seat in range(1, 7):
        t.register(f"Player {seat}", seat=seat)
    return t


def _views(preset: str) -> list[ClockView]:
    """The engine's clock views before the start, then running and paused on the first
    levels (timed or hand-based) and on a break."""
    t = _tournament(preset)
    out = [t.clock_view(0.0)]
    t.start(0.0)
    now = 0.0
    for _ in range(6):
        for paused in (False, True):
            if paused:
                t.pause(now)
            out.append(t.clock_view(now + 7.0))
            if paused:
                t.resume(now + 7.0)
        now += 7.0
        t.next_level(now)
    return out


@pytest.mark.parametrize("preset", ["gunpowder", "phat-ace"])
def test_the_key_keeps_what_the_badge_reads(preset: str) -> None:
    views = _views(preset)
    paused = [is_paused(v) for v in views]
    if preset == "gunpowder":  # timed levels: the badge while paused
        assert any(paused) and not all(paused)
    else:  # hand-counted levels: no time stands still, no badge
        assert not any(paused) and any(v.started and not v.running for v in views)
    for v in views:
        static = _static_clock(v)
        assert is_paused(static) == is_paused(v) and notices_of(static) == notices_of(v)


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
def test_a_stopped_clock_changing_only_its_time_kind_redraws_the_badge(size) -> None:
    """Two views that differ only in what the badge reads besides ``running`` (the level
    timed or not): the renderer draws the second as a whole redraw would, without the
    badge (not only its time fields)."""
    pygame.font.init()
    base = ClockView(level_number=3, started=True, running=False, remaining_seconds=600.0)
    other = replace(base, remaining_seconds=None)
    assert is_paused(base) and not is_paused(other)
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface(size), pygame.Surface(size)
    renderer.render(screen, ScreenState(clock=base, layout="clock"))
    renderer.render(screen, ScreenState(clock=other, layout="clock"))
    render_frame(fresh, ScreenState(clock=other, layout="clock"))
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB")


def _drawn(state: ScreenState, size: tuple[int, int]) -> list[str]:
    with record_texts() as drawn:
        render_frame(pygame.Surface(size), state)
    return [d.text for d in drawn]


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
@pytest.mark.parametrize("layout", ["clock", "split"])
def test_pausing_and_resuming_redraws_the_badge(size: tuple[int, int], layout: str) -> None:
    pygame.font.init()
    t = _tournament("gunpowder")
    t.start(0.0)
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface(size), pygame.Surface(size)
    table = None if layout == "clock" else table_preflop()
    last_key = None
    shown = []
    for now, action in ((1.0, None), (2.0, t.pause), (3.5, None), (4.0, t.resume),
                        (5.0, None), (6.0, t.pause), (6.2, None), (9.0, t.resume)):
        if action is not None:
            action(now)
        state = ScreenState(clock=t.clock_view(now), table=table, layout=layout, now=now)
        key = screen_key(state)
        if key != last_key:  # as the service hands the TV only states whose key changed
            renderer.render(screen, state)
            last_key = key
        render_frame(fresh, state)
        assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB"), \
            (now, action)
        shown.append(PAUSED in _drawn(state, size))
    assert shown == [False, True, True, False, False, True, True, False]
    assert renderer.stats["partial"] + renderer.stats["skipped"] > 0 or layout == "clock"
