"""A player's name of up to 12 characters fits whole in a seat's box on the TV at 1920x1080
and 1280x720, with no cards, card backs or cards shown, in the table layout of up to eight
seats; a longer one is cut with "…".  (Issue: at 720p the TV
showed "Zoë Ångström" as "Zoë Ångstr…".)  Measured with the texts as drawn."""

from __future__ import annotations

import pygame
import pytest

from engine.cards import parse_cards
from engine.views import SeatPublic, TablePublicView
from pi_app.screens.render import table_area
from pi_app.screens.table import draw_table
from pi_app.screens.theme import Canvas, record_texts

#: twelve characters each, as registration accepts them (accented letters, hyphens and
#: spaces), of common width: at most 274 design px at 720p's legible size, the room right
#: of cards shown ("Guðmund Berg", 280, and "WWWWWWWWWWWW", 432, are cut with "…")
NAMES = ("Zoë Ångström", "Jean-Baptist", "Anna Nowicka", "Maximilian K", "Ólafur Örn J",
         "Bartholomew1", "Siobhán Nic ", "Åsa Lindqvis")
LOOKS = {"no cards": {"has_cards": False},
         "backs": {"has_cards": True},
         "shown": {"has_cards": True, "shown_cards": tuple(parse_cards("AhKd"))}}


def _names_drawn(size, layout, look, names, n=8):
    seats = tuple(SeatPublic(seat=i, name=names[(i - 1) % len(names)], stack=1_234_567,
                             **LOOKS[look]) for i in range(1, n + 1))
    view = TablePublicView(hand_number=7, street="showdown", small_blind=100, big_blind=200,
                           seats=seats)
    root = Canvas(pygame.Surface(size))
    with record_texts() as drawn:
        draw_table(table_area(root, layout, 0), view)
    return drawn


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=("1080p", "720p"))
@pytest.mark.parametrize("look", list(LOOKS))
def test_a_twelve_character_name_fits_whole(size, look):
    """The table layout of up to eight seats (its boxes at full size; nine or ten seats
    and the split layout draw them smaller: there a 12-character name may be cut)."""
    names = tuple(n.strip() for n in NAMES)
    drawn = _names_drawn(size, "table", look, names)
    for name in names:
        shown = [t for t in drawn if t.text == name]
        assert shown and not any(t.cut for t in shown), (name, [t.text for t in drawn])


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=("1080p", "720p"))
def test_a_longer_name_is_cut_with_an_ellipsis(size):
    long = "Bartholomew Thirdington-Smythe"[:24]
    drawn = _names_drawn(size, "table", "shown", (long,))
    names = [t for t in drawn if t.text == long]
    assert len(names) == 8 and all(t.cut for t in names)  # drawn cut, ending with "…"
