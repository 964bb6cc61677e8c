"""The table's public notices on the TV (pi_app/screens/toasts.py): a notice of a real
engine event is drawn, and gone once its time is up; every notice real nights make fits
at 1920x1080 and 1280x720, with chip figures separated, clear of the board, the pots and
every seat; and none carries a card."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pygame
import pytest

from engine.effects import Notice
from engine.events import DealerButton, DealerCommand
from engine.table.core import TableCore
from engine.table.settings import TableSettings
from engine.views import ScreenState
from pi_app.screens import ScreenRenderer, render_frame, samples
from pi_app.screens.render import layout_drawn
from pi_app.screens.theme import Canvas, DrawnText, record_texts
from pi_app.screens.toasts import ROOM_ZONE, TABLE_ZONE, plan, zone_for
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import ServiceLoop
from pi_app.service.notice_board import NOTICE_SECONDS
from pi_app.sim.policy import next_step, step_event

SIZES = ((1920, 1080), (1280, 720))
NAMES = ("Ann", "Bob", "Carmen", "Dmitri", "Eve", "Farouk", "Grace", "Hiroshi", "Ines")
LONG_NAME = "Isabella Montgomery"
FOUR_DIGITS = re.compile(r"\d{4,}")  # a figure of 1,000 or more printed without separators
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@cache
def real_notices() -> tuple[str, ...]:
    """Every distinct notice of two real nights (the simulator's bots, 40 hands at the
    mini preset and at the gunpowder preset, this one with a late entry of a long name,
    the sound turned off and on, and an UNDO)."""
    seen: dict[str, None] = {}
    for preset, players, extra in (("mini", 6, False), ("gunpowder", 9, True)):
        core = TableCore.new(TableSettings(players=dict(enumerate(NAMES[:players], 1)),
                                           structure=preset, seed=7))
        events = [DealerCommand(t=0.5, command="late_entry",
                                args={"name": LONG_NAME, "seat": 10}),
                  DealerCommand(t=0.6, command="mute", args={"on": True}),
                  DealerCommand(t=0.7, command="mute", args={"on": False})] if extra else []
        undo = extra
        for _ in range(20_000):  # a night is a few thousand steps
            step = next_step(core, seed=7, max_hands=40)
            if step.kind == "done":
                break
            events.append(step_event(step, core))
            if step.kind == "press" and undo and core.hand_number > 1:
                events.append(DealerButton(t=events[-1].t, button="undo"))
                undo = False
            for event in events:
                seen.update((e.text, None) for e in core.apply(event) if isinstance(e, Notice))
            events = []
        assert step.kind == "done", preset
    return tuple(seen)


def test_the_nights_give_the_notices_a_dealer_must_see():
    notices = real_notices()
    assert "Last action undone" in notices and "Sound off" in notices
    assert any(n.startswith(f"{LONG_NAME} joins in seat 10 with ") and "," in n
               for n in notices), notices
    assert any(n.startswith("Color-up: ") and "," in n for n in notices), notices
    assert any(n.startswith("Level ") and "," in n for n in notices), notices


def test_no_notice_carries_a_card():
    for text in real_notices():
        assert not CARD.search(text), text


def _frame(state: ScreenState, size: tuple[int, int]) -> tuple[pygame.Surface, list[DrawnText]]:
    surface = pygame.Surface(size)
    with record_texts() as drawn:
        render_frame(surface, state)
    return surface, drawn


def _states(notices: tuple[str, ...]) -> list[ScreenState]:
    busy = samples.busiest_state()
    return [ScreenState(clock=samples.CLOCK, room=busy.room, layout="clock",
                        notices=notices),
            ScreenState(clock=samples.CLOCK, table=samples.table_ten_seats(), room=busy.room,
                        layout="split", notices=notices),
            ScreenState(clock=samples.CLOCK, table=samples.table_ten_seats(), layout="table",
                        notices=notices),
            ScreenState(clock=samples.CLOCK, table=samples.table_side_pots(), layout="table",
                        notices=notices)]


@pytest.mark.parametrize("size", SIZES, ids=["1080p", "720p"])
def test_every_notice_of_a_night_fits_clear_of_the_table(size):
    pygame.font.init()
    notices = real_notices()
    groups = [notices[i:i + 3] for i in range(0, len(notices), 3)]
    for group in groups + [(n,) for n in notices]:
        for state in _states(group):
            surface, drawn = _frame(state, size)
            names = {seat.name for seat in (state.table.seats if state.table else ())}
            texts = [d for d in drawn if any(d.text in n for n in group)
                     and d.text not in names]  # not a seat's box, which may cut a name
            assert texts, (group, state.layout)
            for d in texts:
                assert not d.cut, (size, d.text)
                assert surface.get_rect().contains(d.rect), (size, d.text)
                assert not FOUR_DIGITS.search(d.text), (size, d.text)
            _clear_of_the_table(state, surface, group)


def _clear_of_the_table(state: ScreenState, surface: pygame.Surface,
                        group: tuple[str, ...]) -> None:
    """The notices' panels stay in their zone and touch no region of the table (seats,
    bets, the pots, the board, the results) but the hand's header, which they cover."""
    root = Canvas(surface)
    zone = zone_for(layout_drawn(state), 0, None)
    toasts = plan(root, group, zone)
    assert toasts, group
    rects = [root.rect(*t.box) for t in toasts]
    frame = render_frame(pygame.Surface(surface.get_size()), state)
    for r in rects:
        assert surface.get_rect().contains(r)
        if frame.table is not None:
            for name, placed in frame.table.placed.items():
                assert name == "header" or not r.colliderect(placed.rect), (
                    state.layout, name, group)
    if state.layout == "clock":
        assert all(r.x >= root.rect(ROOM_ZONE.x, 0, 1, 1).x for r in rects)


