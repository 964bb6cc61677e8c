"""Parts of a frame drawn once into a surface of their own and blitted after that.

A seat's box, a card, a badge, the ruling banner and the odds panel each depend on a few
values only; :func:`blit_part` draws such a part the first time its key is seen and then
blits the surface kept under that key (:data:`PARTS`, bounded by bytes, least recently
used first out).  A redraw of the whole frame then costs a blit per part that did not
change, instead of its panels, card art and texts again.

A part has an opaque background inside its rectangle except where it is left in
:data:`KEY` (a colour key: the rounded corners of a panel or a card), so what lies under
those corners shows as when the part is drawn in place.  What the part drew is kept with
it and told again on every blit: the cards drawn face up (``Canvas.faces``, checked by the
secrets tests) and the texts (:func:`pi_app.screens.theme.record_texts`, measured by the
legibility test).

Example::

    box = cv.rect(x0, y0, SEAT_W, SEAT_H)
    blit_part(cv, ("seat", name, stack), box, (SEAT_W, SEAT_H), lambda pc: draw_box(pc))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pygame

from pi_app.screens.cache import BUDGETS, ByteLRU
from pi_app.screens.theme import Canvas, DrawnText, note_text, surface_bytes, texts_apart

KEY = (255, 0, 254)  #: the colour key: a colour no part draws


@dataclass(frozen=True)
class Part:
    """A drawn part: its surface (:data:`KEY` where it is transparent), the cards it drew
    face up and its texts with rectangles relative to its top left corner."""

    surface: pygame.Surface
    faces: tuple
    texts: tuple[DrawnText, ...]


PARTS: ByteLRU[Part] = ByteLRU(BUDGETS["parts"], lambda p: surface_bytes(p.surface))


def make_part(cv: Canvas, size: tuple[int, int], design: tuple[float, float],
              draw: Callable[[Canvas], object]) -> Part:
    """Draw a part of real ``size`` and ``design`` size at the scale of ``cv``:
    ``draw(pc)`` draws it in ``pc``'s design pixels, (0, 0) its top left corner."""
    surf = pygame.Surface(size)
    surf.fill(KEY)
    pc = Canvas(surf, surf.get_rect(), design, faces=[], scale=cv.s, screen_h=cv.screen_h)
    pc.ox, pc.oy = 0, 0
    with texts_apart() as drawn:
        draw(pc)
    surf.set_colorkey(KEY, pygame.RLEACCEL)
    return Part(surf, tuple(pc.faces), tuple(drawn))


def blit_part(cv: Canvas, key: Hashable, rect: pygame.Rect, design: tuple[float, float],
              draw: Callable[[Canvas], object]) -> pygame.Rect:
    """Blit the part ``key`` (made by :func:`make_part` the first time) with its top left
    corner at the real rect ``rect``'s, tell its faces and texts, and return ``rect``.
    The key must hold every value the drawing reads; the scale and the screen's height
    are added to it here."""
    part = PARTS.get((key, rect.size, design, cv.s, cv.screen_h),
                     lambda: make_part(cv, rect.size, design, draw))
    cv.surface.blit(part.surface, rect.topleft)
    cv.faces.extend(part.faces)
    for t in part.texts:
        note_text(t.text, t.rect.move(rect.topleft), t.minor, t.cut)
    return rect
