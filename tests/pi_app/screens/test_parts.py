"""Parts of a frame drawn once and blitted after that (pi_app.screens.parts): drawn once per
key, their faces and texts told on every blit at the place blitted, their colour-keyed
corners showing what lies under, the cache bounded by bytes, and a whole frame the same
pixel for pixel whether its parts come from the cache or are drawn anew."""

from __future__ import annotations

import threading
from dataclasses import replace

import pygame

from engine.cards import parse_cards
from pi_app.screens import parts, render_frame, theme
from pi_app.screens.cache import ByteLRU
from pi_app.screens.cardart import draw_face
from pi_app.screens.samples import busiest_state
from pi_app.screens.theme import Canvas, record_texts, surface_bytes


def test_a_part_is_drawn_once_and_tells_its_faces_and_texts_on_every_blit(monkeypatch):
    monkeypatch.setattr(parts, "PARTS", ByteLRU(1 << 20, lambda p: surface_bytes(p.surface)))
    surf = pygame.Surface((1920, 1080))
    cv = Canvas(surf)
    made = []

    def draw(pc: Canvas) -> None:
        made.append(1)
        pc.panel(pc.rect(0, 0, 300, 120))
        pc.text("Ann 1,200", "bold", 40, (255, 255, 255), (20, 20))
        draw_face(pc, pc.rect(200, 10, 52, 74), parse_cards("As")[0])

    with record_texts() as drawn:
        first = parts.blit_part(cv, ("box", "Ann"), cv.rect(100, 100, 300, 120), (300, 120),
                                draw)
        second = parts.blit_part(cv, ("box", "Ann"), cv.rect(700, 500, 300, 120),
                                 (300, 120), draw)
    assert made == [1]  # drawn once, blitted twice
    assert cv.faces == list(parse_cards("As As"))
    assert [t.text for t in drawn] == ["Ann 1,200", "Ann 1,200"]
    assert first.contains(drawn[0].rect) and second.contains(drawn[1].rect)
    assert drawn[1].rect.topleft == (drawn[0].rect.x + 600, drawn[0].rect.y + 400)


def test_the_colour_keyed_corners_show_what_lies_under():
    surf = pygame.Surface((400, 300))
    surf.fill((1, 2, 3))
    cv = Canvas(surf, design=(400, 300))
    r = parts.blit_part(cv, ("corner test",), pygame.Rect(50, 50, 200, 100), (200, 100),
                        lambda pc: pc.panel(pc.rect(0, 0, 200, 100), radius=30))
    assert surf.get_at(r.topleft)[:3] == (1, 2, 3)  # the rounded corner
    assert surf.get_at(r.center)[:3] != (1, 2, 3)   # the panel


def test_the_parts_cache_stays_within_its_budget(monkeypatch):
    budget = 2 * 1024 * 1024
    monkeypatch.setattr(parts, "PARTS", ByteLRU(budget, lambda p: surface_bytes(p.surface)))
    surf = pygame.Surface((1920, 1080))
    state = busiest_state()
    for i in range(40):  # a new stack each frame: a new seat box each time
        table = state.table
        seats = tuple(replace(s, stack=s.stack + i) if s.seat == 2 else s for s in table.seats)
        render_frame(surf, replace(state, table=replace(table, seats=seats)))
        assert parts.PARTS.bytes <= budget
    assert 0 < len(parts.PARTS) < 40


def test_a_frame_from_cached_parts_is_the_frame_drawn_anew(monkeypatch):
    for size in ((1920, 1080), (1280, 720)):
        for layout in ("table", "split"):
            state = replace(busiest_state(), layout=layout)
            monkeypatch.setattr(parts, "PARTS", ByteLRU(64 << 20,
                                                        lambda p: surface_bytes(p.surface)))
            cold, warm = pygame.Surface(size), pygame.Surface(size)
            cold_faces = render_frame(cold, state).faces
            assert len(parts.PARTS) > 0
            warm_faces = render_frame(warm, state).faces
            assert pygame.image.tobytes(cold, "RGB") == pygame.image.tobytes(warm, "RGB")
            assert sorted(map(str, cold_faces)) == sorted(map(str, warm_faces))


def test_a_frame_drawn_on_another_thread_tells_nothing_to_this_threads_recorder(monkeypatch):
    """The TV draws on a thread of its own: its parts and texts stay out of a recorder
    here, and no recorder is left behind on either thread."""
    monkeypatch.setattr(parts, "PARTS", ByteLRU(64 << 20, lambda p: surface_bytes(p.surface)))
    left: list = []

    def tv() -> None:
        render_frame(pygame.Surface((1280, 720)), busiest_state())  # parts drawn anew
        left.append(list(theme._LOCAL.lists))

    with record_texts() as drawn:
        thread = threading.Thread(target=tv)
        thread.start()
        thread.join()
    assert drawn == [] and left == [[]] and theme._LOCAL.lists == []
