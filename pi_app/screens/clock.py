"""The clock screen: level, blinds and ante, the time remaining (largest, readable from
5 metres), next level, time to the next break, players, average stack, chips in play,
prize pool and the notices.

Two layouts share the drawing code: ``full`` (the whole TV, design 1920x1080) and
``column`` (the left column of the split layout, design 620x1080).  The per-second parts
(time remaining and time to the next break) are drawn by :func:`draw_ticking` into fixed
rectangles, so :class:`pi_app.screens.render.ScreenRenderer` can redraw only those when
nothing else changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine.views import ClockView, RoomView
from pi_app.screens import column, notices
from pi_app.screens.notices import ROW_GAP
from pi_app.screens.room import draw_room_column
from pi_app.screens.theme import (
    ACCENT,
    BG,
    GREEN,
    MUTED,
    ORANGE,
    PANEL,
    RED,
    TEXT,
    TIME,
    Canvas,
    fmt_chips,
    fmt_clock,
    legible_px,
)

PAUSED = "PAUSED"


@dataclass(frozen=True)
class ClockLayout:
    """Design rectangles (x, y, w, h) of one clock layout; sizes are font sizes."""

    header_y: float
    level_size: float
    time: tuple[float, float, float, float]
    time_size: float
    blinds_label_y: float
    blinds_y: float
    blinds_size: float
    ante_y: float
    ante_size: float
    notices: tuple[float, float, float, float]
    notice_size: float
    stats: tuple[tuple[float, float, float, float], ...]
    stat_label: float
    stat_value: float
    #: the room's column (x, y, w, h) beside the clock, or None (see pi_app.screens.room)
    room: tuple[float, float, float, float] | None = None
    main_w: float = 1920  # design width of the clock's own part
    #: the figures as lines and the room's places below them (x, y, w, h), instead of
    #: ``stats`` boxes (the split layout's column: see pi_app.screens.column); it starts
    #: at the notices' top and takes what they leave (:func:`lines_box`)
    lines: tuple[float, float, float, float] | None = None


FULL = ClockLayout(
    header_y=22, level_size=64,
    time=(30, 96, 1330, 360), time_size=320,
    blinds_label_y=458, blinds_y=500, blinds_size=136, ante_y=660, ante_size=60,
    notices=(30, 752, 1330, 80), notice_size=40,
    stats=tuple((20 + i * 338, 860, 322, 200) for i in range(4)),
    stat_label=36, stat_value=60,
    room=(1400, 16, 500, 1048), main_w=1390,
)

COLUMN = ClockLayout(
    header_y=8, level_size=44,
    time=(10, 60, 600, 142), time_size=136,
    blinds_label_y=204, blinds_y=238, blinds_size=70, ante_y=322, ante_size=38,
    notices=(20, 370, 580, 116), notice_size=34,
    stats=(), stat_label=34, stat_value=34,
    lines=(14, 370, 592, 706),  # the part under the notices drawn: see lines_box
)

BREAK_STAT = 1  # index of the ticking "next break" stat


NOT_STARTED = "Starts with the first hand"


def is_paused(clock: ClockView) -> bool:
    """A timed level whose clock is stopped (once started), or a ``PAUSED`` notice."""
    if any(n.strip().upper() == PAUSED for n in clock.notices):
        return True
    return clock.started and clock.remaining_seconds is not None and not clock.running


def notices_of(clock: ClockView) -> tuple[str, ...]:
    """The notices to show, ``PAUSED`` first when the clock is paused."""
    rest = tuple(n for n in clock.notices if n.strip() and n.strip().upper() != PAUSED)
    if not clock.started:
        rest = (NOT_STARTED,) + rest
    return ((PAUSED,) if is_paused(clock) else ()) + rest


def time_text(clock: ClockView) -> str:
    """What the big time field shows: ``MM:SS``, or ``N HANDS`` on a hand-based level."""
    if clock.remaining_seconds is None and clock.hands_remaining is not None:
        n = clock.hands_remaining
        return f"{n} HAND" if n == 1 else f"{n} HANDS"
    return fmt_clock(clock.remaining_seconds)


def break_text(clock: ClockView) -> str:
    """Time to the next break (``MM:SS``), ``ON BREAK`` during a break, ``-`` when none."""
    if clock.is_break:
        return "ON BREAK"
    if clock.seconds_to_break is None:
        return "-"
    return fmt_clock(clock.seconds_to_break)


def blinds_text(sb: int | None, bb: int | None) -> str:
    return f"{fmt_chips(sb)} / {fmt_chips(bb)}"


def ante_text(ante: int, bb_ante: int) -> str:
    if bb_ante:
        return f"BIG BLIND ANTE {fmt_chips(bb_ante)}"
    if ante:
        return f"ANTE {fmt_chips(ante)}"
    return ""


def next_level_text(clock: ClockView) -> tuple[str, str]:
    """(main line, sub line) of the NEXT LEVEL box."""
    if clock.next_is_break:
        return "BREAK", ""
    if clock.next_small_blind is None or clock.next_big_blind is None:
        return "-", ""
    sub = ""
    if clock.next_big_blind_ante:
        sub = f"bb ante {fmt_chips(clock.next_big_blind_ante)}"
    elif clock.next_ante:
        sub = f"ante {fmt_chips(clock.next_ante)}"
    return blinds_text(clock.next_small_blind, clock.next_big_blind), sub


def players_text(clock: ClockView) -> tuple[str, str]:
    """(main, sub) of the PLAYERS box: ``"5 / 6"``; before anyone has registered ``"-"``
    with the sub line "entries open" (never "0 / 0")."""
    if not clock.entrants:
        return "-", "entries open" if clock.late_registration_open or not clock.started \
            else ""
    return f"{clock.players_left} / {clock.entrants}", ""


def stat_values(clock: ClockView, room: RoomView | None = None
                ) -> tuple[tuple[str, str, str], ...]:
    """(name, main, sub) of each stat box: next level, next break, players, average stack,
    the prize pool with the payouts, and one box that says what matters now (the stack an
    entry gets while registration is open: a late entry's after the start, the starting
    stack before it; else who holds the bounty chip; else the chips in play)."""
    nl = next_level_text(clock)
    cur = room.currency if room is not None else ""
    pays = room.payouts if room is not None else ()
    pool_sub = f"1st {cur}{fmt_chips(pays[0][1])}" if pays else ""
    if room is not None and room.late_entry_stack is not None:
        last = ("LATE ENTRY", fmt_chips(room.late_entry_stack), "chips now")
    elif room is not None and not clock.started and room.starting_stack \
            and clock.late_registration_open:
        last = ("ENTRY STACK", fmt_chips(room.starting_stack), "chips")
    elif room is not None and room.bounty_holder:
        last = ("BOUNTY", room.bounty_holder, "holds the chip")
    else:
        last = ("IN PLAY", fmt_chips(clock.chips_in_play), "chips")
    return (
        ("NEXT LEVEL", *nl),
        ("NEXT BREAK", break_text(clock), ""),
        ("PLAYERS", *players_text(clock)),
        ("AVG STACK", fmt_chips(clock.average_stack), ""),
        ("PRIZE POOL", f"{cur}{fmt_chips(clock.prize_pool)}", pool_sub),
        last,
    )


def time_colour(clock: ClockView) -> tuple[int, int, int]:
    if is_paused(clock):
        return ORANGE
    if clock.is_break:
        return GREEN
    if clock.remaining_seconds is not None and clock.remaining_seconds <= 60:
        return RED
    return TIME


def _stat_value_rect(cv: Canvas, L: ClockLayout, i: int) -> pygame.Rect:
    x, y, w, h = L.stats[i]
    return cv.rect(x + 8, y + L.stat_label * 1.2 + 12, w - 16, L.stat_value * 1.25)


def draw_ticking(cv: Canvas, L: ClockLayout, clock: ClockView) -> list[pygame.Rect]:
    """Draw the parts that change every second (time, time to break); returns the real
    rects touched.  Each is first cleared to its background, so drawing is idempotent.
    The texts are drawn from cached glyphs: a new second caches nothing new."""
    tr = cv.rect(*L.time)
    text = time_text(clock)
    # DejaVu Sans digits are tabular (equal widths), so the time does not jiggle
    cv.glyphs_px(text, "bold", cv.px(L.time_size), time_colour(clock), tr.center, "center",
                 max_width=tr.w, box=(BG, tr))
    if L.lines is not None:
        return [tr, column.ticking_value(cv, lines_box(cv, L, clock), break_row(clock),
                                         break_text(clock))]
    br = _stat_value_rect(cv, L, BREAK_STAT)
    cv.glyphs_px(break_text(clock), "bold", cv.px(L.stat_value), TEXT, br.center, "center",
                 max_width=br.w, box=(PANEL, br))
    return [tr, br]


def lines_box(cv: Canvas, L: ClockLayout, clock: ClockView) -> tuple[float, float, float, float]:
    """The design rectangle of a ``lines`` layout's figures and places: from under the
    notices drawn (so the room's places get the space of the notices not shown, and give
    a wrapped notice its lines) to the bottom of ``L.lines``."""
    assert L.lines is not None
    x, y, w, h = L.lines
    drawn = notices.height(notice_pills(cv, L, notices_of(clock)))
    top = y + (drawn + ROW_GAP + 6 if drawn else 0)
    return x, top, w, y + h - top


def _notice_rows(L: ClockLayout, n: int) -> float:
    """Design height of one row of ``n`` stacked notices."""
    return min(L.notices[3] / max(1, n), L.notice_size * 1.9)


#: the whole clock's notices, when they do not fit one row: stacked in the room between
#: the ante line and the figures' boxes
FULL_STACK = (30, 740, 1330, 112)


def notice_pills(cv: Canvas, L: ClockLayout, shown: tuple[str, ...]) -> list[notices.Pill]:
    """Where the notices ``shown`` go in layout ``L`` (see :mod:`pi_app.screens.notices`)."""
    texts = tuple(n.upper() for n in shown)
    if not texts:
        return []
    if L is FULL:
        if notices.row_scale(cv, list(texts), L.notice_size, L.notices[2]) is not None:
            return notices.plan(cv, L.notices, L.notice_size, texts, mode="row")
        # the largest size down to the legible one at which the rows fit the room
        size, floor = L.notice_size, legible_px("bold", cv.screen_h) / cv.s
        while True:
            n = len(notices.rows(cv, texts, size, FULL_STACK[2], pack=True))
            if n * (size * 1.3 + ROW_GAP) <= FULL_STACK[3] or size <= floor:
                break
            size = max(floor, size - 2)
        return notices.plan(cv, FULL_STACK, size, texts, mode="packed",
                            row_h=max(FULL_STACK[3] / n, size * 1.3 + ROW_GAP))
    return notices.plan(cv, L.notices, L.notice_size, texts, mode="stacked",
                        row_h=_notice_rows(L, len(texts)))


def break_row(clock: ClockView) -> int:
    """The line of the ticking time to the next break in a ``lines`` layout (after the
    next level and, when it has one, its ante line)."""
    return 2 if next_level_text(clock)[1] else 1


def draw_clock(cv: Canvas, clock: ClockView, layout: ClockLayout = FULL,
               room: RoomView | None = None) -> None:
    """Draw the whole clock screen into ``cv`` (background included); with ``room`` the
    payouts and the rest of :class:`engine.views.RoomView` too."""
    L = layout
    pygame.draw.rect(cv.surface, BG, cv.area)
    mid = min(cv.dw, L.main_w) / 2
    # header: tournament name left, level right
    if L is FULL:
        if clock.tournament_name:
            cv.text(clock.tournament_name, "bold", 46, MUTED, (30, L.header_y + 10),
                    max_width=L.main_w - 400)
        level = "BREAK" if clock.is_break else f"LEVEL {clock.level_number}"
        cv.text(level, "bold", L.level_size, GREEN if clock.is_break else ACCENT,
                (L.main_w - 20, L.header_y), "topright")
        if L.room is not None:
            draw_room_column(cv, L.room, clock, room)
    else:
        level = "BREAK" if clock.is_break else f"LEVEL {clock.level_number}"
        cv.text(level, "bold", L.level_size, GREEN if clock.is_break else ACCENT,
                (cv.dw / 2, L.header_y), "midtop", max_width=cv.dw - 40)
    # blinds
    width = min(cv.dw, L.main_w) - 40
    if clock.is_break:
        cv.text("ON A BREAK", "bold", 34, MUTED, (mid, L.blinds_label_y), "midtop")
        cv.text("TAKE A BREAK", "bold", L.blinds_size * 0.8, GREEN,
                (mid, L.blinds_y + 8), "midtop", max_width=width - 20)
        # on a break the view's blinds are those of the level the break leads to
        after = ante_text(clock.ante, clock.big_blind_ante)
        if clock.big_blind:
            cv.text(f"THEN {blinds_text(clock.small_blind, clock.big_blind)}"
                    + (f"   {after}" if after else ""),
                    "bold", L.ante_size, TEXT, (mid, L.ante_y), "midtop", max_width=width)
    else:
        cv.text("BLINDS", "bold", 34, MUTED, (mid, L.blinds_label_y), "midtop")
        main = blinds_text(clock.small_blind, clock.big_blind)
        if not clock.small_blind and not clock.big_blind and clock.min_bet:
            main = f"MIN BET {fmt_chips(clock.min_bet)}"  # a no-blind game
        cv.text(main, "bold", L.blinds_size, ACCENT, (mid, L.blinds_y), "midtop",
                max_width=width)
        ante = ante_text(clock.ante, clock.big_blind_ante)
        if ante:
            cv.text(ante, "bold", L.ante_size, TEXT, (mid, L.ante_y), "midtop", max_width=width)
    notices.draw(cv, notice_pills(cv, L, notices_of(clock)))
    if L.lines is not None:
        column.draw_column(cv, lines_box(cv, L, clock), stat_values(clock, room), clock, room,
                           break_row(clock))
    else:
        _draw_stats(cv, L, stat_values(clock, room))
    draw_ticking(cv, L, clock)


def _draw_stats(cv: Canvas, L: ClockLayout, values: tuple[tuple[str, str, str], ...]) -> None:
    for i, (x, y, w, h) in enumerate(L.stats):
        r = cv.rect(x, y, w, h)
        cv.panel(r)
        name, main, sub = values[i]
        cv.text(name, "bold", L.stat_label, MUTED, (x + w / 2, y + 10), "midtop",
                max_width=w - 16)
        if i == BREAK_STAT:
            continue  # drawn by draw_ticking
        vr = _stat_value_rect(cv, L, i)
        cv.text_px(main, "bold", cv.px(L.stat_value), ACCENT if i == 0 else TEXT, vr.center,
                   "center", max_width=vr.w)
        if sub:
            cv.text(sub, "bold", L.stat_label * 0.85, MUTED, (x + w / 2, y + h - 8),
                    "midbottom", max_width=w - 16)
