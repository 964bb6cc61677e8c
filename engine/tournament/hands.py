"""The hands of a tournament: what the next hand is dealt at, its start, and its end (the
stacks checked, busts eliminated, the bonus wheel spun, the house's rounds counted).
Functions of a :class:`engine.tournament.tournament.Tournament`, which delegates to them
(pure: times are monotonic float seconds passed in; chips are ints).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.errors import InvalidInputError
from engine.tournament.clock import Clock, ClockAlert, ClockError
from engine.tournament.entrant import Entrant
from engine.tournament.structure import Structure


class ChipCountError(InvalidInputError):
    """Stacks after a hand that do not add up (chips appeared or vanished)."""


@dataclass(frozen=True)
class NextHand:
    """What the next hand is dealt at (HandConfig inputs; chips)."""

    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    min_bet: int | None
    bonus: int
    raise_rule: str
    level_number: int
    hand_number: int
    heads_up_hand: int | None = None
    sudden_death: bool = False


class Tournament(Protocol):
    """What these functions read and change of a
    :class:`engine.tournament.tournament.Tournament` (named here, not imported, so that
    the two modules import in one direction only)."""

    structure: Structure
    clock: Clock
    finished: bool
    round_over: bool
    current: NextHand | None
    hands_played: int
    hand_seconds_total: float
    hand_started_at: float | None
    hand_start_chips: dict[int, int]
    bonus_hand: int | None
    bonus_amount: int
    pending_bonus: int
    wheel_spun_at: float | None
    heads_up_hands: int | None
    sudden_death: bool

    def active(self) -> list[Entrant]: ...
    def stacks(self) -> dict[int, int]: ...
    def _by_seat(self, seat: int,
                 seated: Mapping[int | None, Entrant] | None = None) -> Entrant: ...
    def _alert(self, kind: str, t: float, message: str) -> ClockAlert: ...
    def _eliminate_tied(self, now: float, group: list[Entrant],
                        by: Entrant) -> list[ClockAlert]: ...
    def _heads_up(self, now: float, was_heads_up: bool) -> list[ClockAlert]: ...
    def _check_round_end(self, now: float) -> list[ClockAlert]: ...


def next_hand(tour: Tournament, now: float) -> NextHand:
    """The next hand's blinds, antes, minimum bet, bonus and raise rule (no change)."""
    lv = tour.clock.at(now).playing_level()
    hu = None
    if tour.heads_up_hands is not None:
        hu = tour.heads_up_hands + 1
    return NextHand(lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.min_bet,
                    tour.pending_bonus, tour.structure.raise_rule, lv.number,
                    tour.clock.hand_count + 1, hu, tour.sudden_death)


def verify_hand_started(tour: Tournament, now: float) -> None:
    """Raises ClockError as :func:`hand_started` at ``now`` would (not started, over,
    fewer than two players, a hand in progress, a break at ``now``); changes nothing."""
    if not tour.clock.started:
        raise ClockError("start the tournament first")
    if tour.finished or tour.round_over:
        raise ClockError("the tournament is over" if tour.finished else "the round is over")
    if len(tour.active()) < 2:
        raise ClockError("fewer than two players are left")
    tour.clock.verify_hand_started(now)


def hand_started(tour: Tournament, now: float) -> list[ClockAlert]:
    """The next hand is dealt now, at :func:`next_hand`'s values (its bonus is used);
    raises as :func:`verify_hand_started`."""
    verify_hand_started(tour, now)
    setup = next_hand(tour, now)
    out = tour.clock.hand_started(now)
    tour.current = setup
    tour.pending_bonus = 0
    tour.hand_started_at = now
    tour.hand_start_chips = tour.stacks()
    return out


def _check_stacks(tour: Tournament, stacks: Mapping[int, int], bonus: int) -> None:
    """Raises ChipCountError unless ``stacks`` are of seats dealt in, whole and add up to
    the chips they started the hand with plus ``bonus``."""
    before = tour.hand_start_chips
    unknown = [s for s in stacks if s not in before]
    if unknown:
        raise ChipCountError(f"seat(s) {unknown} were not dealt in")
    if any((not isinstance(v, int)) or v < 0 for v in stacks.values()):
        raise ChipCountError(f"stacks must be whole numbers >= 0: {dict(stacks)}")
    expected = sum(before[s] for s in stacks) + bonus
    if sum(stacks.values()) != expected:
        raise ChipCountError(f"the stacks add up to {sum(stacks.values())}, expected "
                             f"{expected} (chips at the start of the hand plus bonus)")


def hand_finished(tour: Tournament, now: float, stacks: Mapping[int, int]) -> list[ClockAlert]:
    """The hand ended at ``now`` with ``stacks`` (seat -> chips, the seats dealt in).

    Seats at 0 are eliminated (simultaneous busts ordered by the chips they started the
    hand with, TDA); the knockout is credited to the seat that gained most.

    Raises:
        ClockError: no hand is in progress.
        ChipCountError: the chips do not add up to those put in plus the bonus.
    """
    if tour.current is None:
        raise ClockError("no hand is in progress")
    _check_stacks(tour, stacks, tour.current.bonus)
    before = tour.hand_start_chips
    out = tour.clock.hand_finished(now)
    done = tour.current
    tour.current = None
    tour.hands_played += 1
    if tour.hand_started_at is not None:
        tour.hand_seconds_total += max(0.0, now - tour.hand_started_at)
    seated = {e.seat: e for e in reversed(tour.active())}  # as _by_seat, sorted once
    for seat, chips in stacks.items():
        tour._by_seat(seat, seated).chips = chips
    busted = sorted((s for s, c in stacks.items() if c == 0), key=lambda s: (before[s], s))
    if busted:
        gains = {s: stacks[s] - before[s] for s in stacks}
        winner = max(gains, key=lambda s: (gains[s], -s))
        for chips in sorted({before[s] for s in busted}):
            tied = [tour._by_seat(s, seated) for s in busted if before[s] == chips]
            out += tour._eliminate_tied(now, tied, tour._by_seat(winner))
    out += _spin_wheel(tour, now)
    out += tour._heads_up(now, done.heads_up_hand is not None)
    out += tour._check_round_end(now)
    return out


def _spin_wheel(tour: Tournament, now: float) -> list[ClockAlert]:
    """The bonus wheel spins once its drawn hand has been played (seed 000, Party Pop):
    its amount goes into the next hand's pot."""
    if (tour.bonus_hand is None or tour.wheel_spun_at is not None
            or tour.clock.hand_count < tour.bonus_hand or tour.finished):
        return []
    tour.wheel_spun_at = now
    tour.pending_bonus = tour.bonus_amount
    name = tour.structure.bonus_wheel.name if tour.structure.bonus_wheel else "Bonus"
    return [tour._alert("bonus_wheel", now, f"{name}: {tour.bonus_amount:,} in the next hand's pot")]
