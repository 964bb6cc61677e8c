"""A partial redraw of the table is pixel-identical to a full redraw of the same state.

Real simulated hands (the simulator's cards, keys and dealer buttons through a real table
core) are drawn event after event by one :class:`ScreenRenderer` into one surface; after
every event the surface is compared with a fresh full draw of the same state, at 1080p and
720p, in the table and split layouts, with the faces the renderer says are on screen.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from engine.cards import parse_cards
from engine.table.core import TableCore, TableSettings
from engine.views import ScreenState
from pi_app.screens import ScreenRenderer, render_frame
from pi_app.screens.regions import (
    Layer,
    Region,
    bounds,
    draw_layer,
    merge_rects,
    redraw_layer,
    subtract,
)
from pi_app.screens.render import SPLIT_CLOCK_W
from pi_app.screens.samples import CLOCK, busiest_state
from pi_app.screens.theme import Canvas
from pi_app.sim.policy import next_step, step_event

CASES = [  # (size, layout, players, hands)
    ((1920, 1080), "split", 10, 3),
    ((1920, 1080), "table", 3, 4),
    ((1280, 720), "split", 6, 3),
    ((1280, 720), "table", 9, 3),
]


def real_states(layout: str, players: int, hands: int, seed: int = 3):
    """The TV's state after each event of ``hands`` simulated hands (the mini structure:
    blinds rise fast, so players go all in and bust)."""
    core = TableCore.new(TableSettings(players={s: f"Player {s}" for s in range(1, players + 1)},
                                       structure="mini", seed=seed, layout=layout))
    while True:
        step = next_step(core, seed=seed, max_hands=hands)
        if step.kind == "done":
            return
        core.apply(step_event(step, core))
        yield core.screen_state(())


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize(("size", "layout", "players", "hands"), CASES,
                         ids=[f"{s[1]}p-{lay}-{n}" for s, lay, n, _h in CASES])
def test_each_event_of_real_hands_redraws_in_part_as_a_full_draw(size, layout, players, hands):
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface(size), pygame.Surface(size)
    events = 0
    for i, state in enumerate(real_states(layout, players, hands)):
        full_before = renderer.stats["full"]
        rects = renderer.render(screen, state)
        frame = render_frame(fresh, state)
        assert pixels(screen) == pixels(fresh), f"event {i}: {rects}"
        assert sorted(renderer.last_faces) == sorted(frame.faces), f"event {i}"
        if renderer.stats["full"] == full_before:
            assert all(screen.get_rect().contains(r) for r in rects)
        events += 1
    stats = renderer.stats
    assert events > 100 and stats["partial"] > 0.5 * events, stats
    assert stats["full"] < 0.1 * events, stats  # new hands too are redrawn in part


NOTICES = ("Isabella Montgomery joins in seat 10 with 12,000", "Last action undone")


@pytest.mark.parametrize(("size", "layout", "players"),
                         [((1920, 1080), "split", 10), ((1280, 720), "table", 9),
                          ((1920, 1080), "table", 6)])
def test_with_the_tables_notices_up_a_partial_redraw_is_a_full_one(size, layout, players):
    """The table's notices (pi_app/screens/toasts.py: over the table's top and the clock's
    column) come and go every 15 events; those frames and the ones in between, redrawn
    in part (the notices' zone over the table, the column in the split layout; the column
    also as its average stack changes every 7 events), are pixel-identical to whole
    draws, and only the first frame is drawn whole."""
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface(size), pygame.Surface(size)
    events, came_or_went, before = 0, 0, None
    for i, state in enumerate(real_states(layout, players, 2)):
        assert state.clock is not None
        clock = replace(state.clock, average_stack=state.clock.average_stack + i // 7)
        state = replace(state, notices=NOTICES[:(i // 15) % 3], clock=clock)
        rects = renderer.render(screen, state)
        render_frame(fresh, state)
        assert pixels(screen) == pixels(fresh), f"event {i}: {rects} {state.notices}"
        came_or_went += before is not None and state.notices != before
        events, before = events + 1, state.notices
    assert events > 60 and came_or_went >= 3, (events, came_or_went)
    assert renderer.stats["full"] == 1, renderer.stats  # the first frame alone


def test_partial_redraws_keep_every_face_on_screen():
    """A showdown's faces stay listed while only other regions are redrawn."""
    renderer = ScreenRenderer()
    screen = pygame.Surface((1280, 720))
    seen = 0
    for state in real_states("table", 6, 4):
        renderer.render(screen, state)
        table = state.table
        public = {c for s in table.seats for c in s.shown_cards} | set(table.board)
        assert set(renderer.last_faces) == public
        seen += len(public)
    assert seen > 0


