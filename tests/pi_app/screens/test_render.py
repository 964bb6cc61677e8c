"""Composition, scaling and the redraw-only-what-changed renderer."""

from dataclasses import replace

import pygame
import pytest

from engine.cards import parse_cards
from engine.views import ScreenState, WheelView
from pi_app.screens import ScreenRenderer, draw_screen, render_frame, theme
from pi_app.screens.clock import break_text, is_paused, notices_of, time_text
from pi_app.screens.overlays import offline_display_seats, status_messages
from pi_app.screens.samples import CLOCK, WHEEL, cases, table_preflop, table_showdown
from pi_app.screens.wheel import SPIN_SECONDS, segment_under_pointer, wheel_angle


def pixels(surf: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surf, "RGB")


def test_fonts_are_shipped_with_their_license():
    for kind in theme.FONT_FILES:
        assert theme.font_path(kind).is_file()
    lic = (theme.FONT_DIR / "LICENSE.txt").read_text()
    assert "Bitstream" in lic and "Permission is hereby granted" in lic


@pytest.mark.parametrize("secs,text", [(872.4, "14:33"), (60.0, "01:00"), (0.2, "00:01"),
                                       (0.0, "00:00"), (3725.0, "1:02:05"), (None, "--:--")])
def test_time_text(secs, text):
    assert time_text(replace(CLOCK, remaining_seconds=secs)) == text


def test_hand_based_level_shows_hands_remaining():
    c = replace(CLOCK, remaining_seconds=None, hands_remaining=7)
    assert time_text(c) == "7 HANDS"
    assert time_text(replace(c, hands_remaining=1)) == "1 HAND"


def test_paused_notice_and_break_text():
    c = replace(CLOCK, running=False)
    assert is_paused(c) and notices_of(c)[0] == "PAUSED"
    assert not is_paused(CLOCK) and "PAUSED" not in notices_of(CLOCK)
    assert break_text(replace(CLOCK, seconds_to_break=None)) == "-"
    assert break_text(replace(CLOCK, is_break=True)) == "ON BREAK"


def test_offline_sources_are_merged():
    pre = table_preflop()
    t = replace(pre, seats=tuple(replace(s, display_online=(s.seat != 4)) for s in pre.seats))
    st = ScreenState(table=t, offline=("display:7", "shoe"), alarms=("disk full",))
    assert offline_display_seats(st) == {4, 7}
    msgs = status_messages(st)
    assert msgs[0] == "ALARM: disk full"
    assert "DISPLAY OFFLINE: SEAT 4, 7" in msgs and "CARD SHOE OFFLINE" in msgs


@pytest.mark.parametrize("now", [100.0, 101.3, 103.0, 105.9, 106.0, 250.0])
def test_wheel_lands_on_the_chosen_amount(now):
    angle, landed = wheel_angle(WHEEL, now)
    assert landed == (now - WHEEL.started_at >= SPIN_SECONDS)
    if landed:
        assert WHEEL.segments[segment_under_pointer(WHEEL, angle)] == WHEEL.chosen


def test_wheel_animation_moves_and_every_segment_can_win():
    a1, _ = wheel_angle(WHEEL, 101.0)
    a2, _ = wheel_angle(WHEEL, 102.0)
    assert a1 != a2
    for value in set(WHEEL.segments):
        w = WheelView(WHEEL.segments, value, 0.0)
        ang, landed = wheel_angle(w, 99.0)
        assert landed and w.segments[segment_under_pointer(w, ang)] == value


def test_wheel_frames_differ_mid_spin():
    s = pygame.Surface((640, 360))
    frames = []
    for now in (100.5, 101.5, 110.0):
        draw_screen(s, ScreenState(clock=CLOCK, wheel=WHEEL, layout="clock", now=now))
        frames.append(pixels(s))
    assert len(set(frames)) == 3


def test_unknown_layout_is_rejected():
    with pytest.raises(ValueError, match="layout"):
        draw_screen(pygame.Surface((320, 180)), ScreenState(clock=CLOCK, layout="wall"))


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768), (800, 480)])
def test_any_size_draws_every_layout(size):
    s = pygame.Surface(size)
    for layout in ("clock", "table", "split"):
        draw_screen(s, ScreenState(clock=CLOCK, table=table_showdown(), layout=layout))
    draw_screen(s, ScreenState())  # nothing to show: the idle screen


def test_missing_half_of_split_falls_back_to_the_other_half():
    a, b = pygame.Surface((640, 360)), pygame.Surface((640, 360))
    draw_screen(a, ScreenState(clock=CLOCK, layout="split"))
    draw_screen(b, ScreenState(clock=CLOCK, layout="clock"))
    assert pixels(a) == pixels(b)


def test_faces_drawn_are_board_and_shown_cards_only():
    t = table_showdown()
    frame = render_frame(pygame.Surface((960, 540)), ScreenState(table=t, layout="table"))
    shown = {c for s in t.seats for c in s.shown_cards} | set(t.board)
    assert set(frame.faces) == shown
    pre = table_preflop()
    frame = render_frame(pygame.Surface((960, 540)), ScreenState(table=pre, layout="table"))
    assert frame.faces == []


def ticking_states():
    """A clock counting down across several seconds, with sub-second frames."""
    return [ScreenState(clock=replace(CLOCK, remaining_seconds=100.0 - t,
                                      seconds_to_break=500.0 - t), layout=layout, now=t)
            for layout in ("clock", "split") for t in (0.0, 0.25, 0.5, 1.0, 1.25, 2.0, 3.0)]


