"""A line of progress while a simulated tournament plays, for the person waiting for it:
one at each new level (or break) and one every :data:`EVERY_HANDS` hands, e.g.
``"hand 40: level 5, blinds 500/1,000, 5 players left"``.  The caller decides where the
lines go (``pokertable run`` writes them to stderr: its stdout ends with the JSON summary).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.tournament.tournament import Tournament

EVERY_HANDS = 25  #: a line at least every this many hands


class Progress:
    """Calls ``emit(line)`` when :meth:`update` sees a new level or
    :data:`EVERY_HANDS` more hands since the last line."""

    def __init__(self, emit: Callable[[str], None], every: int = EVERY_HANDS) -> None:
        self.emit = emit
        self.every = every
        self._level: int | None = None
        self._hands: int | None = None

    def update(self, tour: Tournament) -> str | None:
        """The line emitted now, or None (cheap when nothing changed)."""
        hands, level = tour.hands_played, tour.clock.level
        if level.index == self._level and (
                self._hands is not None and hands < self._hands + self.every):
            return None
        self._level, self._hands = level.index, hands
        stage = (f"break after level {level.number}" if level.is_break else
                 f"level {level.number}, blinds {level.small_blind:,}/{level.big_blind:,}")
        line = f"hand {hands}: {stage}, {len(tour.active())} players left"
        self.emit(line)
        return line