def test_a_clock_tick_and_a_table_change_in_one_frame():
    states = list(real_states("split", 6, 1))
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface((1920, 1080)), pygame.Surface((1920, 1080))
    first, later = states[5], states[6]
    renderer.render(screen, first)
    later = replace(later, clock=replace(later.clock, remaining_seconds=(
        later.clock.remaining_seconds or 100.0) - 7.0))
    rects = renderer.render(screen, later)
    render_frame(fresh, later)
    assert renderer.stats == {"full": 1, "partial": 1, "skipped": 0}
    assert len(rects) >= 3  # two time fields and the table's rects
    assert pixels(screen) == pixels(fresh)


def _box(cv: Canvas, colour: tuple[int, int, int], r: tuple[int, int, int, int]) -> pygame.Rect:
    pygame.draw.rect(cv.surface, colour, r)
    return pygame.Rect(r)  # from the arguments: measured under an empty clip


def _grey(cv: Canvas) -> None:
    cv.surface.fill((40, 40, 40), cv.area)


def test_a_region_beyond_the_area_makes_the_caller_draw_whole():
    surf = pygame.Surface((200, 100))
    cv = Canvas(surf, pygame.Rect(100, 0, 100, 100))
    layer = draw_layer(cv, _grey, [Region("a", _box, ((200, 0, 0), (110, 10, 20, 20)))])
    before = pixels(surf)
    moved = [Region("a", _box, ((200, 0, 0), (90, 10, 20, 20)))]  # 10 px left of the area
    assert redraw_layer(layer, moved, lambda clip: None) is None
    assert pixels(surf) == before and layer.placed["a"].region.args[1] == (110, 10, 20, 20)


def test_a_region_that_goes_away_is_painted_over_and_overlaps_redrawn_in_order():
    surf, ref = pygame.Surface((200, 100)), pygame.Surface((200, 100))
    cv = Canvas(surf)
    a = Region("a", _box, ((200, 0, 0), (10, 10, 50, 50)))
    b = Region("b", _box, ((0, 200, 0), (40, 40, 50, 50)))  # over a's corner
    layer: Layer = draw_layer(cv, _grey, [a, b])
    after: list[pygame.Rect] = []
    rects = redraw_layer(layer, [replace(a, args=((0, 0, 200), (10, 10, 50, 50)))],
                         after.append)
    draw_layer(Canvas(ref), _grey, [replace(a, args=((0, 0, 200), (10, 10, 50, 50)))])
    assert pixels(surf) == pixels(ref)
    assert rects == after and len(rects) == 1  # a's and b's rects overlap: one pass
    assert redraw_layer(layer, [replace(a, args=((0, 0, 200), (10, 10, 50, 50)))],
                        after.append) == []


