"""Where the seats' boxes go on the table screen, and the room left at the top centre.

The box centres lie on a superellipse (exponent :data:`EXPONENT` on sin and cos: a rounded
rectangle) inside the table's canvas, spaced evenly by *length in boxes*: a step across
the screen is counted in box widths (:data:`~pi_app.screens.seatbox.SEAT_W`), a step down
it in box heights (:data:`~pi_app.screens.seatbox.SEAT_H`).  Spaced by angle instead, the
seats crowd where the curve turns (two boxes of a ten-seat table overlapped near the
bottom corners); spaced by box lengths, neighbours keep at least a box apart along the
curve at every table size 2..10 and canvas the TV uses (tests/pi_app/screens/
test_seat_layout.py checks the boxes pairwise disjoint).

Slot 0 is the top centre (the dealer's place): no seat is ever there, so the hand's header
goes there (:func:`top_gap`).  Design pixels of the canvas given.
"""

from __future__ import annotations

import math
from functools import lru_cache

from pi_app.screens.seatbox import SEAT_H, SEAT_W
from pi_app.screens.theme import Canvas

EXPONENT = 0.5  #: of the seat curve's superellipse (1.0: an ellipse)
SAMPLES = 720  #: points along the curve used to measure it
MIN_SLOTS = 6  #: a table is laid out for six seats at least (so seats keep their places)


def table_size(seat_numbers: list[int]) -> int:
    """The number of seats the table is laid out for: ``max(6, len, max seat number)``."""
    return max([MIN_SLOTS, len(seat_numbers)] + seat_numbers)


def seat_positions(cv: Canvas, seat_numbers: list[int]) -> dict[int, tuple[float, float, float]]:
    """Seat number (1-based) -> (x, y, angle) of the seat box centre in design pixels.

    Positions are for :func:`table_size` seats, so a seat keeps its place as players bust;
    seat ``s`` is slot ``s`` of ``size + 1`` slots clockwise from the top centre (slot 0,
    the dealer's).  The angle is the direction from the canvas's centre in radians,
    clockwise from the top."""
    n = table_size(seat_numbers)
    points = _slots(float(cv.dw), float(cv.dh), n)
    out = {}
    for s in seat_numbers:
        x, y = points[s]
        out[s] = (x, y, math.atan2(x - cv.dw / 2, cv.dh / 2 - y) % (2 * math.pi))
    return out


def top_gap(cv: Canvas, seat_numbers: list[int]) -> float:
    """Design width free between the boxes of the last seat and seat 1 at the top centre
    (the boxes' edges, whatever seats are taken)."""
    n = table_size(seat_numbers)
    x1, _y1 = _slots(float(cv.dw), float(cv.dh), n)[1]
    return 2 * (x1 - cv.dw / 2) - SEAT_W


@lru_cache(maxsize=64)
def _slots(dw: float, dh: float, n: int) -> tuple[tuple[float, float], ...]:
    """The ``n + 1`` slot centres (slot 0 at the top centre) evenly spaced by box lengths
    along the curve of a ``dw`` x ``dh`` canvas."""
    pts = [_on_curve(dw, dh, 2 * math.pi * i / SAMPLES) for i in range(SAMPLES + 1)]
    length = [0.0]
    for (xa, ya), (xb, yb) in zip(pts, pts[1:], strict=False):
        length.append(length[-1] + math.hypot((xb - xa) / SEAT_W, (yb - ya) / SEAT_H))
    out = [pts[0]]
    j = 0
    for slot in range(1, n + 1):
        t = length[-1] * slot / (n + 1)
        while length[j + 1] < t:
            j += 1
        f = (t - length[j]) / ((length[j + 1] - length[j]) or 1.0)
        (xa, ya), (xb, yb) = pts[j], pts[j + 1]
        out.append((xa + f * (xb - xa), ya + f * (yb - ya)))
    return tuple(out)


def _on_curve(dw: float, dh: float, a: float) -> tuple[float, float]:
    """The point at parameter ``a`` (0 at the top, clockwise) of the seat curve: boxes
    centred on it keep 14 design px from the canvas's sides and 12 from its top and
    bottom."""
    rx, ry = dw / 2 - SEAT_W / 2 - 14, dh / 2 - SEAT_H / 2 - 12
    sx, sy = math.sin(a), math.cos(a)
    return (dw / 2 + rx * math.copysign(abs(sx) ** EXPONENT, sx),
            dh / 2 - ry * math.copysign(abs(sy) ** EXPONENT, sy))
