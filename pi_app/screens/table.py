"""The table screen: seats around an oval with names and stacks, the button and blinds,
whose turn it is and the amount to call, current bets, the pots (main and side), the board,
and at showdown the shown hands with their descriptions, each pot's winners and the chips
pushed.

Secrets: the only card faces drawn are the board and ``SeatPublic.shown_cards``; a seat
holding unrevealed cards (``has_cards``) gets card *backs*.  ``ShowdownLine.cards`` is never
drawn (only its description), so nothing outside ``shown_cards`` can reach the screen.

Coordinates are design pixels of the canvas given (1920x1080 for the full screen, the
table column of the split layout otherwise); seats sit on an ellipse, clockwise from the
dealer's left with the dealer at the top centre.
"""

from __future__ import annotations

import math

import pygame

from engine.views import SeatPublic, TablePublicView
from pi_app.screens.cardart import draw_back, draw_face, draw_slot
from pi_app.screens.theme import (
    ACCENT,
    BG,
    FELT,
    FELT_DARK,
    FELT_EDGE,
    GREEN,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    RED,
    TEXT,
    Canvas,
    fit_text,
    fmt_chips,
    fmt_short,
)

SEAT_W, SEAT_H = 340, 150
SMALL_CARD = (62, 87)
BOARD_CARD = (118, 165)
MARKER_GAP = 34  # design px from the seat box edge (towards the centre) to the markers
STREET_NAMES = {"preflop": "PRE-FLOP", "flop": "FLOP", "turn": "TURN", "river": "RIVER",
                "showdown": "SHOWDOWN", "complete": "HAND OVER"}


def seat_positions(cv: Canvas, seat_numbers: list[int]) -> dict[int, tuple[float, float, float]]:
    """Seat number -> (x, y, angle) of the seat box centre in design pixels.

    Positions are for the table size ``max(len, max seat)`` (at least 6), so a seat keeps its
    place as players bust.  Angle 0 is the top (the dealer), clockwise."""
    n = max([6, len(seat_numbers)] + seat_numbers)
    out = {}
    for s in seat_numbers:
        a = 2 * math.pi * s / (n + 1)
        x, y = _on_ellipse(cv, a, 1.0)
        out[s] = (x, y, a)
    return out


def _on_ellipse(cv: Canvas, a: float, k: float) -> tuple[float, float]:
    """A point at angle ``a`` on the seat curve: a superellipse (exponent 0.7 on sin/cos) so
    neighbouring seats near the top and bottom keep apart on narrow tables."""
    cx, cy = cv.dw / 2, cv.dh / 2
    rx, ry = cv.dw / 2 - SEAT_W / 2 - 14, cv.dh / 2 - SEAT_H / 2 - 12
    sx, sy = math.sin(a), math.cos(a)
    fx = math.copysign(abs(sx) ** 0.7, sx)
    fy = math.copysign(abs(sy) ** 0.7, sy)
    return cx + k * rx * fx, cy - k * ry * fy


def draw_table(cv: Canvas, view: TablePublicView, offline_seats: frozenset[int] = frozenset()
               ) -> None:
    """Draw the whole table screen for ``view`` into ``cv`` (background included).

    ``offline_seats``: seats whose display failed (shown as DISPLAY OFFLINE) in addition to
    ``SeatPublic.display_online`` False."""
    surf = cv.surface
    pygame.draw.rect(surf, BG, cv.area)
    # crowded tables (narrow canvas, nine or ten seats) are drawn at a smaller scale
    n = max([6, len(view.seats)] + [s.seat for s in view.seats])
    k = (1.0 if cv.dw >= 1600 else 0.86) * (0.86 if n >= 9 else 1.0)
    if k < 1.0:
        cv = Canvas(surf, cv.area, (cv.dw / k, cv.dh / k), cv.faces)
    # felt
    felt = cv.rect(SEAT_W * 0.5, SEAT_H * 0.62, cv.dw - SEAT_W, cv.dh - SEAT_H * 1.24)
    pygame.draw.ellipse(surf, FELT_EDGE, felt)
    pygame.draw.ellipse(surf, FELT_DARK, felt.inflate(-cv.px(36), -cv.px(36)))
    pygame.draw.ellipse(surf, FELT, felt.inflate(-cv.px(56), -cv.px(56)))
    cx, cy = cv.dw / 2, cv.dh / 2
    # hand header in the bottom-right corner (outside the oval, clear of every seat)
    lines = [(f"HAND #{view.hand_number}", 32, TEXT),
             (STREET_NAMES.get(view.street, view.street.upper()), 32, ACCENT)]
    blinds = f"BLINDS {fmt_chips(view.small_blind)} / {fmt_chips(view.big_blind)}"
    if view.ante:
        blinds += f"  ANTE {fmt_chips(view.ante)}"
    lines.append((blinds, 24, MUTED))
    yb = cv.dh - 10
    for text, size, colour in reversed(lines):
        r = cv.text(text, "bold", size, colour, (cv.dw - 16, yb), "bottomright",
                    max_width=min(380, cv.dw * 0.26))
        yb -= r.h / cv.s + 2
    _draw_pots(cv, view, cy - 150)
    _draw_board(cv, view, cy - 92)
    _draw_results(cv, view, cy + 90)
    if view.message:
        cv.text(view.message, "bold", 30, TEXT, (cx, cy + 90 + 36 * _n_results(view) + 6),
                "midtop", max_width=cv.dw * 0.5)
    pos = seat_positions(cv, [s.seat for s in view.seats] or [1])
    descr = {ln.seat: ln.description for ln in view.showdown}
    won: dict[int, int] = {}
    for p in view.pots:
        for seat, chips in p.awarded:
            won[seat] = won.get(seat, 0) + chips
    for line in view.showdown:
        if line.won and line.seat not in won:
            won[line.seat] = line.won
    for s in view.seats:
        x, y, a = pos[s.seat]
        if s.status == "empty":
            _draw_empty_seat(cv, s, x, y)
            continue
        _draw_bet_and_markers(cv, s, x, y)
        offline = (not s.display_online) or s.seat in offline_seats
        _draw_seat(cv, view, s, x, y, offline, descr.get(s.seat, ""), won.get(s.seat, 0))


