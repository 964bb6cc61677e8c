"""The table screen: seats around an oval with names and stacks, the button and blinds,
whose turn it is and the amount to call, current bets, the pots (main and side), the board,
and at showdown the shown hands with their descriptions, each pot's winners and the chips
pushed.

Secrets: the only card faces drawn are the board and ``SeatPublic.shown_cards``; a seat
holding unrevealed cards (``has_cards``) gets card *backs*.  ``ShowdownLine.cards`` is never
drawn (only its description), so nothing outside ``shown_cards`` can reach the screen.

Coordinates are design pixels of the canvas given (1920x1080 for the full screen, the
table column of the split layout otherwise); seats sit around the table clockwise from the
dealer's left with the dealer's place, at the top centre, holding the hand's header
(:mod:`pi_app.screens.seat_layout`).
"""

from __future__ import annotations

import math

import pygame

from engine.views import RoomView, SeatPublic, TablePublicView
from engine.wording import words
from pi_app.screens.cardart import draw_face, draw_slot
from pi_app.screens.regions import NOWHERE, Layer, Region, bounds, draw_layer
from pi_app.screens.seat_layout import seat_positions, table_size, top_gap
from pi_app.screens.seatbox import (
    BOX_RADIUS,
    SEAT_H,
    SEAT_W,
    Band,
    draw_pill,
    draw_seat_box,
    legible,
    pill_height,
    pill_width,
    seat_band,
)
from pi_app.screens.theme import (
    ACCENT,
    BG,
    FELT,
    FELT_DARK,
    FELT_EDGE,
    GREEN,
    LAYERS,
    MUTED,
    ORANGE,
    RED,
    TEXT,
    Canvas,
    fit_text,
    fmt_chips,
    fmt_short,
)

BOARD_CARD = (118, 165)
MARKER_GAP = 34  # design px from the seat box edge (towards the centre) to the markers
STREET_NAMES = {"preflop": "PRE-FLOP", "flop": "FLOP", "turn": "TURN", "river": "RIVER",
                "showdown": "SHOWDOWN", "complete": "HAND OVER"}


def draw_table(cv: Canvas, view: TablePublicView, offline_seats: frozenset[int] = frozenset(),
               room: RoomView | None = None) -> Layer:
    """Draw the whole table screen for ``view`` into ``cv`` (background included) and
    return it as a layer of regions (:func:`table_regions`, :mod:`pi_app.screens.regions`).

    ``offline_seats``: seats whose display failed (shown as DISPLAY OFFLINE) in addition to
    ``SeatPublic.display_online`` False.  The chip leader's seat (the most chips, stack and
    bet, when no one ties it) is marked CHIP LEADER, and with ``room`` the bounty chip's
    holder BOUNTY."""
    tcv, regions = table_regions(cv, view, offline_seats, room)
    return draw_layer(tcv, _draw_felt, regions)


def table_canvas(cv: Canvas, view: TablePublicView) -> Canvas:
    """The canvas the table is drawn in: ``cv``, or for a crowded table (nine or ten seats)
    or a narrow canvas the same area at a smaller scale."""
    n = table_size([s.seat for s in view.seats])
    k = (1.0 if cv.dw >= 1600 else 0.86) * (0.86 if n >= 9 else 1.0)
    if k < 1.0:
        return Canvas(cv.surface, cv.area, (cv.dw / k, cv.dh / k), cv.faces,
                      screen_h=cv.screen_h)
    return cv