class _Counted:
    """A region's drawing that counts its calls and draws a card face up (logs it)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, cv: Canvas, colour: tuple[int, int, int],
                 r: tuple[int, int, int, int]) -> pygame.Rect:
        self.calls += 1
        cv.faces.extend(parse_cards("Ah"))
        return _box(cv, colour, r)


def _where(cv: Canvas, colour: tuple[int, int, int], r: tuple[int, int, int, int]) -> pygame.Rect:
    return pygame.Rect(r)


def _wrong_where(cv: Canvas, colour: tuple[int, int, int],
                 r: tuple[int, int, int, int]) -> pygame.Rect:
    return pygame.Rect(r).move(5, 0)


def test_a_region_placed_by_where_is_drawn_once_and_keeps_its_faces():
    surf, ref = pygame.Surface((200, 100)), pygame.Surface((200, 100))
    draw = _Counted()
    a = Region("a", draw, ((200, 0, 0), (10, 10, 50, 50)), _where)
    layer = draw_layer(Canvas(surf), _grey, [a])
    moved = replace(a, args=((0, 0, 200), (30, 20, 50, 50)))
    calls = draw.calls
    rects = redraw_layer(layer, [moved], lambda clip: None)
    assert draw.calls == calls + 1  # drawn for real only: not drawn to be measured
    assert rects and len(rects) == 1
    draw_layer(Canvas(ref), _grey, [moved])
    assert pixels(surf) == pixels(ref)
    assert layer.faces == list(parse_cards("Ah"))


def test_a_region_drawn_elsewhere_than_its_where_makes_the_caller_draw_whole():
    surf = pygame.Surface((200, 100))
    a = Region("a", _Counted(), ((200, 0, 0), (10, 10, 50, 50)), _wrong_where)
    layer = draw_layer(Canvas(surf), _grey, [a])
    moved = replace(a, args=((0, 0, 200), (30, 20, 50, 50)))
    assert redraw_layer(layer, [moved], lambda clip: None) is None
    assert layer.placed["a"].region == a  # the layer still says what it held


def test_merged_rects_do_not_overlap_and_cover_the_dirty_ones():
    dirty = [pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10), pygame.Rect(50, 50, 5, 5),
             pygame.Rect(14, 14, 40, 2)]
    merged = merge_rects(dirty)
    assert all(not a.colliderect(b) for i, a in enumerate(merged) for b in merged[i + 1:])
    assert all(any(m.contains(d) for m in merged) for d in dirty)
    assert len(merged) == 2
    assert bounds([]).size == (0, 0) and bounds([pygame.Rect(1, 1, 0, 5)]).size == (0, 0)


def test_the_rects_left_by_subtract_cover_exactly_the_pixels_outside_the_holes():
    rect = pygame.Rect(10, 10, 60, 40)
    holes = [pygame.Rect(20, 0, 10, 100), pygame.Rect(40, 20, 10, 10), pygame.Rect(0, 45, 200, 3),
             pygame.Rect(100, 100, 5, 5)]
    pieces = subtract(rect, holes)
    assert all(not a.colliderect(b) for i, a in enumerate(pieces) for b in pieces[i + 1:])
    covered = {(x, y) for p in pieces for x in range(p.left, p.right)
               for y in range(p.top, p.bottom)}
    outside = {(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
               if not any(h.collidepoint(x, y) for h in holes)}
    assert covered == outside
    assert subtract(rect, []) == [rect] and subtract(rect, [rect.inflate(2, 2)]) == []


def _new_stack_and_pot(state: ScreenState, i: int) -> ScreenState:
    table = state.table
    assert table is not None
    seats = tuple(replace(s, stack=s.stack + i) if s.seat == 2 else s for s in table.seats)
    pots = (replace(table.pots[0], amount=table.pots[0].amount + i),) + table.pots[1:]
    return replace(state, table=replace(table, seats=seats, pots=pots), now=float(i))


@pytest.mark.parametrize("layout", ["table", "split"])
def test_under_the_ruling_and_the_odds_a_changed_seat_redraws_in_part(layout):
    """The busiest screen: the darkening, the banner and the odds panel over the table are
    drawn again over the rects redrawn; a new room redraws the split layout's column."""
    state = replace(busiest_state(), layout=layout, clock=CLOCK)
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface((1920, 1080)), pygame.Surface((1920, 1080))
    renderer.render(screen, state)
    room = state.room
    assert room is not None
    for i, st in enumerate([_new_stack_and_pot(state, 100), _new_stack_and_pot(state, 200),
                            replace(_new_stack_and_pot(state, 300), room=replace(
                                room, eliminated=room.eliminated[1:]))]):
        rects = renderer.render(screen, st)
        render_frame(fresh, st)
        assert pixels(screen) == pixels(fresh), f"frame {i}: {rects}"
        assert screen.get_rect() not in rects
    assert renderer.stats == {"full": 1, "partial": 3, "skipped": 0}


def test_the_stacks_alone_moving_leave_the_split_layouts_column_alone():
    """The column never draws the room's stacks: a hand's end that moves them only redraws
    the table's regions that changed, not the column."""
    state = replace(busiest_state(), layout="split", clock=CLOCK, ruling=None, odds=None)
    room = state.room
    assert room is not None and room.stacks
    renderer = ScreenRenderer()
    screen, fresh = pygame.Surface((1920, 1080)), pygame.Surface((1920, 1080))
    renderer.render(screen, state)
    moved = replace(_new_stack_and_pot(state, 100),
                    room=replace(room, stacks=tuple((n, c + 1) for n, c in room.stacks)))
    rects = renderer.render(screen, moved)
    render_frame(fresh, moved)
    assert pixels(screen) == pixels(fresh)
    assert rects and all(r.left >= SPLIT_CLOCK_W for r in rects)  # 1080p: design px = px
    assert renderer.stats == {"full": 1, "partial": 1, "skipped": 0}
