"""The table screen's seats (pi_app.screens.table): a seat without cards gives their space
to its name and stack; a seat with cards keeps it."""

from __future__ import annotations

import pygame

from engine.views import SeatPublic, TablePublicView
from pi_app.screens.seatbox import SEAT_W, SMALL_CARD
from pi_app.screens.table import draw_table, seat_positions
from pi_app.screens.theme import Canvas, record_texts


def _name_left(view: TablePublicView, seat: int) -> float:
    """Design x of the seat's name from its box's left edge."""
    surf = pygame.Surface((1920, 1080))
    cv = Canvas(surf)
    with record_texts() as drawn:
        draw_table(cv, view)
    x, _y, _a = seat_positions(cv, [s.seat for s in view.seats])[seat]
    name = next(s.name for s in view.seats if s.seat == seat)
    rect = next(t.rect for t in drawn if t.text == name)
    return (rect.x - cv.ox) / cv.s - (x - SEAT_W / 2)


def test_a_seat_without_cards_takes_no_card_space():
    seats = (SeatPublic(1, "Ann", 5_000, has_cards=True),
             SeatPublic(2, "Bob", 5_000, status="folded"),
             SeatPublic(3, "Cy", 5_000, has_cards=False),
             SeatPublic(4, "Di", 5_000, status="out"))
    view = TablePublicView(hand_number=3, seats=seats, actor=1)
    cards = 2 * SMALL_CARD[0]
    assert _name_left(view, 1) > cards  # the backs first, then the name
    for seat in (2, 3, 4):
        assert _name_left(view, seat) < 30, seat  # no gap where no card is