def table_regions(cv: Canvas, view: TablePublicView,
                  offline_seats: frozenset[int] = frozenset(),
                  room: RoomView | None = None) -> tuple[Canvas, list[Region]]:
    """The table's canvas (:func:`table_canvas`) and its regions over the felt, in drawing
    order: the hand's header, the pots, the board, the results, the message, each seat
    (its bet and markers, then its box), then each seat's badges (over every box).  Each
    region's arguments are all that it draws from (see :func:`draw_table`)."""
    cv = table_canvas(cv, view)
    cy = cv.dh / 2
    bx0, btop, bcw, bch, bgap = _board_rect(cv, cy - 92)
    board = cv.rect(bx0, btop, 5 * bcw + 4 * bgap, bch)
    regions = [Region("header", _draw_hand_header,
                      (view.hand_number, view.street, view.small_blind, view.big_blind,
                       view.ante, top_gap(cv, [s.seat for s in view.seats] or [1]))),
               Region("pots", _draw_pots, (_pot_texts(view), cy - 150)),
               Region("board", _draw_board, (view.board, cy - 92)),
               Region("results", _draw_results, (_result_lines(view), cy + 90))]
    if view.message:
        regions.append(Region("message", _draw_message,
                              (view.message, cy + 90 + 36 * _n_results(view) + 6)))
    pos = seat_positions(cv, [s.seat for s in view.seats] or [1])
    descr = {ln.seat: ln.description for ln in view.showdown}
    won = _won_by_seat(view)
    leader = chip_leader(view)
    bounty = room.bounty_holder if room is not None else ""
    badges = []
    for s in view.seats:
        x, y, _a = pos[s.seat]
        if s.status == "empty":
            regions.append(Region(("seat", s.seat), _draw_empty_seat, (s, x, y)))
            continue
        marks = (won.get(s.seat, 0), s.seat == leader, bool(bounty) and s.name == bounty)
        above = bool(marks[0]) or marks[1] or marks[2]
        upward = y > cv.dh / 2 and abs(cv.dw / 2 - x) <= abs(cv.dh / 2 - y)
        offline = (not s.display_online) or s.seat in offline_seats
        acting = view.actor == s.seat and view.street not in ("showdown", "complete")
        band = seat_band(cv, view, s, descr.get(s.seat, ""), acting, offline)
        clear = pill_height(cv) + 4 if above and upward else 0
        regions.append(Region(("bet", s.seat), _draw_bet,
                              (_markers(s), s.bet, x, y, clear, board)))
        regions.append(Region(("seat", s.seat), _draw_seat,
                              (s, x, y, acting, bool(marks[0]), offline, band), _seat_rect,
                              _seat_opaque))
        if above:
            badges.append(Region(("badges", s.seat), _draw_badges, (x, y, *marks)))
    return cv, regions + badges


def _draw_hand_header(cv: Canvas, hand_number: int, street: str, small_blind: int,
                      big_blind: int, ante: int, width: float) -> pygame.Rect:
    """The hand's number, street, blinds and ante centred at the top of the table, in the
    dealer's place between the last seat's box and seat 1's (``width`` design px apart:
    :func:`pi_app.screens.seat_layout.top_gap`), so no box ever lies over it: two lines
    ("HAND #6 • SHOWDOWN", "200 / 400 • ANTE 400"), or one item a line when those do not
    fit.  Returns the real rect drawn."""
    stage = STREET_NAMES.get(street, street.upper())
    blinds = f"{fmt_chips(small_blind)} / {fmt_chips(big_blind)}"
    ante_text = f"ANTE {fmt_chips(ante)}" if ante else ""
    room = width - 24
    size = max(32.0, legible(cv))
    lines = [(f"HAND #{hand_number}  \u2022  {stage}", TEXT),
             (f"{blinds}  \u2022  {ante_text}" if ante_text else blinds, MUTED)]
    if any(_too_wide_at(cv, text, size, room) for text, _c in lines):
        lines = [(f"HAND #{hand_number}", TEXT), (stage, ACCENT), (blinds, MUTED)]
        lines += [(ante_text, MUTED)] if ante_text else []
    drawn, y = [], 8.0
    for text, colour in lines:
        r = cv.text(text, "bold", size, colour, (cv.dw / 2, y), "midtop", max_width=room)
        drawn.append(r)
        y += r.h / cv.s + 2
    return bounds(drawn)


def _too_wide_at(cv: Canvas, text: str, size: float, width: float) -> bool:
    """Whether ``text`` at design ``size`` is wider than ``width`` design px."""
    return fit_text("bold", cv.px(size), text, TEXT, None).get_width() > cv.px(width)


def _won_by_seat(view: TablePublicView) -> dict[int, int]:
    """Seat -> chips won in this hand: the pots awarded, else the showdown's lines."""
    won: dict[int, int] = {}
    for p in view.pots:
        for seat, chips in p.awarded:
            won[seat] = won.get(seat, 0) + chips
    for line in view.showdown:
        if line.won and line.seat not in won:
            won[line.seat] = line.won
    return won


def chip_leader(view: TablePublicView) -> int | None:
    """The seat with the most chips (stack plus bet), None on a tie or an empty table."""
    chips = sorted(((s.stack + s.bet, s.seat) for s in view.seats if s.status != "empty"),
                   reverse=True)
    if not chips or chips[0][0] <= 0 or (len(chips) > 1 and chips[1][0] == chips[0][0]):
        return None
    return chips[0][1]


