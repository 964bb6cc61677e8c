"""The venue director's clock in virtual time, and the places of a round's busts (pure).

:class:`VenueClock` runs on the milliseconds the tables report (``elapsed_ms`` of each
hand): a round of hands lasts as long as its longest hand, and a level ends when its time
is used up; the change reaches the tables at the next boundary ("blinds up next hand").

>>> clock = VenueClock(((0, 25, 50, 0, 60_000), (1, 50, 100, 0, 60_000)))
>>> clock.advance(45_000), clock.remaining_ms(), clock.advance(20_000), clock.level_args()
(False, 15000, True, (1, 50, 100, 0))
>>> clock.remaining_ms()
55000
>>> rank_busts([("Ann", 300), ("Bob", 900), ("Cy", 300)], remaining=9)
{'Bob': 7, 'Ann': 8, 'Cy': 8}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: (structure level index, small blind, big blind, ante, duration in ms; 0: no end)
LevelSpec = tuple[int, int, int, int, int]


@dataclass
class VenueClock:
    """The level now (``position`` in ``levels``) and the milliseconds of it used."""

    levels: tuple[LevelSpec, ...]
    position: int = 0
    elapsed_ms: int = 0

    def level_args(self) -> tuple[int, int, int, int]:
        """(level index, small blind, big blind, ante) of the level now, in chips."""
        index, small, big, ante, _ms = self.levels[self.position]
        return index, small, big, ante

    def remaining_ms(self) -> int:
        """Milliseconds left in the level now (0 for a level without an end)."""
        duration = self.levels[self.position][4]
        return max(0, duration - self.elapsed_ms) if duration else 0

    def advance(self, ms: int) -> bool:
        """Let ``ms`` milliseconds pass (a round); whether the level changed.  Time left
        over at the end of a level counts in the next; the last level never ends."""
        self.elapsed_ms += ms
        changed = False
        while self.position + 1 < len(self.levels):
            duration = self.levels[self.position][4]
            if not duration or self.elapsed_ms < duration:
                break
            self.elapsed_ms -= duration
            self.position += 1
            changed = True
        return changed


def rank_busts(busts: Sequence[tuple[str, int]], remaining: int) -> dict[str, int]:
    """Places of the players busted in one round: ``busts`` (player, chips at the start of
    the hand), ``remaining``: players in before the round's busts.  They take the places
    ``remaining - len(busts) + 1 .. remaining``; more chips at the start finishes higher,
    equal chips share the better place (players eliminated on the same hand: TDA)."""
    first = remaining - len(busts) + 1
    return {player: first + sum(1 for _, c in busts if c > chips)
            for player, chips in sorted(busts, key=lambda b: -b[1])}
