"""The room's column beside the full clock: the prize pool and the payouts by place with
the currency, tonight's league points, the chip leader, the bounty chip's holder, the
stack an entry gets now (a late entry's; before the start, the starting stack), the
players out with their places and the chips in play.

Drawn from :class:`engine.views.ClockView` and :class:`engine.views.RoomView` (None: the
clock's own figures only).  Sections are stacked from the top and a section that does not
fit whole is left out, so the column never overflows.  Design pixels of the clock's
1920x1080 canvas.
"""

from __future__ import annotations

from engine.table.views import ordinal
from engine.views import ClockView, RoomView
from pi_app.screens.theme import ACCENT, GREEN, MUTED, TEXT, Canvas, fmt_chips

HEAD, ROW = 34, 40       # font sizes: a section's name and its lines
HEAD_H, ROW_H = 44, 50   # design px each takes
GAP = 18
MAX_OUT = 4              # players out listed, the latest first


def sections(clock: ClockView, room: RoomView | None
             ) -> list[tuple[str, list[tuple[str, str]]]]:
    """(name, [(left, right) lines]) of each section, in the order drawn."""
    cur = room.currency if room is not None else ""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    pays = [(ordinal(p), f"{cur}{fmt_chips(a)}") for p, a in (room.payouts if room else ())]
    out.append((f"PRIZE POOL {cur}{fmt_chips(clock.prize_pool)}", pays[:4]))
    if room is None:
        out.append(("CHIPS IN PLAY", [(fmt_chips(clock.chips_in_play), "")]))
        return out
    if room.points:
        out.append(("LEAGUE POINTS", [(ordinal(p), pts) for p, pts in room.points[:3]]))
    if room.stacks and (len(room.stacks) == 1 or room.stacks[1][1] < room.stacks[0][1]):
        name, chips = room.stacks[0]  # a leader only when no one ties the most chips
        out.append(("CHIP LEADER", [(name, fmt_chips(chips))]))
    if room.bounty_holder:
        out.append(("BOUNTY CHIP", [(room.bounty_holder, "")]))
    if room.late_entry_stack is not None:
        out.append(("LATE ENTRY NOW", [(f"{fmt_chips(room.late_entry_stack)} chips", "")]))
    elif not clock.started and clock.late_registration_open and room.starting_stack:
        out.append(("ENTRY STACK", [(f"{fmt_chips(room.starting_stack)} chips", "")]))
    if room.eliminated:
        latest = sorted(room.eliminated, key=lambda p: p.place)[:MAX_OUT]
        more = len(room.eliminated) - len(latest)  # a cut list says so
        out.append((f"OUT   +{more} more" if more else "OUT",
                    [(ordinal(p.place), p.name) for p in latest]))
    out.append(("CHIPS IN PLAY", [(fmt_chips(clock.chips_in_play), "")]))
    return out


def draw_room_column(cv: Canvas, box: tuple[float, float, float, float], clock: ClockView,
                     room: RoomView | None) -> None:
    """Draw the column in the design rectangle ``box`` of ``cv``."""
    x, y, w, h = box
    cv.panel(cv.rect(x, y, w, h), radius=18, width=3)
    top, bottom = y + 14, y + h - 10
    for name, lines in sections(clock, room):
        need = HEAD_H + ROW_H * len(lines)
        if top + need > bottom:
            continue
        cv.text(name, "bold", HEAD, GREEN if name.startswith("PRIZE") else MUTED,
                (x + 22, top), max_width=w - 44)
        top += HEAD_H
        for left, right in lines:
            wide = not right
            r = cv.text(left, "bold", ROW, TEXT, (x + 22, top),
                        max_width=w - 44 if wide else (w - 44) * 0.45)
            if right:  # the rest of the line: a long name is cut only when it must be
                cv.text(right, "bold", ROW, ACCENT, (x + w - 22, top), "topright",
                        max_width=w - 44 - r.w / cv.s - 16)
            top += ROW_H
        top += GAP
