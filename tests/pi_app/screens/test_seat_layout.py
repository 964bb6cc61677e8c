"""The table's geometry at every seat count 2..10, in the table and split layouts, at
1920x1080 and 1280x720, with and without the status strip: no two seat boxes overlap, the
hand's header ("HAND #6 • SHOWDOWN") lies clear of every box, and a seat's badges (WINS,
CHIP LEADER, BOUNTY) lie clear of every other seat's box.  (Issue: at 720p seat 3's box hid
the S of "SHOWDOWN", seat 4's the H of "HAND #1" on nine seats; on ten seats the boxes of
seats 4 and 5, 6 and 7 overlapped, and seat 6's WINS badge ran into seat 7's box.)  The
rects are those the drawing functions return (real pixels of what they drew)."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine.views import SeatPublic, TablePublicView
from pi_app.screens.overlays import STRIP_H
from pi_app.screens.render import table_area
from pi_app.screens.table import _draw_badges, seat_positions, table_regions
from pi_app.screens.theme import Canvas

SIZES = ((1920, 1080), (1280, 720))
CASES = [(size, layout, top, n) for size in SIZES for layout in ("table", "split")
         for top in (0, STRIP_H) for n in range(2, 11)]


def _view(n: int) -> TablePublicView:
    """``n`` seats with long names and stacks, at a showdown with wide blinds and ante."""
    seats = tuple(SeatPublic(seat=i, name=f"Player {i}", stack=1_234_567, has_cards=True)
                  for i in range(1, n + 1))
    return TablePublicView(hand_number=1234, street="showdown", small_blind=200_000,
                           big_blind=400_000, ante=400_000, seats=seats)


def _drawn(size: tuple[int, int], layout: str, top: int, n: int):
    root = Canvas(pygame.Surface(size))
    cv, regions = table_regions(table_area(root, layout, top), _view(n))
    rects = {r.name: r.draw(cv, *r.args) for r in regions}
    seats = {name[1]: r for name, r in rects.items() if name[0] == "seat"}
    return cv, rects, seats


@pytest.mark.parametrize(("size", "layout", "top", "n"), CASES)
def test_boxes_and_header_apart(size, layout, top, n):
    cv, rects, seats = _drawn(size, layout, top, n)
    assert len(seats) == n
    for (a, ra), (b, rb) in itertools.combinations(seats.items(), 2):
        assert not ra.colliderect(rb), f"seats {a} and {b} overlap: {ra.clip(rb)}"
    header = rects["header"]
    assert header.w and header.h and cv.area.contains(header)
    for s, r in seats.items():
        assert not r.colliderect(header), f"seat {s}'s box lies over the header"


@pytest.mark.parametrize(("size", "layout", "top", "n"), CASES)
def test_badges_clear_of_other_boxes(size, layout, top, n):
    """Every seat wins (a split pot), or one leads; one seat in turn holds the bounty."""
    cv, rects, seats = _drawn(size, layout, top, n)
    pos = seat_positions(cv, list(seats))
    for won, leader in ((1_234_567, False), (0, True)):
        for holder in seats:
            badges = {s: _draw_badges(cv, x, y, won if won or s == holder else 0,
                                      leader and s == holder, s == holder)
                      for s, (x, y, _a) in pos.items()}
            for s, badge in badges.items():
                assert not badge.colliderect(rects["header"]), f"seat {s}'s badge: header"
                for t, box in seats.items():
                    assert t == s or not badge.colliderect(box), \
                        f"seat {s}'s badges lie over seat {t}'s box"
            if not won:  # one badge a seat at most but the holder's
                for (a, ra), (b, rb) in itertools.combinations(badges.items(), 2):
                    assert not ra.colliderect(rb) or not (ra.w and rb.w), (a, b)
