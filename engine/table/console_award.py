"""A pot awarded by hand: the shoe is offline (or the hand was dealt by keyed cards) and the
director names the winners; the hand ends there.

The chips each seat put in are layered into the main pot and side pots
(:func:`engine.betting.pots.build_pots`, TDA 17 side pots); each pot goes to the named
winners eligible for it, split evenly, odd chips one by one from the first winner left of
the button (TDA 20-A).  A pot none of the named seats may win is an error naming it.  The
chip count is checked by the tournament (:meth:`Tournament.hand_finished`): nothing is lost.
No hand history is written for a hand whose cards are not known.
"""

from __future__ import annotations

from engine.betting.pots import build_pots
from engine.effects import Effect, Notice
from engine.table.console_base import ConsoleRefused
from engine.table.console_core import ConsoleCore
from engine.tournament.clock import ClockError


def _shares(core: ConsoleCore, winners: list[int]) -> dict[int, int]:
    """Seat -> the chips ``winners`` (1-based seats) get of the pots; changes nothing.

    Raises:
        ConsoleRefused: no hand, the shoe online on a hand dealt by the shoe, a winner who
            folded or was not dealt in, or a pot none of the winners may win.
    """
    hand = core.hand
    if not core.in_hand or hand is None:
        raise ConsoleRefused("no hand is being played")
    if "shoe" not in core.offline and core.console.keyed_hand != core.hand_number:
        raise ConsoleRefused("the shoe is online: the cards decide the pot")
    seats = list(hand.seats)
    live = [hand.status(s) not in ("folded", "out") for s in seats]
    for w in winners:
        if w not in seats or not live[seats.index(w)]:
            raise ConsoleRefused(f"seat {w} is not in this hand")
    start = hand.starting_stacks
    contributions = [start[s] - hand.stacks[s] for s in seats]
    pots = build_pots(contributions, live, dead=hand.config.bonus)  # the bonus is dead money
    order = _left_of_button(seats, hand.button)
    shares = dict.fromkeys(seats, 0)
    # a live player who is not all-in may still match any bet: eligible for every pot
    uncapped = {i for i, s in enumerate(seats) if live[i] and hand.stacks[s] > 0}
    for n, (amount, eligible) in enumerate(pots):
        names = [seats[i] for i in sorted(set(eligible) | uncapped)]
        won = [s for s in order if s in winners and s in names]
        if not won:
            label = "the main pot" if n == 0 else f"side pot {n}"
            raise ConsoleRefused(f"none of seats {winners} may win {label} "
                                 f"(eligible: {names})")
        each, odd = divmod(amount, len(won))
        for i, s in enumerate(won):
            shares[s] += each + (1 if i < odd else 0)
    return shares


def verify_award_by_hand(core: ConsoleCore, winners: list[int]) -> None:
    """Raises as :func:`award_by_hand` would; changes nothing (see :func:`_shares`; a
    hand set up outside the tournament has no hand of the tournament to finish)."""
    _shares(core, winners)
    if core.tournament.current is None:
        raise ClockError("no hand is in progress")


def award_by_hand(core: ConsoleCore, winners: list[int], t: float) -> tuple[list[Effect], str]:
    """End the hand with its pots to ``winners`` (1-based seats).  Returns the effects and
    the audit line.  Raises as :func:`verify_award_by_hand`."""
    shares = _shares(core, winners)
    hand = core.hand
    assert hand is not None  # verified
    seats, start = list(hand.seats), hand.starting_stacks
    final = {s: hand.stacks[s] + shares[s] for s in seats}
    effects = core._clock_effects(core.tournament.hand_finished(t, final))
    core.proc = None
    core.results = {s: final[s] - start[s] for s in seats}
    core.seat_inputs, core.undo = {}, None
    words = ", ".join(f"seat {s} +{shares[s]}" for s in seats if shares[s])
    shown = ", ".join(f"seat {s} +{shares[s]:,}" for s in seats if shares[s])
    return effects + [Notice(f"Pot awarded by hand: {shown}")], f"pot awarded by hand: {words}"


def _left_of_button(seats: list[int], button: int) -> list[int]:
    """``seats`` clockwise from the first seat left of the button."""
    after = [s for s in seats if s > button]
    return after + [s for s in seats if s <= button]
