"""Every text a seat's display draws fits its box, measured with the font, for the largest
stacks and amounts a tournament can have; a figure is never cut, only shortened to a
rounded form (12.81M) when the exact one does not fit.  (Issue: "WON 1,200" was said to be
cut; larger figures were: "F C12,810,000 R25,620" lost the raise's last digits, a huge
stack ran under the cards, and a long "RAISE TO" title started left of the screen.)"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from functools import cache, lru_cache

import pytest
from PIL import Image, ImageDraw

from engine.cards import parse_cards
from engine.table.venue_state import MAX_SEATS, MAX_TABLES
from engine.tournament.structure_check import MAX_STARTING_STACK
from engine.tournament.structure_file import load_structure, preset_names
from engine.views import LegalActions, SeatDisplayView
from hardware.seat_render import (
    HEIGHT,
    WIDTH,
    Box,
    Text,
    draw_small,
    figures,
    layout,
    render_seat_view,
    texts,
)

PLAYERS = MAX_TABLES * MAX_SEATS  # the most entries of one tournament (a full venue)


def _most_chips(name: str) -> int:
    """Every chip a tournament of the preset ``name`` can have in play: each entry's
    starting stack, the bounty chip and the biggest bonus the wheel can add."""
    s = load_structure(name)
    wheel = max(s.bonus_wheel.segments) if s.bonus_wheel else 0
    return PLAYERS * s.starting_stack + (s.bounty.chips if s.bounty else 0) + wheel


#: the biggest amounts of every preset, a few ordinary ones, and the most any structure the
#: checker accepts can put in play (abbreviated then, but still whole on the screen)
AMOUNTS = sorted({1_200, 9_999, 12_345, 999_999, 1_234_567, PLAYERS * MAX_STARTING_STACK}
                 | {_most_chips(n) for n in preset_names()})


def _states(total: int) -> dict[str, dict[str, object]]:
    """Every state of a seat, with every figure as big as ``total`` allows."""
    legal = LegalActions(can_fold=True, can_call=True, call_amount=total - 1,
                         min_raise_to=total - 1, max_raise_to=total)
    check = LegalActions(can_check=True, min_raise_to=total // 3, max_raise_to=total)
    return {
        "waiting": {},
        "to act": {"is_turn": True, "legal": legal},
        "to act, check or bet": {"is_turn": True, "legal": check, "bet": 0},
        "to act, call all-in": {"is_turn": True, "legal": replace(legal, min_raise_to=None)},
        "keying a raise": {"is_turn": True, "legal": legal, "pending_raise_to": total - 1},
        "keying all-in": {"is_turn": True, "legal": legal, "pending_raise_to": total},
        "keying with a note": {"is_turn": True, "legal": legal, "pending_raise_to": total - 1,
                               "message": "Raise must be at least the last raise"},
        "won": {"result": total - 1},
        "lost": {"result": -(total - 1)},
        "even": {"result": 0},
        "folded": {"status": "folded", "message": "Folded to a raise of a lot of chips"},
        "all in": {"status": "all_in", "stack": 0},
        "open seat": {"status": "empty", "name": ""},
        "out": {"status": "out", "message": "OUT - 640th of 640 players"},
    }


MARKERS = ({}, {"is_button": True, "is_big_blind": True}, {"is_small_blind": True})
HOLE_CARDS = ("", "Th", "ThTd")


@cache
def _views(total: int) -> list[tuple[str, SeatDisplayView]]:
    """``(what, view)`` of every state, seat, markers and cards, with figures up to ``total``."""
    out = []
    for seat, markers, cards in itertools.product((1, 10), MARKERS, HOLE_CARDS):
        base = SeatDisplayView(seat=seat, name="Bartholomew the Third", stack=total - 1,
                               bet=total - 2, to_call=total - 3,
                               hole_cards=tuple(parse_cards(cards)), **markers)
        for state, changes in _states(total).items():
            what = f"{total:,} chips, seat {seat}, {state}, {sorted(markers)}, {cards!r}"
            out.append((what, replace(base, **changes)))  # type: ignore[arg-type]
    return out


@lru_cache(maxsize=4096)
def _ink(text: str, big: bool) -> Box | None:
    """The lit pixels of ``text`` drawn with the display's font at (0, 0): (left, top,
    right, bottom), edges included, doubled for a big text; None when nothing is lit."""
    img = Image.new("1", (len(text) * 8 + 8, 16), 0)
    draw_small(ImageDraw.Draw(img), (0, 0), text, 1)  # as the display draws it ("…" too)
    bbox = img.getbbox()
    if bbox is None:
        return None
    left, top, right, bottom = bbox  # right and bottom exclusive
    k = 2 if big else 1
    return left * k, top * k, right * k - 1, bottom * k - 1


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and inner[2] <= outer[2] and outer[1] <= inner[1] \
        and inner[3] <= outer[3]


def _placed(t: Text) -> Box | None:
    ink = _ink(t.text, t.big)
    if ink is None:
        return None
    x, y = t.xy
    return ink[0] + x, ink[1] + y, ink[2] + x, ink[3] + y


def _amounts(view: SeatDisplayView) -> set[int]:
    legal = view.legal
    out = {view.stack, view.bet, view.to_call, abs(view.result or 0),
           view.pending_raise_to or 0}
    if legal is not None:
        out |= {legal.call_amount, legal.min_raise_to or 0, legal.max_raise_to or 0}
    return out


FIGURE = re.compile(r"\d[\d,.]*[KMBT]?")
FIGURE_ROWS = {"stack", "bet", "title", "actions", "result"}


def test_the_views_reach_the_largest_amounts():
    # the biggest preset puts over ten million chips in play: more than 9 digits to show
    assert max(_most_chips(n) for n in preset_names()) > 10_000_000
    assert all(len(_views(t)) == 2 * len(MARKERS) * len(HOLE_CARDS) * 14 for t in AMOUNTS)


@pytest.mark.parametrize("total", AMOUNTS)
def test_every_text_fits_its_box_and_the_screen(total: int) -> None:
    screen = (0, 0, WIDTH - 1, HEIGHT - 1)
    checked = 0
    for what, view in _views(total):
        for t in texts(view):
            ink = _placed(t)
            assert ink is not None or not t.text.strip(), (what, t)
            if ink is None:
                continue
            assert _inside(t.box, screen), (what, t)
            assert _inside(ink, t.box), (what, t.kind, t.text, ink, t.box)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("total", AMOUNTS)
def test_no_figure_is_cut(total: int) -> None:
    """Each figure shown is the amount, exact or rounded (figures()), never a cut one."""
    for what, view in _views(total):
        allowed = {form for a in _amounts(view) for form in figures(a)}
        for t in texts(view):
            if t.kind in FIGURE_ROWS:
                for fig in FIGURE.findall(t.text):
                    assert fig in allowed, (what, t.kind, t.text, fig)


@pytest.mark.parametrize("total", AMOUNTS)
def test_the_texts_do_not_touch_each_other_or_the_cards(total: int) -> None:
    for what, view in _views(total):
        boxes = [t.box for t in texts(view)] + list(layout(view).cards if
                                                    view.status not in ("empty", "out") else [])
        for a, b in itertools.combinations(boxes, 2):
            assert not (a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]), \
                (what, a, b)


@pytest.mark.parametrize("total", AMOUNTS)
def test_nothing_is_drawn_outside_the_boxes(total: int) -> None:
    """The picture lights only pixels inside the texts' boxes and the cards."""
    for what, view in _views(total)[::5]:
        img = render_seat_view(view)
        mask = Image.new("1", img.size, 0)
        draw = ImageDraw.Draw(mask)
        for t in texts(view):
            draw.rectangle(t.box, fill=1)
        if view.status not in ("empty", "out"):
            for card in layout(view).cards:
                draw.rectangle(card, fill=1)
        outside = [(x, y) for y in range(HEIGHT) for x in range(WIDTH)
                   if img.getpixel((x, y)) and not mask.getpixel((x, y))]
        assert outside == [], (what, outside[:5])


def test_won_1200_is_shown_whole_and_big():
    view = SeatDisplayView(seat=5, name="Ann", stack=25400, result=1200,
                           hole_cards=tuple(parse_cards("QhQc")))
    (result,) = [t for t in texts(view) if t.kind == "result"]
    assert result.text == "WON 1,200" and result.big
    ink = _placed(result)
    assert ink is not None and _inside(ink, (0, 0, WIDTH - 1, HEIGHT - 1))


def test_a_figure_is_exact_while_it_fits():
    view = SeatDisplayView(seat=3, name="Cy", stack=12_810_000, bet=1_000_000,
                           to_call=12_810_000, hole_cards=tuple(parse_cards("AsKd")))
    rows = {t.kind: t.text for t in texts(view)}
    assert rows["stack"] == "12,810,000"
    assert rows["bet"] == "B1M C12,810,000"  # the bet rounded before the amount to call
