"""Legible from 5 m (issue 15): no text a player needs is under 3.5% of the screen's
height, at 1080p and at 720p.  Every text is measured as it is drawn (the rendered text's
box, :func:`pi_app.screens.theme.record_texts`), on every golden screen state at both
sizes.  Texts marked ``minor`` (the seat number on a seat box, the director's pairing
panel and device strip) are left out, and counted so that the exemption stays small."""

from __future__ import annotations

import pygame
import pytest

from pi_app.screens import render_frame
from pi_app.screens.golden import cases
from pi_app.screens.theme import record_texts

MIN_FRACTION = 0.035
SIZES = ((1920, 1080), (1280, 720))


def _drawn(state, size):
    surf = pygame.Surface(size)
    with record_texts() as drawn:
        render_frame(surf, state)
    return drawn


@pytest.mark.parametrize("size", SIZES, ids=("1080p", "720p"))
@pytest.mark.parametrize("name", sorted(cases()))
def test_every_text_a_player_needs_is_at_least_3_5_percent_of_the_height(name, size):
    state, _ = cases()[name]
    drawn = _drawn(state, size)
    needed = [t for t in drawn if not t.minor and t.text.strip()]
    assert needed, "the recorder saw no text"
    small = [(t.text, t.rect.h) for t in needed if t.rect.h < MIN_FRACTION * size[1]]
    assert not small, f"{name} at {size[1]}p: under {MIN_FRACTION * size[1]:.1f} px: {small}"


def test_the_recorder_measures_what_is_drawn():
    state, _ = cases()["clock_running"]
    big = _drawn(state, (1920, 1080))
    small = _drawn(state, (1280, 720))
    time_big = max(t.rect.h for t in big)
    time_small = max(t.rect.h for t in small)
    assert time_big > 300 and abs(time_small / time_big - 2 / 3) < 0.05


def test_minor_texts_are_few():
    """The exemption covers seat numbers, the pairing panel and the device strip only."""
    for name, (state, size) in cases().items():
        minor = [t.text for t in _drawn(state, size) if t.minor]
        assert len(minor) <= 14, f"{name}: {minor}"


def test_the_split_cases_measure_the_room_lines_beside_the_table():
    """Every split case with the room's panels draws the places with their points and the
    players out, so the test above measures them at both sizes."""
    split = {n: c for n, c in cases().items()
             if c[0].layout == "split" and c[0].room is not None and c[0].table is not None
             and c[0].clock is not None and not c[0].room.finished}
    assert len(split) >= 5
    for name, (state, size) in split.items():
        texts = [t.text for t in _drawn(state, size)]
        assert "POINTS" in texts and "OUT" in texts, name
