"""Every chip figure on the TV has thousands separators, and every text fits its area at
1920x1080 and 1280x720: none is cut with an ellipsis, none leaves the screen, the notices
never run into each other or into the figures below them.  The states are the engine's own,
over whole nights of the presets (every combination of notices a night shows, paused and
running), and the golden cases.  (Issue: "BONUS: 2500" had no separator and was cut at
the edge; at 720p the color-up notice was cut.)"""

from __future__ import annotations

import re
from functools import cache

import pygame
import pytest

from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from engine.views import ClockView, RoomView, ScreenState, WheelView
from pi_app.screens import golden, samples
from pi_app.screens.render import draw_screen
from pi_app.screens.theme import DrawnText, record_texts

SIZES = ((1920, 1080), (1280, 720))
LAYOUTS = ("clock", "split", "table")
NAMES = ("Ann", "Bob", "Carmen", "Dmitri", "Eve", "Farouk", "Grace", "Isabella Montgomery",
         "Hiroshi", "Ines")
FOUR_DIGITS = re.compile(r"\d{4,}")  # a figure of 1,000 or more printed without separators
DATE = re.compile(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}\b")  # "22 Jan 2026": a year, no figure


@cache
def _night(preset: str) -> tuple[tuple[ClockView, RoomView, WheelView | None], ...]:
    """The clock views of a night of ``preset``, one per distinct set of notices (paused
    and running): ten players, a hand a minute, players knocked out from hand 30 on down
    to two (the heads-up limit), the wheel spun when it comes."""
    t = Tournament(load_structure(preset), seed=7)
    for seat, name in enumerate(NAMES, 1):
        t.register(name, seat=seat)
    now = 0.0
    t.start(now)
    seen: dict[tuple[str, ...], tuple[ClockView, RoomView, WheelView | None]] = {}
    for hand in range(1, 200):
        if t.finished or len(t.active()) < 2:
            break
        t.tick(now)
        for paused in (False, True):
            if paused:
                t.pause(now)
            view = t.clock_view(now)
            seen.setdefault(view.notices + (("PAUSED",) if paused else ()),
                            (view, t.room_view(), t.wheel_view()))
            if paused:
                t.resume(now)
        if t.clock.at(now).level.is_break:
            now += 60.0
            continue
        t.hand_started(now)
        stacks = t.stacks()
        bonus = t.current.bonus if t.current is not None else 0
        first = min(stacks)
        stacks[first] += bonus
        now += 60.0
        t.hand_finished(now, stacks)
        if hand >= 30 and hand % 6 == 0 and len(t.active()) > 2:
            t.eliminate(now, max(s for s in t.stacks()), by=min(t.stacks()))
    return tuple(seen.values())


def _drawn(state: ScreenState, size: tuple[int, int]) -> tuple[pygame.Rect, list[DrawnText]]:
    surface = pygame.Surface(size)
    with record_texts() as drawn:
        draw_screen(surface, state)
    return surface.get_rect(), drawn


def _names(state: ScreenState) -> set[str]:
    """The players' names the state holds: a long one is cut to its box by design
    (tests/pi_app/screens/test_hostile_text.py), the only texts that may be."""
    names = {s.name for s in state.table.seats} if state.table else set()
    if state.room is not None:
        names |= {n for n, _ in state.room.stacks} | {p.name for p in state.room.eliminated}
        names |= {state.room.bounty_holder}
    return names


def _check(state: ScreenState, size: tuple[int, int], what: str) -> None:
    screen, drawn = _drawn(state, size)
    names = _names(state)
    for d in drawn:
        assert not d.cut or d.text in names, (what, size, d.text, d.rect)
        assert screen.contains(d.rect), (what, size, d.text, d.rect)
        if not d.minor:  # a URL or a date is no chip figure (the minor texts hold those)
            assert not FOUR_DIGITS.search(DATE.sub("", d.text)), (what, size, d.text)


def _notices_apart(state: ScreenState, size: tuple[int, int], what: str) -> None:
    """The notices' texts overlap no other text of the clock."""
    _, drawn = _drawn(state, size)
    notices = {n.upper() for n in state.clock.notices} if state.clock else set()
    pills = [d for d in drawn if d.text in notices or any(d.text in n for n in notices)]
    others = [d for d in drawn if d not in pills and not d.minor
              and (d.text, tuple(d.rect)) not in {(p.text, tuple(p.rect)) for p in pills}]
    for p in pills:
        for o in others:
            assert not p.rect.colliderect(o.rect), (what, size, p.text, o.text)
    unique = list({(p.text, tuple(p.rect)): p for p in pills}.values())  # drawn once
    for i, a in enumerate(unique):
        for b in unique[i + 1:]:
            assert not a.rect.colliderect(b.rect), (what, size, a.text, b.text)


def test_the_nights_give_the_notices_of_the_issue():
    notices = {n for preset in ("gunpowder", "phat-ace") for v, _, _ in _night(preset)
               for n in v.notices}
    assert any(n.startswith("Bonus: ") and "," in n for n in notices), notices
    assert any(n.startswith("Color-up: remove the") and "1,000" in n for n in notices), notices
    assert any(n.startswith("Heads-up hand") for n in notices), notices


@pytest.mark.parametrize("preset", ["gunpowder", "phat-ace"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_text_of_a_night_fits(preset: str, layout: str) -> None:
    pygame.font.init()
    table = samples.table_preflop()
    for view, room, wheel in _night(preset):
        state = ScreenState(clock=view, room=room, layout=layout,
                            table=None if layout == "clock" else table)
        for size in SIZES:
            what = f"{preset} {layout} {view.notices}"
            _check(state, size, what)
            if layout != "table":
                _notices_apart(state, size, what)
        if wheel is not None and layout == "clock":
            for now in (wheel.started_at + 2.0, wheel.started_at + 30.0):  # turning, landed
                for size in SIZES:
                    _check(ScreenState(clock=view, room=room, wheel=wheel, layout=layout,
                                       now=now), size, f"{preset} wheel at {now}")


@pytest.mark.parametrize("name", sorted(golden.cases()))
def test_every_text_of_the_golden_cases_fits(name: str) -> None:
    pygame.font.init()
    state, size = golden.cases()[name]
    _check(state, size, name)  # type: ignore[arg-type]