def _draw_badges(cv: Canvas, x: float, y: float, won: int, leader: bool,
                 bounty: bool) -> pygame.Rect:
    """WINS and the chips won above the seat, else CHIP LEADER; BOUNTY above it too, or when
    that place is taken, below it, or when there is no room below (a seat at the bottom),
    beside it, the two centred together above the seat (stacked higher they would lie over
    the next seat's box).  Returns the real rect drawn."""
    y0 = y - SEAT_H / 2
    first = (f"WINS {fmt_chips(won)}", GREEN, (8, 20, 12)) if won else \
        ("CHIP LEADER", ACCENT, (10, 10, 10)) if leader else None
    second = ("BOUNTY", (150, 90, 230), TEXT) if bounty else None
    if first is None or second is None:
        only = first or second
        return draw_pill(cv, *only, x, y0 - 2, above=True) if only else pygame.Rect(NOWHERE)
    if y0 + SEAT_H + 4 + pill_height(cv) <= cv.dh:
        return bounds([draw_pill(cv, *first, x, y0 - 2, above=True),
                       draw_pill(cv, *second, x, y0 + SEAT_H + 2, above=False)])
    w1, w2 = pill_width(cv, first[0]), pill_width(cv, second[0])
    left = x - (w1 + w2 + 8) / 2
    return bounds([draw_pill(cv, *first, left + w1 / 2, y0 - 2, above=True),
                   draw_pill(cv, *second, left + w1 + 8 + w2 / 2, y0 - 2, above=True)])


def _draw_empty_seat(cv: Canvas, s: SeatPublic, x: float, y: float) -> pygame.Rect:
    r = cv.rect(x - 70, y - 45, 140, 90)
    pygame.draw.rect(cv.surface, (30, 36, 48), r, width=cv.px(3), border_radius=cv.px(16))
    return r.union(cv.text(f"SEAT {s.seat}", "bold", 22, (90, 100, 118), (x, y), "center",
                           minor=True))


def _felt_layer(cv: Canvas) -> pygame.Surface:
    """The background of the table's area with the felt drawn on it, made once per area
    and scale (:data:`pi_app.screens.theme.LAYERS`, bounded by bytes)."""
    area = cv.area

    def make() -> pygame.Surface:
        layer = pygame.Surface(area.size)
        layer.fill(BG)
        felt = cv.rect(SEAT_W * 0.5, SEAT_H * 0.62, cv.dw - SEAT_W, cv.dh - SEAT_H * 1.24)
        felt.move_ip(-area.x, -area.y)
        pygame.draw.ellipse(layer, FELT_EDGE, felt)
        pygame.draw.ellipse(layer, FELT_DARK, felt.inflate(-cv.px(36), -cv.px(36)))
        pygame.draw.ellipse(layer, FELT, felt.inflate(-cv.px(56), -cv.px(56)))
        return layer

    return LAYERS.get(("felt", tuple(area), cv.dw, cv.dh, cv.s), make)


def _draw_felt(cv: Canvas) -> None:
    cv.surface.blit(_felt_layer(cv), cv.area.topleft)


def _inward(cv: Canvas, x: float, y: float, extra: float) -> tuple[float, float]:
    """The point ``extra`` design px beyond the seat box edge, towards the table centre."""
    dx, dy = cv.dw / 2 - x, cv.dh / 2 - y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    edge = min((SEAT_W / 2) / abs(ux) if abs(ux) > 1e-6 else 1e9,
               (SEAT_H / 2) / abs(uy) if abs(uy) > 1e-6 else 1e9)
    return x + ux * (edge + extra), y + uy * (edge + extra)


Marker = tuple[str, tuple[int, int, int], tuple[int, int, int]]


def _markers(s: SeatPublic) -> tuple[Marker, ...]:
    """The seat's markers: (label, background, text colour) of the button and blinds."""
    markers: list[Marker] = []
    if s.is_button:
        markers.append(("D", (245, 245, 245), (10, 10, 10)))
    if s.is_small_blind:
        markers.append(("SB", (60, 130, 230), TEXT))
    if s.is_big_blind:
        markers.append(("BB", ORANGE, (10, 10, 10)))
    return tuple(markers)


