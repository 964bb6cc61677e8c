"""The winner screen's place rows: a place ("10th") keeps a clear gap before its name at
1920x1080 and 1280x720.  (Issue: "10th" nearly touched "Player 10".)  Measured with the
rects of the texts as drawn."""

from __future__ import annotations

import pygame
import pytest

from engine.views import PlaceLine, RoomView, ScreenState
from pi_app.screens import render_frame
from pi_app.screens.theme import record_texts
from pi_app.screens.winner import NAME_GAP


@pytest.mark.parametrize("size", ((1920, 1080), (1280, 720)), ids=("1080p", "720p"))
@pytest.mark.parametrize("players", (6, 10))
def test_each_place_keeps_a_gap_before_its_name(size, players):
    places = tuple(PlaceLine(p, f"Player {p}", payout=100 if p < 4 else 0)
                   for p in range(1, players + 1))
    room = RoomView(currency="$", places=places, finished=True)
    with record_texts() as drawn:
        render_frame(pygame.Surface(size), ScreenState(room=room))
    rects = {t.text: t.rect for t in drawn}
    scale = size[1] / 1080
    for p in range(2, players + 1):
        place, name = rects[f"{p}th" if p > 3 else ("2nd", "3rd")[p - 2]], rects[f"Player {p}"]
        assert abs(place.centery - name.centery) <= 2
        assert name.left - place.right >= NAME_GAP * scale * 0.9, (p, place, name)
