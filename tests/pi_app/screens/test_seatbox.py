"""A seat's box (pi_app.screens.seatbox): a seat without cards gives their space to its name
and stack, a seat with cards keeps it; the band says the most important thing, an offline
display among them, shortened rather than cut on a narrow table; a box whose stack alone
or band alone changed is blitted again, its new stack and band drawn over it, pixel for
pixel as drawn whole."""

from __future__ import annotations

import pygame

from engine.cards import parse_cards
from engine.views import SeatPublic, TablePublicView
from pi_app.screens.parts import PARTS, make_part
from pi_app.screens.seatbox import (
    BACK_STEP,
    OFFLINE_BAND,
    SEAT_H,
    SEAT_W,
    SMALL_CARD,
    _box,
    draw_seat_box,
    seat_band,
)
from pi_app.screens.table import _seat_opaque, draw_table, seat_positions
from pi_app.screens.theme import TEXT, Canvas, record_texts


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
    cards = 10 + BACK_STEP + SMALL_CARD[0]  # the backs' right edge
    assert _name_left(view, 1) > cards  # the backs first, then the name
    for seat in (2, 3, 4):
        assert _name_left(view, seat) < 30, seat  # no gap where no card is


def test_the_band_says_the_hand_then_to_act_then_all_in_then_an_offline_display():
    cv = Canvas(pygame.Surface((1920, 1080)))
    view = TablePublicView(seats=(), actor=1, to_call=400)
    active, all_in = SeatPublic(1, "Ann", 100), SeatPublic(1, "Ann", 0, status="all_in")
    folded = SeatPublic(1, "Ann", 100, status="folded")
    assert seat_band(cv, view, active, "Two Pair, Aces and Kings", True, True)[0] \
        == "Two Pair, Aces and Kings"
    assert seat_band(cv, view, active, "", True, True)[0] == "TO ACT \u2022 CALL 400"
    assert seat_band(cv, view, all_in, "", False, True)[0] == "ALL IN"
    assert seat_band(cv, view, folded, "", False, True) == OFFLINE_BAND
    assert seat_band(cv, view, folded, "", False, False)[0] == "FOLDED"
    assert seat_band(cv, view, active, "", False, False) is None


def test_an_offline_display_is_marked_inside_its_box_even_on_a_narrow_table():
    seats = (SeatPublic(1, "Ann", 5_000, has_cards=True, display_online=False),
             SeatPublic(2, "Bob", 5_000, has_cards=True))
    view = TablePublicView(hand_number=3, seats=seats, actor=2)
    for size, design in (((1920, 1080), (1920, 1080)), ((1280, 720), (1300, 1080))):
        surf = pygame.Surface(size)
        cv = Canvas(surf, design=design)
        with record_texts() as drawn:
            draw_table(cv, view)
        mark = next(t for t in drawn if t.text in ("DISPLAY OFFLINE", "OFFLINE"))
        name = next(t for t in drawn if t.text == "Ann")
        assert abs(mark.rect.centerx - name.rect.centerx) < SEAT_W * cv.s  # in Ann's box
        assert mark.rect.top > name.rect.bottom
        assert "\u2026" not in mark.text


def _box_pixels(seat: SeatPublic, band=None, apart: bool = True) -> tuple[bytes, int]:
    """The pixels of ``seat``'s box drawn on a plain background, and the parts made for it;
    ``apart=False`` draws the box whole, the stack in it, as a part is made."""
    surf = pygame.Surface((1920, 1080))
    surf.fill((7, 9, 13))
    cv = Canvas(surf)
    made = len(PARTS)
    if apart:
        rect = draw_seat_box(cv, seat, 300, 200, acting=False, won=False, offline=False,
                             band=band)
    else:
        rect = cv.rect(300, 200, SEAT_W, SEAT_H)
        part = make_part(cv, rect.size, (SEAT_W, SEAT_H),
                         lambda pc: _box(pc, seat, acting=False, won=False, offline=False,
                                         band=band))
        surf.blit(part.surface, rect.topleft)
    return pygame.image.tobytes(surf.subsurface(rect), "RGB"), len(PARTS) - made


def test_a_box_whose_stack_alone_changed_is_blitted_again_with_its_new_stack():
    PARTS.clear()
    seats = [SeatPublic(4, "Ann", stack, has_cards=True) for stack in (12_500, 12_400, 9_975)]
    first, made = _box_pixels(seats[0])
    assert made >= 1  # the box (and the card back it holds)
    for seat in seats[1:]:
        pixels, made = _box_pixels(seat)
        assert made == 0  # the same part, the new stack drawn over it
        assert pixels == _box_pixels(seat, apart=False)[0] != first  # as drawn whole
    # with a band, drawn after the stack: both over the same part, in that order
    all_in = [SeatPublic(4, "Ann", stack, status="all_in", has_cards=True)
              for stack in (0, 100)]
    bands = [("ALL IN", (200, 40, 40), (255, 255, 255)), ("TO ACT \u2022 CALL 400",
                                                          (240, 190, 60), (10, 10, 10))]
    assert [_box_pixels(s, b)[1] for s in all_in for b in bands] == [1, 0, 0, 0]
    for seat in all_in:
        for band in bands:
            assert _box_pixels(seat, band)[0] == _box_pixels(seat, band, apart=False)[0]


def test_inside_its_opaque_rect_a_box_covers_whatever_lies_under_it():
    """A partial redraw puts no felt inside a box's opaque rect (``_seat_opaque``): there
    the box's pixels must not depend on what was under it, in every look and size."""
    looks = [(SeatPublic(3, "Ann", 5_000, has_cards=True), {"acting": True}),
             (SeatPublic(3, "Bob", 0, status="all_in", shown_cards=parse_cards("AhKd")),
              {"won": True}),
             (SeatPublic(3, "Cy", 5_000, status="folded"), {"offline": True}),
             (SeatPublic(3, "", 5_000, status="out"), {})]
    for size in ((1920, 1080), (1280, 720)):
        for seat, marks in looks:
            flags = {"acting": False, "won": False, "offline": False, **marks}
            drawn = []
            for under in ((255, 255, 255), (0, 0, 0)):
                surf = pygame.Surface(size)
                surf.fill(under)
                cv = Canvas(surf)
                rect = draw_seat_box(cv, seat, 700, 400, band=("ALL IN", (200, 0, 0), TEXT),
                                     **flags)
                opaque = _seat_opaque(cv, seat, 700 + SEAT_W / 2, 400 + SEAT_H / 2)
                assert rect.contains(opaque) and opaque.h > rect.h * 0.7
                drawn.append(pygame.image.tobytes(surf.subsurface(opaque), "RGB"))
                assert surf.get_at(rect.topleft)[:3] == under  # a rounded corner shows it
            assert drawn[0] == drawn[1], (size, seat)
