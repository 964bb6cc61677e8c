"""Regions of a layer: redraw only the rectangles where something changed.

A layer is a background (the table's felt) with regions drawn over it in a fixed order.  A
:class:`Region` is a name, a drawing function and its arguments: the function draws from
its arguments alone (and the canvas's geometry) and returns a rectangle (real pixels)
holding every pixel it drew, so two regions with equal arguments look the same, in the
same place.  :func:`draw_layer` draws a whole layer and keeps where each region went
(:class:`Placed`); :func:`redraw_layer` brings a drawn layer up to new regions:

1. each region whose arguments changed is measured: by its ``where`` when it has one (a
   box of a fixed size: its rectangle is known from its arguments, nothing is drawn),
   else by drawing it under an empty clip (nothing reaches the surface, its rectangle is
   kept); its old and new rectangles are dirty, and so is the rectangle of a region that
   went away;
2. the dirty rectangles are merged where they overlap (into their union when more than
   :data:`MAX_PASSES` are left);
3. in each, under a clip: the background (not inside the ``opaque`` rect of a region
   drawn there: that region covers it whatever lies under it), every region that overlaps
   it in order, then what lies over the layer (the caller's ``after``: the frame's
   overlays).  A changed
   region is placed as it is drawn there (its faces; a rectangle other than the one
   measured makes the caller draw the whole frame).

Inside a dirty rectangle the pixels are those of a whole redraw (the same drawing calls in
the same order, clipped); outside all of them nothing a region drew changed.  So a partial
frame is pixel-identical to a full one (tests/pi_app/screens/test_partial_redraw.py plays
real hands through both).  A region drawn beyond the layer's area cannot be redrawn this
way: :func:`redraw_layer` returns None and the caller draws the whole frame.

Faces: each placed region keeps the cards it drew face up, so :attr:`Layer.faces` lists
the faces of the whole layer on screen after a partial redraw too (the secrets tests).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pygame

from engine.cards import Card
from pi_app.screens.theme import Canvas

MARGIN = 2  #: real px added around each region's rectangle (rounding of circles and edges)
#: more dirty rectangles than this are redrawn as one, their union.  A new hand leaves
#: about eight apart (the seats around the oval, the board, the pots): a pass for each
#: puts the felt on about half the pixels of their union, and a pass costs little more
MAX_PASSES = 24
NOWHERE = pygame.Rect(0, 0, 0, 0)


@dataclass(frozen=True)
class Region:
    """``draw(cv, *args) -> Rect`` draws the region named ``name``; equal regions (same
    function, equal arguments) draw the same pixels.  The rect returned is computed from
    the arguments and the canvas (where the texts, parts and shapes go), not taken from
    what pygame reports having drawn: a region is measured under an empty clip."""

    name: Hashable
    draw: Callable[..., pygame.Rect]
    args: tuple = ()
    #: ``where(cv, *args) -> Rect``: the rect ``draw`` returns, found without drawing (a
    #: box of a fixed size placed by the arguments; an empty rect: ``draw`` draws nothing);
    #: None: the region is measured by drawing it under an empty clip
    where: Callable[..., pygame.Rect] | None = None
    #: ``opaque(cv, *args) -> Rect``: a rect that ``draw`` covers with opaque pixels
    #: whatever lies under it (a panel's inside); a partial redraw does not put the
    #: background there.  None: no such rect
    opaque: Callable[..., pygame.Rect] | None = None


@dataclass(frozen=True)
class Placed:
    """A region as drawn: its rectangle (real px, :data:`MARGIN` added, clipped to the
    layer's area; empty when it drew nothing) and the cards it drew face up."""

    region: Region
    rect: pygame.Rect
    faces: tuple[Card, ...]
    inside: bool = True  #: the rectangle it returned lies within the layer's area


@dataclass
class Layer:
    """A drawn layer: its canvas, its background (``background(cv)``, drawn first) and its
    regions in drawing order, by name."""

    canvas: Canvas
    background: Callable[[Canvas], object]
    placed: dict[Hashable, Placed]

    @property
    def faces(self) -> list[Card]:
        """The cards drawn face up in the whole layer, in drawing order."""
        return [c for p in self.placed.values() for c in p.faces]


def bounds(rects: list[pygame.Rect]) -> pygame.Rect:
    """The smallest rect holding every non-empty rect of ``rects`` (empty: :data:`NOWHERE`)."""
    rects = [r for r in rects if r.w and r.h]
    return rects[0].unionall(rects[1:]) if rects else pygame.Rect(NOWHERE)


def place(cv: Canvas, region: Region) -> Placed:
    """Draw ``region`` into ``cv`` (subject to the surface's clip) and return where it went
    and the faces it drew (not added to ``cv.faces``)."""
    saved = cv.faces
    cv.faces = []
    try:
        rect = region.draw(cv, *region.args)
        faces = tuple(cv.faces)
    finally:
        cv.faces = saved
    return _placed(cv, region, rect, faces)


def _placed(cv: Canvas, region: Region, rect: pygame.Rect, faces: tuple[Card, ...]) -> Placed:
    if not (rect.w and rect.h):
        return Placed(region, NOWHERE, faces)
    inside = bool(cv.area.contains(rect))
    return Placed(region, rect.inflate(2 * MARGIN, 2 * MARGIN).clip(cv.area), faces, inside)


def measure(cv: Canvas, region: Region) -> Placed:
    """Where ``region`` goes: from its ``where`` when it has one (no faces: those are
    kept when it is drawn), else :func:`place` (the caller sets an empty clip)."""
    if region.where is None:
        return place(cv, region)
    return _placed(cv, region, region.where(cv, *region.args), ())


def draw_layer(cv: Canvas, background: Callable[[Canvas], object],
               regions: list[Region]) -> Layer:
    """Draw the whole layer: ``background(cv)``, then each region in order (their faces go
    to ``cv.faces`` too).

    Raises:
        ValueError: two regions with the same name.
    """
    background(cv)
    placed: dict[Hashable, Placed] = {}
    for region in regions:
        if region.name in placed:
            raise ValueError(f"two regions named {region.name!r}")
        p = place(cv, region)
        cv.faces.extend(p.faces)
        placed[region.name] = p
    return Layer(cv, background, placed)


def redraw_layer(layer: Layer, regions: list[Region], after: Callable[[pygame.Rect], object],
                 extra: tuple[pygame.Rect, ...] = ()) -> list[pygame.Rect] | None:
    """Redraw ``layer`` (on its canvas's surface) to show ``regions``: only the rectangles
    where a region changed, came or went (see the module docstring), and the rectangles
    ``extra`` (where something drawn over the layer changed); ``after(rect)`` draws what
    lies over the layer, under the clip ``rect``.  Returns the rectangles redrawn (``[]``:
    nothing changed), or None when a changed region or an ``extra`` rectangle lies beyond
    the layer's area, or a region drew elsewhere than its ``where`` said: then the layer's
    regions are left as they were (the surface perhaps drawn in part) and the caller
    draws the whole frame.

    Raises:
        ValueError: two regions with the same name.
    """
    area, cv = layer.canvas.area, layer.canvas
    changes = _changes(layer, regions)
    if changes is None or not all(area.contains(r) for r in extra):
        return None
    changed, old = changes
    surf = cv.surface
    saved_clip = surf.get_clip()
    surf.set_clip(NOWHERE)  # measuring: the changed regions draw nothing yet
    try:
        new = {name: measure(cv, region) for name, region in changed.items()}
    finally:
        surf.set_clip(saved_clip)
    if not all(p.inside for p in new.values()):
        return None
    placed = {r.name: new[r.name] if r.name in new else layer.placed[r.name] for r in regions}
    rects = merge_rects([r for r in old + [p.rect for p in new.values()] + list(extra)
                         if r.w and r.h])
    if len(rects) > MAX_PASSES:
        rects = [rects[0].unionall(rects[1:])]
    if not _draw_clipped(layer, placed, rects, after, set(new)):
        return None
    layer.placed = placed
    return rects


def _draw_clipped(layer: Layer, placed: dict[Hashable, Placed], rects: list[pygame.Rect],
                  after: Callable[[pygame.Rect], object], changed: set[Hashable]) -> bool:
    """In each of ``rects``, under a clip: the background, the regions of ``placed`` that
    overlap it in order, then ``after``.  A ``changed`` region is placed again as it is
    first drawn (its faces); False when it drew elsewhere than it was measured."""
    cv = layer.canvas
    surf = cv.surface
    saved_clip = surf.get_clip()
    try:
        for clip in rects:
            holes = [p.region.opaque(cv, *p.region.args) for p in placed.values()
                     if p.region.opaque is not None and p.rect.colliderect(clip)]
            for piece in subtract(clip, holes):  # the regions drawn cover the holes
                surf.set_clip(piece)
                layer.background(cv)
            surf.set_clip(clip)
            for name, p in list(placed.items()):
                if p.rect.colliderect(clip):
                    drawn = place(cv, p.region)
                    if name in changed:
                        if drawn.rect != p.rect:
                            return False
                        placed[name] = drawn
                        changed.discard(name)
            after(clip)
    finally:
        surf.set_clip(saved_clip)
    return True


def _changes(layer: Layer, regions: list[Region]
             ) -> tuple[dict[Hashable, Region], list[pygame.Rect]] | None:
    """The regions that came or changed, by name, and the rectangles on screen of those
    that changed or went; None when one of those lies beyond the area."""
    changed: dict[Hashable, Region] = {}
    old: list[pygame.Rect] = []
    seen: set[Hashable] = set()
    for region in regions:
        if region.name in seen:
            raise ValueError(f"two regions named {region.name!r}")
        seen.add(region.name)
        was = layer.placed.get(region.name)
        if was is not None and was.region == region:
            continue
        changed[region.name] = region
        if was is not None:
            if not was.inside:
                return None
            old.append(was.rect)
    for name, was in layer.placed.items():
        if name not in seen:
            if not was.inside:
                return None
            old.append(was.rect)
    return changed, old


def subtract(rect: pygame.Rect, holes: list[pygame.Rect]) -> list[pygame.Rect]:
    """Rects that do not overlap and cover the pixels of ``rect`` outside every one of
    ``holes``."""
    out = [pygame.Rect(rect)]
    for hole in holes:
        rest = []
        for r in out:
            h = r.clip(hole)
            if not (h.w and h.h):
                rest.append(r)
                continue
            rest += [x for x in (pygame.Rect(r.x, r.y, r.w, h.y - r.y),
                                 pygame.Rect(r.x, h.bottom, r.w, r.bottom - h.bottom),
                                 pygame.Rect(r.x, h.y, h.x - r.x, h.h),
                                 pygame.Rect(h.right, h.y, r.right - h.right, h.h))
                     if x.w > 0 and x.h > 0]
        out = rest
    return out


def merge_rects(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` with every overlapping pair replaced by their union, until none overlap
    (fewer clipped passes; the area covered only grows)."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = pygame.Rect(r)
        merged = True
        while merged:
            merged = False
            for i, o in enumerate(out):
                if o.colliderect(r):
                    r.union_ip(out.pop(i))
                    merged = True
                    break
        out.append(r)
    return out