def _draw_empty_seat(cv: Canvas, s: SeatPublic, x: float, y: float) -> None:
    r = cv.rect(x - 70, y - 45, 140, 90)
    pygame.draw.rect(cv.surface, (30, 36, 48), r, width=cv.px(3), border_radius=cv.px(16))
    cv.text(f"SEAT {s.seat}", "bold", 22, (90, 100, 118), (x, y), "center")


def _inward(cv: Canvas, x: float, y: float, extra: float) -> tuple[float, float]:
    """The point ``extra`` design px beyond the seat box edge, towards the table centre."""
    dx, dy = cv.dw / 2 - x, cv.dh / 2 - y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    edge = min((SEAT_W / 2) / abs(ux) if abs(ux) > 1e-6 else 1e9,
               (SEAT_H / 2) / abs(uy) if abs(uy) > 1e-6 else 1e9)
    return x + ux * (edge + extra), y + uy * (edge + extra)


def _draw_bet_and_markers(cv: Canvas, s: SeatPublic, x: float, y: float) -> None:
    surf = cv.surface
    markers = []
    if s.is_button:
        markers.append(("D", (245, 245, 245), (10, 10, 10)))
    if s.is_small_blind:
        markers.append(("SB", (60, 130, 230), TEXT))
    if s.is_big_blind:
        markers.append(("BB", ORANGE, (10, 10, 10)))
    sideways = abs(cv.dw / 2 - x) > abs(cv.dh / 2 - y)
    marker_extent = (len(markers) * 29 if sideways else 25) if markers else 0
    if markers:
        mx, my = _inward(cv, x, y, MARKER_GAP + (marker_extent - 25))
        total = len(markers) * 58
        for i, (label, bg, fg) in enumerate(markers):
            px = mx - total / 2 + 29 + i * 58
            pygame.draw.circle(surf, bg, cv.point(px, my), cv.px(25))
            pygame.draw.circle(surf, (20, 20, 20), cv.point(px, my), cv.px(25), cv.px(2))
            cv.text(label, "bold", 24 if len(label) == 1 else 19, fg, (px, my), "center")
    if s.bet > 0:
        chips = fit_text("bold", cv.px(34), fmt_chips(s.bet), TEXT, None)
        w = chips.get_width() / cv.s + 44
        pill_extent = w / 2 if sideways else 24
        start = MARKER_GAP - 25 + (2 * marker_extent + 12 if markers else 0)
        bx, by = _inward(cv, x, y, start + pill_extent)
        r = cv.rect(bx - w / 2, by - 24, w, 48)
        pygame.draw.rect(surf, (8, 40, 26), r, border_radius=r.h // 2)
        chip = cv.point(bx - w / 2 + 22, by)
        pygame.draw.circle(surf, (235, 235, 235), chip, cv.px(16))
        pygame.draw.circle(surf, RED, chip, cv.px(12))
        surf.blit(chips, chips.get_rect(midleft=cv.point(bx - w / 2 + 42, by)))


def _draw_seat(cv: Canvas, view: TablePublicView, s: SeatPublic, x: float, y: float,
               offline: bool, description: str, won: int) -> None:
    acting = view.actor == s.seat and view.street not in ("showdown", "complete")
    folded = s.status in ("folded", "out")
    x0, y0 = x - SEAT_W / 2, y - SEAT_H / 2
    box = cv.rect(x0, y0, SEAT_W, SEAT_H)
    fill = PANEL if not folded else (18, 22, 30)
    edge = ACCENT if acting else (GREEN if won else PANEL_EDGE)
    cv.panel(box, fill=fill, edge=edge, radius=16, width=7 if (acting or won) else 3)
    # cards on the left: faces only from shown_cards, backs for unrevealed hands
    cw, ch = SMALL_CARD
    top = y0 + 12
    if s.shown_cards:
        for i, c in enumerate(s.shown_cards[:2]):
            draw_face(cv, cv.rect(x0 + 12 + i * (cw + 6), top, cw, ch), c)
    elif s.has_cards and not folded:
        for i in range(2):
            draw_back(cv, cv.rect(x0 + 12 + i * (cw * 0.55), top, cw, ch))
    tx = x0 + 12 + 2 * cw + 18
    tw = x0 + SEAT_W - tx - 12
    name = _fit_name(cv, s.name or f"Seat {s.seat}", tw - 24)
    cv.text(name, "bold", 30, TEXT if not folded else MUTED, (tx, y0 + 10), max_width=tw - 24)
    cv.text(str(s.seat), "bold", 22, MUTED, (x0 + SEAT_W - 12, y0 + 10), "topright")
    cv.text(fmt_chips(s.stack), "bold", 36, ACCENT if not folded else MUTED, (tx, y0 + 50),
            max_width=tw)
    # the band at the bottom of the box: what matters most about this seat now
    band: tuple[str, tuple[int, int, int] | None, tuple[int, int, int]] | None = None
    if description:
        band = (description, (235, 235, 240), (10, 10, 10))
    elif acting:
        legal = view.legal
        to_call = legal.call_amount if legal is not None else view.to_call
        band = ((f"TO ACT • CALL {fmt_chips(to_call)}" if to_call else "TO ACT • CHECK"),
                ACCENT, (10, 10, 10))
    elif s.status == "all_in":
        band = ("ALL IN", RED, TEXT)
    elif s.status == "folded":
        band = ("FOLDED", None, MUTED)
    elif s.status == "out":
        band = ("SITTING OUT", None, MUTED)
    if band is not None:
        text, bg, fg = band
        r = cv.rect(x0 + 8, y0 + SEAT_H - 46, SEAT_W - 16, 38)
        if bg is not None:
            pygame.draw.rect(cv.surface, bg, r, border_radius=cv.px(10))
        cv.text_px(text, "bold", cv.px(26), fg, r.center, "center", max_width=r.w - cv.px(10))
    if won:
        _pill(cv, f"WINS {fmt_chips(won)}", GREEN, (8, 20, 12), x, y0 - 2, above=True)
    if offline:
        _pill(cv, "DISPLAY OFFLINE", RED, TEXT, x, y0 + SEAT_H + 2, above=False)


def _fit_name(cv: Canvas, name: str, width: float) -> str:
    """``name`` cut with an ellipsis so it fits ``width`` design px at size 30, allowing the
    caller to shrink it down to 80%."""
    limit = cv.px(width) * 1.25
    if fit_text("bold", cv.px(30), name, TEXT, None).get_width() <= limit:
        return name
    while len(name) > 3 and fit_text("bold", cv.px(30), name + "…", TEXT,
                                     None).get_width() > limit:
        name = name[:-1]
    return name.rstrip() + "…"


def _pill(cv: Canvas, text: str, bg, fg, x: float, y: float, above: bool) -> None:
    """A pill centred on x, its bottom (above=True) or top at y, kept inside the canvas."""
    h = 38
    surf = fit_text("bold", cv.px(26), text, fg, cv.px(SEAT_W))
    w = surf.get_width() / cv.s + 28
    x = min(max(x, w / 2 + 4), cv.dw - w / 2 - 4)
    top = y - h if above else y
    top = min(max(top, 2), cv.dh - h - 2)
    r = cv.rect(x - w / 2, top, w, h)
    pygame.draw.rect(cv.surface, bg, r, border_radius=r.h // 2)
    cv.surface.blit(surf, surf.get_rect(center=r.center))


def _n_results(view: TablePublicView) -> int:
    return min(4, sum(1 for p in view.pots if p.awarded or p.winners))


def _draw_board(cv: Canvas, view: TablePublicView, top: float) -> None:
    k = min(1.0, cv.dw / 1700)
    cw, ch = BOARD_CARD[0] * k, BOARD_CARD[1] * k
    gap = 14 * k
    x0 = cv.dw / 2 - (5 * cw + 4 * gap) / 2
    for i in range(5):
        r = cv.rect(x0 + i * (cw + gap), top, cw, ch)
        if i < len(view.board):
            draw_face(cv, r, view.board[i])
        else:
            draw_slot(cv, r)


def _draw_pots(cv: Canvas, view: TablePublicView, y: float) -> None:
    pots = [p for p in view.pots if p.amount > 0 or p.awarded]
    if not pots:
        return
    parts = [f"{p.label.upper()}  {fmt_chips(p.amount)}" for p in pots]
    text = "     ".join(parts)
    cv.text(text, "bold", 40 if len(pots) <= 2 else 32, ACCENT, (cv.dw / 2, y), "midtop",
            max_width=cv.dw - 2 * SEAT_W - 80)


def _draw_results(cv: Canvas, view: TablePublicView, y: float) -> None:
    """Each awarded pot: "MAIN POT 1,200 -> Ann (seat 3)"; chips pushed per winner."""
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
    for i, line in enumerate(lines[:4]):
        cv.text(line, "bold", 28, GREEN, (cv.dw / 2, y + i * 36), "midtop",
                max_width=cv.dw - 2 * SEAT_W - 60)