def _draw_markers(cv: Canvas, markers: tuple[Marker, ...], mx: float, my: float,
                  rad: float) -> list[pygame.Rect]:
    """The markers side by side centred on design (mx, my), each a disc of radius ``rad``
    design px; returns the real rects drawn."""
    drawn = []
    total = len(markers) * (2 * rad + 8)
    for i, (label, bg, fg) in enumerate(markers):
        px = mx - total / 2 + rad + 4 + i * (2 * rad + 8)
        centre, radius = cv.point(px, my), cv.px(rad)
        pygame.draw.circle(cv.surface, bg, centre, radius)
        pygame.draw.circle(cv.surface, (20, 20, 20), centre, radius, cv.px(2))
        drawn.append(_disc(centre, radius))
        drawn.append(cv.text(label, "bold", 24 if len(label) == 1 else 19, fg, (px, my),
                             "center"))
    return drawn


def _disc(centre: tuple[int, int], radius: int) -> pygame.Rect:
    """The real rect holding a disc drawn with ``pygame.draw.circle``."""
    return pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius + 1, 2 * radius + 1)


def _draw_bet(cv: Canvas, markers: tuple[Marker, ...], bet: int, x: float, y: float,
              clear: float = 0, board: pygame.Rect | None = None) -> pygame.Rect:
    """The button and blind ``markers`` (:func:`_markers`) and the ``bet``, beyond the box
    of the seat centred on design (x, y) towards the table's centre, and ``clear`` design
    px higher (a badge above a seat in the lower half); a bet that would lie over the
    ``board`` (real px: a narrow table) goes just under it.  Returns the real rect drawn
    (empty: neither markers nor a bet)."""
    surf = cv.surface
    if clear:  # along the way to the centre: as far as rises ``clear``
        up = abs(cv.dh / 2 - y) / (math.hypot(cv.dw / 2 - x, cv.dh / 2 - y) or 1.0)
        clear /= max(up, 0.3)
    sideways = abs(cv.dw / 2 - x) > abs(cv.dh / 2 - y)
    lg = legible(cv)
    rad = max(25.0, lg * 0.8)  # a marker's radius: its letters at the legible size fit
    marker_extent = (len(markers) * (rad + 4) if sideways else rad) if markers else 0
    drawn = []
    if markers:
        mx, my = _inward(cv, x, y, MARKER_GAP + clear + (marker_extent - rad))
        drawn += _draw_markers(cv, markers, mx, my, rad)
    if bet > 0:
        size = max(34.0, lg)
        chips = fit_text("bold", cv.px(size), fmt_chips(bet), TEXT, None)
        w = chips.get_width() / cv.s + 44
        ph = chips.get_height() / cv.s + 8
        pill_extent = w / 2 if sideways else ph / 2
        start = MARKER_GAP + clear - rad + (2 * marker_extent + 12 if markers else 0)
        bx, by = _inward(cv, x, y, start + pill_extent)
        r = cv.rect(bx - w / 2, by - ph / 2, w, ph)
        if board is not None and r.colliderect(board.inflate(cv.px(12), cv.px(12))):
            r.top = board.bottom + cv.px(8)
            by = (r.centery - cv.oy) / cv.s
        pygame.draw.rect(surf, (8, 40, 26), r, border_radius=r.h // 2)
        chip = cv.point(bx - w / 2 + 22, by)
        pygame.draw.circle(surf, (235, 235, 235), chip, cv.px(16))
        pygame.draw.circle(surf, RED, chip, cv.px(12))
        drawn += [r, _disc(chip, cv.px(16)),
                  cv.text_px(fmt_chips(bet), "bold", cv.px(size), TEXT,
                             cv.point(bx - w / 2 + 42, by), "midleft")]
    return bounds(drawn)


def _draw_seat(cv: Canvas, s: SeatPublic, x: float, y: float, acting: bool, won: bool,
               offline: bool, band: Band | None) -> pygame.Rect:
    """A seat's box (:func:`draw_seat_box`) centred on design (x, y), drawn after its bet
    and markers (:func:`_draw_bet`); returns its real rect (:func:`_seat_rect`)."""
    return draw_seat_box(cv, s, x - SEAT_W / 2, y - SEAT_H / 2, acting=acting, won=won,
                         offline=offline, band=band)


def _seat_rect(cv: Canvas, s: SeatPublic, x: float, y: float, *_look: object) -> pygame.Rect:
    """The real rect of the box of ``s`` centred on design (x, y), without drawing it."""
    return cv.rect(x - SEAT_W / 2, y - SEAT_H / 2, SEAT_W, SEAT_H)


def _seat_opaque(cv: Canvas, s: SeatPublic, x: float, y: float,
                 *_look: object) -> pygame.Rect:
    """The part of the box of ``s`` that covers whatever lies under it: the whole box but
    the rows of its rounded corners (:data:`BOX_RADIUS`, and a pixel more)."""
    inset = cv.px(BOX_RADIUS) + 1
    return _seat_rect(cv, s, x, y).inflate(0, -2 * inset)


def _n_results(view: TablePublicView) -> int:
    return min(4, sum(1 for p in view.pots if p.awarded or p.winners))


def _board_rect(cv: Canvas, top: float) -> tuple[float, float, float, float, float]:
    """(x0, top, card width, card height, gap) of the board in design px."""
    k = min(1.0, cv.dw / 1700)
    cw, ch = BOARD_CARD[0] * k, BOARD_CARD[1] * k
    gap = 14 * k
    return cv.dw / 2 - (5 * cw + 4 * gap) / 2, top, cw, ch, gap


def _draw_board(cv: Canvas, board: tuple, top: float) -> pygame.Rect:
    """The five board places at design ``top``: the cards dealt face up, outlines for the
    rest; returns the real rect drawn."""
    x0, top, cw, ch, gap = _board_rect(cv, top)
    drawn = []
    for i in range(5):
        r = cv.rect(x0 + i * (cw + gap), top, cw, ch)
        if i < len(board):
            draw_face(cv, r, board[i])
        else:
            draw_slot(cv, r)
        drawn.append(r)
    return bounds(drawn)


def _pot_texts(view: TablePublicView) -> tuple[str, ...]:
    """"MAIN POT  1,200" for each pot with chips in it or awarded."""
    return tuple(f"{p.label.upper()}  {fmt_chips(p.amount)}" for p in view.pots
                 if p.amount > 0 or p.awarded)


def _draw_pots(cv: Canvas, parts: tuple[str, ...], y: float) -> pygame.Rect:
    """The pots' texts above design ``y``: as many on a line as fit, the lines stacked
    upwards; returns the real rect drawn."""
    width = cv.dw - 2 * SEAT_W - 80
    size = max(36.0, legible(cv))
    lines: list[str] = []
    for part in parts:
        trial = f"{lines[-1]}     {part}" if lines else part
        if lines and fit_text("bold", cv.px(size), trial, ACCENT, None).get_width() \
                <= cv.px(width):
            lines[-1] = trial
        else:
            lines.append(part)
    step = size * 1.2
    return bounds([cv.text(line, "bold", size, ACCENT,
                           (cv.dw / 2, y - (len(lines) - 1 - i) * step), "midtop",
                           max_width=width) for i, line in enumerate(lines)])


def _result_lines(view: TablePublicView) -> tuple[str, ...]:
    """Each awarded pot: "Main pot: Ann +1.2K"; its winners while not yet awarded."""
    names = {s.seat: (s.name or f"Seat {s.seat}") for s in view.seats}
    lines = []
    for p in view.pots:
        if not p.awarded and not p.winners:
            continue
        if p.awarded:
            who = ", ".join(f"{names.get(seat, seat)} +{fmt_short(chips)}"
                            for seat, chips in p.awarded)
        else:
            who = ", ".join(str(names.get(seat, seat)) for seat in p.winners)
        lines.append(f"{p.label}: {who}")
    return tuple(lines[:4])


def _draw_results(cv: Canvas, lines: tuple[str, ...], y: float) -> pygame.Rect:
    """The result lines (:func:`_result_lines`) from design ``y`` down; the real rect."""
    return bounds([cv.text(line, "bold", 28, GREEN, (cv.dw / 2, y + i * 36), "midtop",
                           max_width=cv.dw - 2 * SEAT_W - 60) for i, line in enumerate(lines)])


def _draw_message(cv: Canvas, message: str, y: float) -> pygame.Rect:
    """The table's message under the results, at design ``y``, in words
    (:func:`engine.wording.words`); the real rect."""
    return cv.text(words(message), "bold", 30, TEXT, (cv.dw / 2, y), "midtop", max_width=cv.dw * 0.5)
