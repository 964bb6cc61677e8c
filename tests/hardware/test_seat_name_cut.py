"""A player's name on the seat display is whole or visibly cut: a name too long for the
head row (the registration limit is 24 characters) ends with "…", drawn as three dots on
the baseline, and fits the row.  (Issue: a 24-character name was cut to 20 characters with
no mark.)  Measured with the bitmap font's widths and the pixels drawn."""

from __future__ import annotations

import pytest

from engine.table.console_base import MAX_NAME
from engine.views import SeatDisplayView
from hardware.seat_render import ELLIPSIS, layout, render_seat_view, text_width, texts

NAMES = ["Ann", "Zoë Ångström", "Bartholomew", "X" * 19, "X" * 20, "Bartholomew Thirdington",
         "A" * MAX_NAME, "Jean-Baptiste Lefebvre X"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seat", [1, 9, 10])
def test_a_cut_name_ends_with_an_ellipsis_and_fits(name, seat):
    view = SeatDisplayView(seat=seat, name=name, stack=25_000)
    head = next(t for t in texts(view) if t.kind == "head")
    whole = f"{seat} {name.upper()}"
    assert text_width(head.text) <= layout(view).name_right
    if head.text != whole:
        assert head.text.endswith(ELLIPSIS), head.text
        assert whole.startswith(head.text[:-1])
        img = render_seat_view(view)
        x0 = text_width(head.text[:-1])
        dots = [x for x in range(x0, x0 + 6) if img.getpixel((x, head.xy[1] + 8))]
        assert len(dots) == 3, dots


def test_the_longest_name_is_cut():
    view = SeatDisplayView(seat=10, name="A" * MAX_NAME, stack=25_000)
    assert next(t for t in texts(view) if t.kind == "head").text.endswith(ELLIPSIS)
