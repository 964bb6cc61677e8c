"""A seat's box on the table screen and the badges beside it, each drawn once per look and
blitted after that (:mod:`pi_app.screens.parts`).

The box holds the seat's cards (faces only from ``SeatPublic.shown_cards``, backs for an
unrevealed hand, no card space when it holds none), the player's name and stack, the seat's
number and a band saying what matters most about the seat now: its hand at showdown, TO
ACT with the amount to call, ALL IN, DISPLAY OFFLINE, FOLDED or SITTING OUT (the offline
display is in the box, its edge red, not in a badge under it that would lie over the next
seat or the hand's corner).  Design pixels of the table's
canvas (:mod:`pi_app.screens.table`), a box :data:`SEAT_W` x :data:`SEAT_H`.
"""

from __future__ import annotations

import pygame

from engine.views import SeatPublic, TablePublicView
from pi_app.screens.cardart import draw_back, draw_face
from pi_app.screens.parts import blit_part
from pi_app.screens.theme import (
    ACCENT,
    GREEN,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RED,
    TEXT,
    Canvas,
    fit_text,
    fmt_chips,
    legible_px,
)

SEAT_W, SEAT_H = 390, 164
BOX_RADIUS = 16  #: design px of a box's rounded corners (inside them the box is opaque)
SMALL_CARD = (52, 74)

#: the band at the bottom of a box: (text, background or None, text colour)
Band = tuple[str, tuple[int, int, int] | None, tuple[int, int, int]]


def legible(cv: Canvas) -> float:
    """The legible text size of ``cv`` in its design units (see
    :func:`pi_app.screens.theme.legible_px`)."""
    return legible_px("bold", cv.screen_h) / cv.s


OFFLINE_BAND: Band = ("DISPLAY OFFLINE", RED, TEXT)


def seat_band(cv: Canvas, view: TablePublicView, s: SeatPublic, description: str,
              acting: bool, offline: bool = False) -> Band | None:
    """What the band of ``s``'s box says, or None for no band: the hand shown, TO ACT,
    ALL IN, else DISPLAY OFFLINE when the seat's display is offline, else FOLDED or
    SITTING OUT."""
    if description:
        return (description, (235, 235, 240), (10, 10, 10))
    if acting:
        legal = view.legal
        to_call = legal.call_amount if legal is not None else view.to_call
        text = f"TO ACT • CALL {fmt_chips(to_call)}" if to_call else "TO ACT • CHECK"
        if _too_wide(cv, text, cv.px(SEAT_W - 22)):  # the gold edge says "to act"
            text = text.split(" • ", 1)[1]
        return (text, ACCENT, (10, 10, 10))
    if s.status == "all_in":
        return ("ALL IN", RED, TEXT)
    if offline:
        return OFFLINE_BAND
    return {"folded": ("FOLDED", None, MUTED), "out": ("SITTING OUT", None, MUTED)}.get(s.status)


def draw_seat_box(cv: Canvas, s: SeatPublic, x0: float, y0: float, *, acting: bool,
                  won: bool, offline: bool, band: Band | None) -> pygame.Rect:
    """The box of ``s`` with its top left corner at design (x0, y0) of ``cv``: its edge
    gold while the seat is to act, green when it wins a pot, else red while its display
    is offline.  Returns the real rect drawn.

    A box is kept without its stack and band, which are drawn over it in place, in the
    order a whole box draws them (the last things drawn in it, so the pixels are the
    same): the box of a seat whose stack or band alone changed (a bet, the blinds and ante
    of a new hand, TO ACT with its amount to call) is blitted again rather than drawn
    anew."""
    rect = cv.rect(x0, y0, SEAT_W, SEAT_H)
    key = ("seat", s.seat, s.name, s.status, s.has_cards, s.shown_cards, acting, won,
           offline)
    blit_part(cv, key, rect, (SEAT_W, SEAT_H),
              lambda pc: _box(pc, s, acting=acting, won=won, offline=offline, band=None,
                              stack=False))
    inside = Canvas(cv.surface, rect, (SEAT_W, SEAT_H), faces=cv.faces, scale=cv.s,
                    screen_h=cv.screen_h)
    inside.ox, inside.oy = rect.topleft  # where the part's own canvas has (0, 0)
    _stack(inside, s)
    if band is not None:
        _band(inside, band, legible(inside))
    return rect


#: design px from a shown card to the next: the second overlaps the first by 12, clear
#: of its rank and suit (drawn in its middle)
FACE_STEP = 40
BACK_STEP = SMALL_CARD[0] * 0.55  #: design px from a card back to the next
NUMBER_W = 40  #: design px kept right of the stack for the seat's number


def _text_x(s: SeatPublic) -> float:
    """Design x of the name and stack in a box: right of the cards, when it holds any.
    The name has 274 design px with cards shown, 283 with backs, 366 without: a name of
    12 characters of common width fits whole at the legible size of 720p ("Zoë Ångström"
    264; twelve of the widest letters, "WWWWWWWWWWWW" 432, do not)."""
    folded = s.status in ("folded", "out")
    if s.shown_cards:
        return 10 + FACE_STEP + SMALL_CARD[0] + 6
    return 10 + BACK_STEP + SMALL_CARD[0] + 8 if s.has_cards and not folded else 16