def test_a_long_notice_is_wrapped_and_one_too_many_for_the_zone_left_out():
    pygame.font.init()
    root = Canvas(pygame.Surface((1280, 720)))
    long = f"{LONG_NAME} joins in seat 10 with 12,000"
    texts = (long, "Last action undone", "Sound off", "Sound on")
    toasts = plan(root, texts, TABLE_ZONE)
    assert len(toasts[0].lines) > 1 and " ".join(toasts[0].lines) == long
    assert 0 < len(toasts) < len(texts)  # the oldest: no room left
    assert [" ".join(t.lines) for t in toasts] == list(texts[:len(toasts)])
    assert sum(t.box[3] for t in toasts) + 8 * (len(toasts) - 1) <= TABLE_ZONE.h


def test_under_the_venue_banner_a_rising_zone_stands_above_it():
    plain, banner = zone_for("split", 0, None), zone_for("split", 0, "a\nb\nc")
    assert banner.edge < plain.edge and not banner.down
    assert zone_for("table", 64, "a") == zone_for("table", 64, None)


def test_an_undo_of_a_real_hand_is_drawn_on_the_tv_then_gone(tmp_path: Path):
    """Through the loop and the TV's renderer: the UNDO's notice is drawn at once, stays
    while its time runs, and the frame after its time no longer has it."""
    pygame.font.init()
    core = TableCore.new(TableSettings(players=dict(enumerate(NAMES[:4], 1)),
                                       structure="gunpowder", seed=3, layout="split"))
    surface, renderer = pygame.Surface((1280, 720)), ScreenRenderer()
    frames: list[list[str]] = []

    def tv(state: ScreenState) -> None:
        with record_texts() as drawn:
            renderer.render(surface, state)
        frames.append([d.text for d in drawn])

    loop = ServiceLoop(core, Journal.create(tmp_path / "j.db", core.snapshot()), VirtualClock(),
                       tv=tv)
    loop.render(force=True)
    t = 1.0
    loop.handle(DealerButton(t=t, button="next_hand"))
    while True:
        step = next_step(core, seed=3, max_hands=1)
        event = step_event(step, core)
        t = event.t
        loop.clock.advance_to(t)  # type: ignore[attr-defined]
        loop.handle(event)
        if step.kind == "press":
            break
    loop.handle(DealerButton(t=t, button="undo"))
    assert "Last action undone" in frames[-1]
    loop.clock.advance_to(t + NOTICE_SECONDS)  # type: ignore[attr-defined]
    loop.pump()
    assert frames[-1] and "Last action undone" not in frames[-1]  # a whole frame, without
