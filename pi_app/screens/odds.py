"""The live all-in odds panel on the TV, as broadcast tables show it.

Drawn over the layout while :attr:`engine.views.ScreenState.odds` is set, which the engine
does only once no player can act again in the hand (:mod:`engine.betting.odds_view`: all
betting closed, two or more live hands facing an all-in, hands tabled by Poker TDA Rule
16).  It is updated after each card because each card gives a new view.

One line per live hand: the name, its two cards, its chance to win the main pot outright
and to tie for it, in percent with one decimal; then one line per side pot with each
eligible hand's chance to win it.  The footer says how the odds were found: every runout
enumerated, or (preflop) a seeded Monte Carlo.  While the figures are being worked out
(:attr:`engine.views.OddsView.pending`) the hands are shown without figures and the footer
says "odds: working out".  Every text is at least 40 design pixels
high (3.7 % of the screen's height).
"""

from __future__ import annotations

from fractions import Fraction

import pygame

from engine.text import safe_text
from engine.views import OddsView
from pi_app.screens.cardart import draw_face
from pi_app.screens.parts import blit_part
from pi_app.screens.theme import ACCENT, GREEN, MUTED, PANEL, TEXT, Canvas

#: The panel's width in design pixels (1920x1080): centred across the bottom of the screen,
#: or in the split layout docked in the corner of the table's part (1300 wide).
PANEL_W = 1240
LINE = 74        #: design pixels per line
TEXT_SIZE = 44   #: design pixels of a hand's line
NOTE_SIZE = 40   #: design pixels of the smallest text (3.7 %)
CARD = (48, 67)  #: design size of a card face in the panel
MAX_HANDS = 6    #: lines of hands shown (a seventh hand all in is rare; the rest are cut)
MAX_POTS = 3     #: side pots listed


def percent(value: Fraction) -> str:
    """A chance as ``"37.5%"`` (one decimal, half up): ``percent(Fraction(3, 8))``."""
    tenths = (value * 1000 + Fraction(1, 2)) // 1
    return f"{tenths // 10}.{tenths % 10}%"


def panel_height(view: OddsView) -> int:
    """Design height of the panel for ``view``."""
    hands = min(len(view.hands), MAX_HANDS)
    pots = min(max(len(view.pots) - 1, 0), MAX_POTS)
    return 90 + LINE * (hands + pots) + 60


def draw_odds(cv: Canvas, view: OddsView, docked: bool = False) -> pygame.Rect:
    """Draw the odds panel for ``view`` and return its real rect: centred across the bottom
    of the screen, or ``docked`` in the bottom right corner (its outer edges just off the
    screen), over the table's part of the split layout and its hand's corner.  Drawn once
    per view (:mod:`pi_app.screens.parts`): the odds change only with a card."""
    h = panel_height(view)
    x, y = (1920 - PANEL_W) / 2, 1080 - h - 20
    if docked:
        x, y = 1920 - PANEL_W + 12, 1080 - h + 12
    return blit_part(cv, ("odds", view, docked), cv.rect(x, y, PANEL_W, h), (PANEL_W, h),
                     lambda pc: _panel(pc, view, h, docked))


def _panel(cv: Canvas, view: OddsView, h: int, docked: bool) -> None:
    """The panel in its own canvas, (0, 0) its top left corner."""
    x = y = 0
    r = cv.rect(x, y, PANEL_W, h)
    cv.panel(r, fill=PANEL, edge=ACCENT, radius=20, width=5)
    street = view.street.replace("preflop", "pre-flop").upper()
    cv.text(f"ALL IN \u2022 {street}", "bold", NOTE_SIZE, ACCENT, (x + 30, y + 20))
    if not view.pending:
        cv.text("WIN", "bold", NOTE_SIZE, MUTED, (x + PANEL_W - 260, y + 20), "topright")
        cv.text("TIE", "bold", NOTE_SIZE, MUTED, (x + PANEL_W - 30, y + 20), "topright")
    names = {hand.seat: hand.name or f"Seat {hand.seat}" for hand in view.hands}
    leader = max((hand.win for hand in view.hands), default=Fraction(0))
    row = y + 90
    for hand in view.hands[:MAX_HANDS]:
        for i, card in enumerate(hand.cards[:2]):
            draw_face(cv, cv.rect(x + 30 + i * (CARD[0] + 6), row - 6, *CARD), card)
        colour = GREEN if hand.win == leader and leader > 0 else TEXT
        cv.text(safe_text(names[hand.seat], 24), "bold", TEXT_SIZE, colour,
                (x + 150, row), max_width=PANEL_W - 600)
        if view.pending:
            row += LINE
            continue
        cv.text(percent(hand.win), "bold", TEXT_SIZE, colour, (x + PANEL_W - 260, row),
                "topright")
        cv.text(percent(hand.tie), "bold", TEXT_SIZE, MUTED, (x + PANEL_W - 30, row),
                "topright")
        row += LINE
    for pot in view.pots[1:1 + MAX_POTS]:
        parts = ", ".join(f"{safe_text(names.get(s, f'Seat {s}'), 12)} {percent(w)}"
                          for s, w in zip(pot.seats, pot.win, strict=True))
        cv.text(f"{pot.label}: {parts}", "bold", NOTE_SIZE, TEXT, (x + 30, row),
                max_width=PANEL_W - 60)
        row += LINE
    how = "every runout counted" if view.exact else "estimated from 120,000 boards"
    if view.pending:
        how = "odds: working out"
    cv.text(how, "sans", NOTE_SIZE, MUTED, (x + 30, y + h - (68 if docked else 56)))
