"""The seat display's boxes never touch: the button's badge (and the blinds' markers) and
each hole card stay apart by at least one dark pixel, for every seat, every arrangement of
markers and cards and every state, as luma's dummy device shows them.  (Issue: on a seat
that was the button with a red card on the right, the D badge ran into the card.)"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.cards import parse_cards
from engine.views import LegalActions, SeatDisplayView
from hardware.seat_display import SeatDisplay
from hardware.seat_render import HEIGHT, WIDTH, Box, layout

LEGAL = LegalActions(can_fold=True, can_call=True, call_amount=400, min_raise_to=1200,
                     max_raise_to=12700)
STATES = {
    "waiting": {},
    "to act": {"is_turn": True, "legal": LEGAL},
    "keying a raise": {"is_turn": True, "legal": LEGAL, "pending_raise_to": 2000},
    "keying all-in": {"is_turn": True, "legal": LEGAL, "pending_raise_to": 12700},
    "won": {"result": 12700},
    "lost": {"result": -4800},
    "folded": {"status": "folded", "message": "Folded to a raise"},
    "all in": {"status": "all_in", "stack": 0},
    "open seat": {"status": "empty", "name": ""},
    "out": {"status": "out", "message": "OUT - 6th"},
}
#: the flags of the view -> the markers drawn, right to left
MARKERS = {
    "none": ({}, []),
    "D": ({"is_button": True}, ["D"]),
    "D SB": ({"is_button": True, "is_small_blind": True}, ["SB", "D"]),  # heads-up
    "D BB": ({"is_button": True, "is_big_blind": True}, ["BB", "D"]),
    "SB": ({"is_small_blind": True}, ["SB"]),
    "BB": ({"is_big_blind": True}, ["BB"]),
}
HOLE_CARDS = ("", "Qd", "9cQd", "ThKd", "AsAc", "2h7h")


def _views(seat: int) -> list[tuple[str, SeatDisplayView, list[str]]]:
    """``(what, view, markers drawn)`` for every state, markers and hole cards."""
    base = SeatDisplayView(seat=seat, name="Bartholomew the Third", stack=12_345_678, bet=200,
                           to_call=400)
    return [(f"seat {seat}, {state}, markers {m!r}, cards {cards!r}",
             replace(base, hole_cards=tuple(parse_cards(cards)), **STATES[state],
                     **MARKERS[m][0]), MARKERS[m][1])
            for state, m, cards in itertools.product(STATES, MARKERS, HOLE_CARDS)]


def _grown(box: Box, by: int = 1) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _meet(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _ring(box: Box) -> list[tuple[int, int]]:
    """The pixels on the screen just outside ``box``."""
    left, top, right, bottom = _grown(box)
    return [(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1)
            if (x in (left, right) or y in (top, bottom)) and 0 <= x < WIDTH and 0 <= y < HEIGHT]


@pytest.mark.parametrize("seat", range(1, 11))
def test_the_markers_never_touch_a_card(seat: int) -> None:
    display = SeatDisplay(seat, backend="mock", clock=lambda: 10.0)
    checked = 0
    for what, view, markers in _views(seat):
        boxes = layout(view)
        assert display.show(view), what
        shown = display.device_image()
        assert shown is not None and shown.size == (WIDTH, HEIGHT), what
        want_cards = 0 if view.status in ("empty", "out") else len(view.hole_cards)
        assert len(boxes.cards) == want_cards, what
        assert list(boxes.markers) == markers, what
        for card in boxes.cards:
            # the card is drawn where the layout says: its top edge and its sides are lit
            mid = (card[0] + card[2]) // 2
            assert shown.getpixel((mid, card[1])) and shown.getpixel((card[0], card[3] - 5)) \
                and shown.getpixel((card[2], card[3] - 5)), what
        for label, box in boxes.markers.items():
            for card in boxes.cards:
                assert not _meet(_grown(box), card), (what, label, box, card)
            # the badge is drawn there (its corners lit) and a dark pixel surrounds it
            assert all(shown.getpixel(p) for p in ((box[0], box[1]), (box[2], box[3]))), what
            lit = [p for p in _ring(box) if shown.getpixel(p)]
            assert lit == [], (what, label, lit)
            checked += 1
    assert checked == sum(len(m) for _, m in MARKERS.values()) * len(STATES) * len(HOLE_CARDS)