def test_renderer_partial_redraws_equal_full_redraws():
    r = ScreenRenderer()
    surf = pygame.Surface((1280, 720))
    ref = pygame.Surface((1280, 720))
    table = table_preflop()
    for st in ticking_states():
        st = replace(st, table=table)
        r.render(surf, st)
        draw_screen(ref, st)
        assert pixels(surf) == pixels(ref), st
    assert r.stats["partial"] >= 4 and r.stats["skipped"] >= 4 and r.stats["full"] == 2


def test_renderer_skips_unchanged_and_redraws_changes():
    r = ScreenRenderer()
    surf = pygame.Surface((640, 360))
    st = ScreenState(clock=CLOCK, layout="clock", now=1.0)
    assert r.render(surf, st) == [surf.get_rect()]
    assert r.render(surf, replace(st, now=1.5)) == []
    # the time field ticks: only small rects change
    rects = r.render(surf, replace(st, clock=replace(CLOCK, remaining_seconds=860.0)))
    assert rects and all(x.w * x.h < surf.get_width() * surf.get_height() / 2 for x in rects)
    # a new level is a full redraw
    nxt = replace(CLOCK, level_number=8)
    assert r.render(surf, replace(st, clock=nxt)) == [surf.get_rect()]
    # under a ruling the time fields are redrawn with the ruling (its darkening) over them
    from pi_app.screens.samples import RULING
    ru = replace(st, clock=nxt, ruling=RULING)
    assert r.render(surf, ru) == [surf.get_rect()]
    later = replace(ru, clock=replace(nxt, remaining_seconds=5.0))
    rects = r.render(surf, later)
    assert rects and all(x.w * x.h < surf.get_width() * surf.get_height() / 2 for x in rects)
    whole = pygame.Surface((640, 360))
    draw_screen(whole, later)
    assert pixels(surf) == pixels(whole)
    # a new surface (window re-created) is a full redraw
    assert r.render(pygame.Surface((640, 360)), ru) != []
    r.invalidate()
    assert r.render(surf, ru) == [surf.get_rect()]


def test_renderer_keeps_animating_the_wheel_until_it_lands():
    r = ScreenRenderer()
    surf = pygame.Surface((480, 270))
    st = ScreenState(clock=CLOCK, wheel=WHEEL, layout="clock", now=100.0)
    assert r.render(surf, st)
    assert r.render(surf, replace(st, now=100.1))          # spinning: redraw
    assert r.render(surf, replace(st, now=120.0))          # landed frame drawn once
    assert r.render(surf, replace(st, now=121.0)) == []    # then nothing moves


def test_showdown_cards_not_in_shown_cards_are_never_drawn():
    t = table_showdown()
    # a producer bug: a showdown line names cards the seat never showed
    bad = replace(t, showdown=t.showdown + (
        replace(t.showdown[0], seat=5, cards=parse_cards("7s7d"), description="Pair"),))
    frame = render_frame(pygame.Surface((960, 540)), ScreenState(table=bad, layout="table"))
    assert not set(parse_cards("7s7d")) & set(frame.faces)


def test_all_sample_cases_render_at_their_size():
    for state, size in cases().values():
        s = pygame.Surface(size)
        draw_screen(s, state)
        assert s.get_at((size[0] // 2, size[1] // 2)) is not None


def test_clock_ticks_do_not_redraw_a_table_only_screen():
    r = ScreenRenderer()
    surf = pygame.Surface((640, 360))
    st = ScreenState(clock=CLOCK, table=table_preflop(), layout="table")
    assert r.render(surf, st)
    assert r.render(surf, replace(st, clock=replace(CLOCK, remaining_seconds=10.0))) == []
    ref = pygame.Surface((640, 360))
    draw_screen(ref, replace(st, clock=replace(CLOCK, remaining_seconds=10.0)))
    assert pixels(ref) == pixels(surf)


def test_screen_key_ignores_now_and_subsecond_clock_moves():
    from pi_app.screens import screen_key
    st = ScreenState(clock=CLOCK, layout="clock", now=1.0)
    same = replace(st, now=1.4, clock=replace(CLOCK, remaining_seconds=CLOCK.remaining_seconds
                                              - 0.3))
    assert screen_key(st) == screen_key(same)
    assert screen_key(st) != screen_key(replace(st, clock=replace(CLOCK, remaining_seconds=60)))
    assert screen_key(st) != screen_key(replace(st, layout="split"))
    spin = replace(st, wheel=WHEEL, now=101.0)
    assert screen_key(spin) != screen_key(replace(spin, now=101.5))
    assert screen_key(replace(spin, now=120.0)) == screen_key(replace(spin, now=130.0))


def test_renderer_drives_the_tv_adapter(tmp_path):
    tv_mod = pytest.importorskip("hardware.tv")
    from pi_app.screens import screen_key
    r = ScreenRenderer()
    from pi_app.service.changes import ViewChanges
    changes = ViewChanges(screen_key)
    tv = tv_mod.TV(draw=r, size=(1280, 720), fps=0, driver="dummy")
    try:
        st = ScreenState(clock=CLOCK, table=table_preflop(), layout="split", now=0.0)
        assert changes.screen(st) and tv.render(st, now=0.0)
        assert not changes.screen(replace(st, now=0.5))  # half a second later: same frame
        out = tv.save_png(tmp_path / "tv.png")
        ref = pygame.Surface((1280, 720))
        draw_screen(ref, st)
        got = pygame.image.load(out)
        assert pygame.image.tobytes(got, "RGB") == pixels(ref)
    finally:
        tv.close()
