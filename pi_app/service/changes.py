"""The one place that decides whether the TV or a seat display must be drawn again.

The loop asks :class:`ViewChanges` after every event; the devices then draw every view
they are handed (the TV adapter, the seat displays and the simulator's pictures compare
nothing themselves).  What counts as a visible change of the TV is the ``screen_key`` of
:mod:`pi_app.screens` (the state without its timestamp, the clock as the texts it shows),
so a tick inside the same second draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from engine.views import ScreenState, SeatDisplayView

_NOTHING: Any = object()


def _same(state: ScreenState) -> Hashable:
    return state


class ViewChanges:
    """Remembers what was last handed to the TV and to each seat display.

    Args:
        screen_key: ``screen_key(state)`` -> the value compared to decide a redraw of the
            TV (default: the state itself).
    """

    def __init__(self, screen_key: Callable[[ScreenState], Hashable] | None = None) -> None:
        self.screen_key = screen_key or _same
        self._screen: Any = _NOTHING
        self._seats: dict[int, SeatDisplayView] = {}

    def screen(self, state: ScreenState, *, force: bool = False) -> bool:
        """Whether ``state`` looks different from the last screen handed over (then it is
        remembered as handed over); ``force``: always."""
        key = self.screen_key(state)
        if not force and key == self._screen:
            return False
        self._screen = key
        return True

    def seats(self, views: Mapping[int, SeatDisplayView], *, force: bool = False
              ) -> dict[int, SeatDisplayView]:
        """The seat views (seat -> view) that differ from the last handed over (then
        remembered as handed over); ``force``: all of them."""
        changed = {s: v for s, v in views.items() if force or self._seats.get(s) != v}
        self._seats.update(changed)
        return changed

    def forget(self) -> None:
        """Everything is drawn again at the next ask (a device was replaced)."""
        self._screen = _NOTHING
        self._seats.clear()