def _stack(cv: Canvas, s: SeatPublic) -> None:
    """The stack in the box of ``s`` (``cv``: the box's canvas, (0, 0) its corner)."""
    folded = s.status in ("folded", "out")
    tx, lg = _text_x(s), legible(cv)
    cv.text(fmt_chips(s.stack), "bold", max(38.0, lg), ACCENT if not folded else MUTED,
            (tx, _stack_y(lg)), max_width=SEAT_W - tx - 10 - NUMBER_W)


def _stack_y(lg: float) -> float:
    """Design y of the top of the stack's row in a box (``lg``: :func:`legible`)."""
    return 8 + max(34.0, lg) * 1.17


def _box(cv: Canvas, s: SeatPublic, *, acting: bool, won: bool, offline: bool,
         band: Band | None, stack: bool = True) -> None:
    folded = s.status in ("folded", "out")
    fill = PANEL if not folded else (18, 22, 30)
    edge = ACCENT if acting else GREEN if won else RED if offline else PANEL_EDGE
    cv.panel(cv.rect(0, 0, SEAT_W, SEAT_H), fill=fill, edge=edge, radius=BOX_RADIUS,
             width=7 if (acting or won or offline) else 3)
    # cards on the left: faces only from shown_cards, backs for unrevealed hands; a seat
    # without cards gives their space to its name and stack
    cw, ch = SMALL_CARD
    if s.shown_cards:
        for i, c in enumerate(s.shown_cards[:2]):
            draw_face(cv, cv.rect(10 + i * FACE_STEP, 10, cw, ch), c)
    elif s.has_cards and not folded:
        for i in range(2):
            draw_back(cv, cv.rect(10 + i * BACK_STEP, 10, cw, ch))
    tx = _text_x(s)
    tw = SEAT_W - tx - 8
    lg = legible(cv)
    cv.text(s.name or f"Seat {s.seat}", "bold", max(34.0, lg), TEXT if not folded else MUTED,
            (tx, 4), max_width=tw)
    # the seat's number (printed on the felt too) ends the stack's row, leaving the name
    # the box's whole width right of the cards
    cv.text(str(s.seat), "bold", 22, MUTED, (SEAT_W - 10, _stack_y(lg) + 4), "topright",
            minor=True)
    if stack:
        _stack(cv, s)
    if band is not None:
        _band(cv, band, lg)


def _band(cv: Canvas, band: Band, lg: float) -> None:
    text, bg, fg = band
    bh = max(40.0, lg * 1.2)
    r = cv.rect(6, SEAT_H - bh - 6, SEAT_W - 12, bh)
    if bg is not None:
        pygame.draw.rect(cv.surface, bg, r, border_radius=cv.px(10))
    if bg == (235, 235, 240):  # a hand: "Full House, Fours over Kings" -> "Full House"
        text = _short_description(cv, text, r.w - cv.px(10))
    elif band == OFFLINE_BAND and _too_wide(cv, text, r.w - cv.px(10)):
        text = "OFFLINE"  # the red edge and the status strip say which display
    cv.text_px(text, "bold", cv.px(30), fg, r.center, "center", max_width=r.w - cv.px(10))


def _too_wide(cv: Canvas, text: str, width: int) -> bool:
    """Whether ``text`` at the legible size is wider than ``width`` real px."""
    return fit_text("bold", legible_px("bold", cv.screen_h), text, TEXT,
                    None).get_width() > width


def _short_description(cv: Canvas, text: str, width: int) -> str:
    """A hand's description, or only its category (before the comma) when the whole does
    not fit ``width`` real px at the legible size."""
    return text.split(",", 1)[0] if _too_wide(cv, text, width) else text


def pill_height(cv: Canvas) -> float:
    """Design height of a badge (:func:`draw_pill`)."""
    size = max(cv.px(26), legible_px("bold", cv.screen_h))
    return fit_text("bold", size, "B", TEXT, None).get_height() / cv.s + 4


def pill_width(cv: Canvas, text: str) -> float:
    """Design width of the badge saying ``text`` (:func:`draw_pill`)."""
    size = max(cv.px(26), legible_px("bold", cv.screen_h))
    return fit_text("bold", size, text, TEXT, cv.px(SEAT_W * 1.5)).get_width() / cv.s + 28


def draw_pill(cv: Canvas, text: str, bg, fg, x: float, y: float,
              above: bool) -> pygame.Rect:
    """A badge centred on design x, its bottom (above=True) or top at y, kept inside the
    canvas ("CHIP LEADER", "BOUNTY", "WINS 6,400"); returns the real rect drawn."""
    size = max(cv.px(26), legible_px("bold", cv.screen_h))
    surf = fit_text("bold", size, text, fg, cv.px(SEAT_W * 1.5))
    h = surf.get_height() / cv.s + 4
    w = pill_width(cv, text)
    x = min(max(x, w / 2 + 4), cv.dw - w / 2 - 4)
    top = y - h if above else y
    top = min(max(top, 2), cv.dh - h - 2)
    return blit_part(cv, ("pill", text, bg, fg), cv.rect(x - w / 2, top, w, h), (w, h),
                     lambda pc: _pill(pc, text, bg, fg, size))


def _pill(cv: Canvas, text: str, bg, fg, size: int) -> None:
    r = cv.surface.get_rect()
    pygame.draw.rect(cv.surface, bg, r, border_radius=r.h // 2)
    cv.text_px(text, "bold", size, fg, r.center, "center", max_width=cv.px(SEAT_W * 1.5))
