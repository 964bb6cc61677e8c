"""ViewChanges: the one place that decides what the TV and the seat displays draw again."""

from __future__ import annotations

from dataclasses import replace

from engine.views import ClockView, ScreenState, SeatDisplayView
from pi_app.screens import screen_key
from pi_app.service.changes import ViewChanges


def test_a_screen_is_handed_over_when_it_looks_different() -> None:
    changes = ViewChanges(screen_key)
    s1 = ScreenState(clock=ClockView(level_number=1, remaining_seconds=600.0), now=1.0)
    assert changes.screen(s1)
    assert not changes.screen(replace(s1, now=1.4))          # the same frame
    assert changes.screen(replace(s1, clock=replace(s1.clock, remaining_seconds=599.0)))
    assert changes.screen(replace(s1, alarms=("disk full",)))
    assert changes.screen(replace(s1, alarms=("disk full",)), force=True)


def test_by_default_any_difference_counts() -> None:
    changes = ViewChanges()
    s1 = ScreenState(now=1.0)
    assert changes.screen(s1) and not changes.screen(ScreenState(now=1.0))
    assert changes.screen(replace(s1, now=1.5))


def test_only_the_seats_whose_view_changed() -> None:
    changes = ViewChanges()
    views = {1: SeatDisplayView(seat=1, stack=100), 2: SeatDisplayView(seat=2, stack=200)}
    assert changes.seats(views) == views
    moved = {**views, 2: replace(views[2], stack=150)}
    assert changes.seats(moved) == {2: moved[2]}
    assert changes.seats(moved) == {}
    assert changes.seats(moved, force=True) == moved
    changes.forget()
    assert changes.seats(moved) == moved and changes.screen(ScreenState())
