"""Where the button and the blinds go for the next hand of a tournament (pure).

The dead-button rule used in tournaments (TDA 32): the big blind moves one player clockwise
every hand; the small blind goes to the seat that had the big blind (not posted if that
player is out: a dead small blind) and the button to the seat that had the small blind (a
dead button if that player is out).  Heads-up, the button posts the small blind and acts
first before the flop, and nobody takes the big blind twice in a row (TDA 34-B).  The first
hand draws for the button.

>>> import random
>>> p = next_positions(Positions(), [1, 3, 5, 6], random.Random(1))
>>> p.small_blind == [1, 3, 5, 6][([1, 3, 5, 6].index(p.button) + 1) % 4]
True
>>> next_positions(Positions(button=5, small_blind=6, big_blind=1), [1, 3, 5, 6], None)
Positions(button=6, small_blind=1, big_blind=3)
>>> next_positions(Positions(button=5, small_blind=6, big_blind=1), [1, 3, 5], None)
Positions(button=6, small_blind=1, big_blind=3)
>>> next_positions(Positions(button=5, small_blind=5, big_blind=1), [1, 5], None)
Positions(button=1, small_blind=1, big_blind=5)
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Positions:
    """Seats (1-based) of the button and the blinds; a seat with nobody in it is a dead
    button or a small blind not posted.  All None before the first hand."""

    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None


#: House options for who posts the small blind when play becomes heads-up.
HEADS_UP_RULES = ("button", "high_card")


def next_positions(previous: Positions, active: list[int],
                   rng: random.Random | None, heads_up: str = "button") -> Positions:
    """The next hand's positions.

    Args:
        previous: the last hand's positions (``Positions()`` before the first hand).
        active: the seats with a player and chips, in seat order (2 or more).
        rng: draws the first button, and the high card of ``heads_up="high_card"``.
        heads_up: ``button`` (TDA 34: the button posts the small blind; nobody takes the
            big blind twice in a row) or ``high_card`` (seed 003's house rule: when play
            becomes heads-up, the two draw and the high card posts the small blind).
    """
    active = sorted(active)
    was_heads_up = previous.button is not None and previous.button == previous.small_blind
    if (heads_up == "high_card" and len(active) == 2 and previous.big_blind is not None
            and not was_heads_up):
        high = (rng or random.Random(0)).choice(active)  # the draw for the high card
        return Positions(high, high, next(s for s in active if s != high))

    def after(seat: int) -> int:
        return next((s for s in active if s > seat), active[0])

    if previous.big_blind is None:
        button = (rng or random.Random(0)).choice(active)  # the draw for the button
        if len(active) == 2:
            return Positions(button, button, after(button))
        sb = after(button)
        return Positions(button, sb, after(sb))
    bb = after(previous.big_blind)
    if len(active) == 2:
        other = next(s for s in active if s != bb)
        return Positions(other, other, bb)
    sb_seat = previous.big_blind
    btn = previous.small_blind if previous.small_blind is not None else sb_seat
    if btn == bb:
        btn = sb_seat
    return Positions(btn, sb_seat, bb)


#: House options for a new player seated between the button and the small blind.
NEW_PLAYER_RULES = ("button_passes", "at_once")


def waiting_seats(pos: Positions, active: list[int], previous: list[int],
                  rule: str = "button_passes") -> set[int]:
    """Seats that sit out this hand: a new player (not in ``previous``, the seats dealt in
    last hand) seated between the button and the small blind is dealt in once the button
    has passed (the standard rule, house option ``button_passes``); ``at_once`` deals
    them in at once.  Before the first hand nobody waits.

    >>> waiting_seats(Positions(3, 5, 6), [1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 6])
    {4}
    >>> waiting_seats(Positions(5, 6, 1), [1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 6])
    set()
    """
    if rule == "at_once" or not previous or pos.button is None or pos.small_blind is None:
        return set()
    ring = sorted(set(active) | {pos.button, pos.small_blind})
    i = ring.index(pos.button)
    between: set[int] = set()
    for k in range(1, len(ring)):
        seat = ring[(i + k) % len(ring)]
        if seat == pos.small_blind:
            break
        between.add(seat)
    return {s for s in between if s in active and s not in previous}
