"""Playing cards for the TV: faces (four-colour deck, readable across a bar) and backs.

:func:`draw_face` is the only place a card face is drawn; it records the card in
``canvas.faces`` so the secrets test can check that every face drawn was public (also when
the face is blitted from its part: :mod:`pi_app.screens.parts`).
"""

from __future__ import annotations

import pygame

from engine.cards import Card
from pi_app.screens.parts import blit_part
from pi_app.screens.theme import (
    CARD_BACK,
    CARD_FACE,
    RANK_TEXT,
    SUIT_COLOURS,
    SUIT_SYMBOLS,
    Canvas,
    text_surface,
)

CARD_RATIO = 1.4  # height / width


def draw_face(cv: Canvas, r: pygame.Rect, card: Card) -> None:
    """Card ``card`` face up in real rect ``r`` (rank and suit large, four colours), drawn
    once per card and size (:func:`pi_app.screens.parts.blit_part`)."""
    blit_part(cv, ("face", card), r, (r.w / cv.s, r.h / cv.s),
              lambda pc: _face(pc, pc.surface.get_rect(), card))


def _face(cv: Canvas, r: pygame.Rect, card: Card) -> None:
    cv.faces.append(card)
    surf = cv.surface
    rad = max(2, r.w // 10)
    pygame.draw.rect(surf, CARD_FACE, r, border_radius=rad)
    pygame.draw.rect(surf, (120, 120, 120), r, width=max(1, r.w // 60), border_radius=rad)
    colour = SUIT_COLOURS[card.suit]
    rank = RANK_TEXT.get(card.rank, card.rank)
    rs = text_surface("bold", max(8, int(r.h * 0.42)), rank, colour)
    if rs.get_width() > r.w * 0.9:
        rs = text_surface("cond", max(8, int(r.h * 0.38)), rank, colour)
    surf.blit(rs, rs.get_rect(midtop=(r.centerx, r.y + int(r.h * 0.04))))
    ss = text_surface("sans", max(8, int(r.h * 0.44)), SUIT_SYMBOLS[card.suit], colour)
    surf.blit(ss, ss.get_rect(midbottom=(r.centerx, r.bottom - int(r.h * 0.02))))


def draw_back(cv: Canvas, r: pygame.Rect, dim: bool = False) -> None:
    """A card face down (an unrevealed hand): red back with a light frame, drawn once per
    size."""
    blit_part(cv, ("back", dim), r, (r.w / cv.s, r.h / cv.s),
              lambda pc: _back(pc, pc.surface.get_rect(), dim))


def _back(cv: Canvas, r: pygame.Rect, dim: bool) -> None:
    surf = cv.surface
    rad = max(2, r.w // 10)
    base = CARD_BACK if not dim else (70, 30, 36)
    pygame.draw.rect(surf, (235, 235, 235) if not dim else (110, 110, 110), r, border_radius=rad)
    inner = r.inflate(-max(2, r.w // 8), -max(2, r.w // 8))
    pygame.draw.rect(surf, base, inner, border_radius=max(1, rad - 1))
    step = max(4, inner.w // 4)
    light = tuple(min(255, c + 45) for c in base)
    old_clip = surf.get_clip()
    surf.set_clip(inner.clip(old_clip) if old_clip else inner)
    for x in range(inner.x - inner.h, inner.right + inner.h, step):
        pygame.draw.line(surf, light, (x, inner.y), (x + inner.h, inner.bottom), 1)
        pygame.draw.line(surf, light, (x + inner.h, inner.y), (x, inner.bottom), 1)
    surf.set_clip(old_clip)


def draw_slot(cv: Canvas, r: pygame.Rect) -> None:
    """An empty board position (outline only)."""
    rad = max(2, r.w // 10)
    pygame.draw.rect(cv.surface, (40, 110, 76), r, width=max(1, r.w // 40), border_radius=rad)
