"""The bonus wheel: a spin animation that lands on the amount the tournament model chose.

The animation is a pure function of ``ScreenState.now - WheelView.started_at``: the wheel
turns :data:`TURNS` full turns plus the offset that brings the chosen segment under the
pointer (at the top), easing out (cubic) over :data:`SPIN_SECONDS`.  So any frame can be
redrawn exactly, and the golden tests pin mid-spin and landed frames.
"""

from __future__ import annotations

import math

import pygame

from engine.views import WheelView
from pi_app.screens.theme import (
    ACCENT,
    BG,
    TEXT,
    Canvas,
    fmt_chips,
    legible_px,
    note_text,
    text_surface,
)

SPIN_SECONDS = 6.0
TURNS = 5
SEGMENT_COLOURS = ((196, 40, 52), (24, 24, 30), (20, 120, 70), (36, 80, 170))


def chosen_index(wheel: WheelView) -> int | None:
    """Index of the first segment equal to ``wheel.chosen`` (None when absent)."""
    try:
        return wheel.segments.index(wheel.chosen)
    except ValueError:
        return None


def wheel_angle(wheel: WheelView, now: float) -> tuple[float, bool]:
    """(clockwise rotation in degrees, landed?) at monotonic time ``now``."""
    n = len(wheel.segments)
    idx = chosen_index(wheel)
    if n == 0 or idx is None:
        return 0.0, True
    seg = 360.0 / n
    final = 360.0 * TURNS + (360.0 - (idx + 0.5) * seg)
    t = now - wheel.started_at
    if t >= SPIN_SECONDS:
        return final % 360.0, True
    p = max(0.0, t / SPIN_SECONDS)
    ease = 1.0 - (1.0 - p) ** 3
    return (final * ease) % 360.0, False


def segment_under_pointer(wheel: WheelView, angle: float) -> int:
    """The segment index at the top pointer when the wheel is turned ``angle`` degrees
    clockwise (segment i spans [i, i+1) * 360/n clockwise from the top, unturned)."""
    n = len(wheel.segments)
    a = (-angle) % 360.0
    return int(a // (360.0 / n)) % n


def draw_wheel(cv: Canvas, wheel: WheelView, now: float) -> None:
    """The wheel as an overlay over the whole canvas (the screen behind is dimmed)."""
    shade = pygame.Surface(cv.area.size, pygame.SRCALPHA)
    shade.fill((*BG, 215))
    cv.surface.blit(shade, cv.area.topleft)
    angle, landed = wheel_angle(wheel, now)
    cx, cy = cv.dw / 2, cv.dh / 2 + 30
    radius = min(cv.dw, cv.dh) * 0.34
    centre = cv.point(cx, cy)
    r_px = cv.px(radius)
    n = len(wheel.segments)
    # the wheel under its own name (seed 000: "Party Pop"), a generic one only without
    cv.text((wheel.name or "Bonus wheel").upper(), "bold", 72, ACCENT,
            (cx, cy - radius - 150), "midtop", max_width=cv.dw - 80)
    pygame.draw.circle(cv.surface, (230, 230, 230), centre, r_px + cv.px(12))
    if n:
        seg = 360.0 / n
        for i, value in enumerate(wheel.segments):
            a0 = math.radians(i * seg + angle)
            a1 = math.radians((i + 1) * seg + angle)
            steps = max(3, int(seg / 4))
            pts: list[tuple[float, float]] = [centre]
            for k in range(steps + 1):
                a = a0 + (a1 - a0) * k / steps
                pts.append((centre[0] + r_px * math.sin(a), centre[1] - r_px * math.cos(a)))
            colour = SEGMENT_COLOURS[i % len(SEGMENT_COLOURS)]
            if landed and i == chosen_index(wheel):
                colour = ACCENT
            pygame.draw.polygon(cv.surface, colour, pts)
            pygame.draw.line(cv.surface, (230, 230, 230), centre,
                             (centre[0] + r_px * math.sin(a0), centre[1] - r_px * math.cos(a0)),
                             max(1, cv.px(3)))
            mid = (a0 + a1) / 2
            fg = (12, 12, 16) if (landed and i == chosen_index(wheel)) else TEXT
            label = text_surface("bold", max(cv.px(min(46, 900 / max(n, 1))),
                                             legible_px("bold", cv.screen_h)),
                                 fmt_chips(value), fg)
            note_text(fmt_chips(value), label.get_rect())
            turn = -math.degrees(mid) + 90
            if math.sin(mid) < 0:  # left half: keep the numbers upright-ish
                turn += 180
            label = pygame.transform.rotate(label, turn)
            lx = centre[0] + r_px * 0.66 * math.sin(mid)
            ly = centre[1] - r_px * 0.66 * math.cos(mid)
            cv.surface.blit(label, label.get_rect(center=(int(lx), int(ly))))
    pygame.draw.circle(cv.surface, (230, 230, 230), centre, cv.px(40))
    pygame.draw.circle(cv.surface, BG, centre, cv.px(28))
    # the pointer at the top
    tip = cv.point(cx, cy - radius + 40)
    pygame.draw.polygon(cv.surface, ACCENT, [tip, cv.point(cx - 42, cy - radius - 50),
                                             cv.point(cx + 42, cy - radius - 50)])
    pygame.draw.polygon(cv.surface, (12, 12, 16), [tip, cv.point(cx - 42, cy - radius - 50),
                                                   cv.point(cx + 42, cy - radius - 50)],
                        max(1, cv.px(4)))
    if landed:
        cv.text(f"BONUS  {fmt_chips(wheel.chosen)}  CHIPS", "bold", 84, ACCENT,
                (cx, cy + radius + 34), "midtop", max_width=cv.dw - 80)
    else:
        cv.text("SPINNING...", "bold", 56, TEXT, (cx, cy + radius + 44), "midtop")
