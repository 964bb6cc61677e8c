"""One entry of a tournament (the player, their seat, chips and how their tournament went)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Entrant:
    """One entry.  ``level_number``: the level of registration (0 = before the start);
    ``out_order``: 1 for the first player out; ``spend``: money paid (e in league points)."""

    entry_id: int
    name: str
    seat: int | None
    chips: int
    level_number: int = 0
    deduction: int = 0
    spend: int = 0
    round: int = 0
    bounty: bool = False
    out_order: int | None = None
    out_at: float | None = None
    chips_at_out: int = 0
    knocked_out_by: int | None = None
    knockouts: int = 0
    high_hands: int = 0
    qualified: bool = False

    @property
    def active(self) -> bool:
        return self.out_order is None
