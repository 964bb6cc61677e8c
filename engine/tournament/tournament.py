"""The tournament model: entrants, the blind clock, eliminations, extras and stats (pure).

API for the service loop (times are monotonic float seconds passed in; every method that
takes ``now`` and changes state returns the list of :class:`engine.tournament.clock.ClockAlert` it
caused, in order; a rejected call raises a :class:`engine.errors.PokerTableError` subclass
and changes nothing)::

    from engine.tournament.structure_file import load_structure
    from engine.tournament.tournament import Tournament
    t = Tournament(load_structure("gunpowder"), seed=7)
    t.register("Ann", seat=1); t.register("Bob", seat=2)   # before start: full stacks
    alerts = t.start(now)                  # clock starts; bounty chip assigned; wheel drawn
    alerts = t.tick(now)                   # every redraw: level changes, warnings
    setup = t.next_hand(now)               # NextHand: small_blind, big_blind, ante,
                                           #   big_blind_ante, min_bet, bonus, raise_rule ...
    sb, bb, ante, bba = t.blinds_for_next_hand(now)
    stacks = t.stacks()                    # seat -> chips of the players still in
    alerts = t.hand_started(now)           # consumes a pending bonus (setup.bonus)
    alerts = t.hand_finished(now, hand.stacks)   # seat -> chips after the hand; busts are
                                           #   eliminated, heads-up limit applied
    t.register("Cy", seat=3, now=now)      # late entry (stack minus the level's deduction)
    t.eliminate(now, seat=3); t.undo_elimination(now)
    report = t.color_up({1: {100: 6}, 2: {100: 13}})   # per seat removed chips (or values)
    t.pause(now); t.resume(now); t.add_time(now, 60); t.next_level(now)
    t.previous_level(now); t.jump_to_level(now, index)
    view = t.clock_view(now)               # engine.views.ClockView (public)
    wheel = t.wheel_view()                 # engine.views.WheelView or None
    t.stats(now); t.standings(); t.payouts(); t.league_points()
    room = t.room_view()                   # engine.views.RoomView: payouts, places, winner
    d = t.to_dict(now); t2 = Tournament.from_dict(d, structure, now=now2,
                                                  policy="paused", offline_seconds=None)

Qualifiers and a final (seed 002, ``[qualifiers]``): register the players of the next round,
then ``start(now)`` starts that round with its own time limit; when the time is up, the
hand in progress is played out and the round ends (alert ``round_over``) with the top
``advance`` stacks qualifying.  After the last qualifier ``start(now)`` starts the final with
the qualifiers seated from seat 1 in order of qualification, each with a fresh starting
stack (our choice; the seed does not say).  Ties at a cut are broken by seat order and
reported in a notice (our choice; the floor can correct with ``correct_stacks``).

The model's state and its API live here; its rules are in modules of one concern each, to
which the methods delegate: :mod:`engine.tournament.registration` (entries),
:mod:`engine.tournament.starting` (the start, bounty, wheel draw),
:mod:`engine.tournament.hands` (a hand's setup, start and end),
:mod:`engine.tournament.eliminations`, :mod:`engine.tournament.house_rounds`,
:mod:`engine.tournament.report` and :mod:`engine.tournament.snapshot` (the journal's dict).

Sources: seed 000 (late entries, round-up color-up, Party Pop), seed 002 (qualifiers),
seed 003 (bounty chip, heads-up hand limit, no entries after the first raise); Poker TDA
(players eliminated in the same hand: the one who started the hand with more chips finishes
higher).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from decimal import Decimal
from operator import attrgetter
from typing import Any

from engine.errors import IllegalActionError, InvalidInputError
from engine.tournament import (
    eliminations,
    hands,
    house_rounds,
    registration,
    report,
    room,
    snapshot,
    starting,
)
from engine.tournament.clock import Clock, ClockAlert, ClockError
from engine.tournament.color_up import ColorUpResult, color_up
from engine.tournament.entrant import Entrant
from engine.tournament.hands import ChipCountError, NextHand
from engine.tournament.registration import MAX_SEATS, RegistrationError
from engine.tournament.structure import Structure
from engine.views import ClockView, RoomView, WheelView

_SEAT = attrgetter("seat")  # the sort key of Tournament.active (a seated entrant's seat)
__all__ = ["Entrant", "NextHand", "RegistrationError", "ChipCountError", "Stats", "Tournament",
           "MAX_SEATS"]
Stats = report.Stats  # re-exported: the result of Tournament.stats()


class Tournament:
    """See the module docstring for the API."""

    def __init__(self, structure: Structure, *, seed: int = 0, name: str | None = None):
        self.structure = structure
        self.seed = seed
        self.name = name or structure.name
        self.entrants: list[Entrant] = []
        self.round = 0  # qualifier round being played (0: none yet); rounds+1 = final
        self.round_over = False
        self.clock = Clock(self._round_structure())
        self.hands_played = 0
        self.hand_seconds_total = 0.0
        self.hand_started_at: float | None = None
        self.hand_start_chips: dict[int, int] = {}
        self.current: NextHand | None = None
        self.bonus_hand: int | None = None
        self.bonus_amount = 0
        self.pending_bonus = 0
        self.wheel_spun_at: float | None = None
        self.heads_up_hands: int | None = None
        self.sudden_death = False
        self.colored_up: list[int] = []
        self.finished = False
        self.notices: list[str] = []

    # ------------------------------------------------------------------ helpers
    def _round_structure(self) -> Structure:
        q = self.structure.qualifiers
        if q is None:
            return self.structure
        final = self.round > q.rounds
        minutes = q.final_minutes if final else q.minutes
        label = "final" if final else f"qualifier {max(self.round, 1)}"
        lv = dataclasses.replace(self.structure.levels[0], minutes=minutes, hands=None)
        return dataclasses.replace(self.structure, levels=(lv,),
                                   name=f"{self.structure.name} ({label})")

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{purpose}")

    def active(self) -> list[Entrant]:
        """Players still in (the current round's, with qualifiers), by seat."""
        return sorted([e for e in self.entrants if e.active and e.seat is not None
                       and e.round == self.round], key=_SEAT)

    def _by_seat(self, seat: int, seated: Mapping[int | None, Entrant] | None = None) -> Entrant:
        """The player in ``seat``; ``seated``: the :meth:`active` players by seat, made once
        by a caller that looks up several."""
        for e in self.active() if seated is None else [seated.get(seat)]:
            if e is not None and e.seat == seat:
                return e
        raise InvalidInputError(f"no player in seat {seat}")

    def stacks(self) -> dict[int, int]:
        """seat -> chips of the players still in."""
        return {e.seat: e.chips for e in self.active() if e.seat is not None}

    def round_entrants(self) -> list[Entrant]:
        """The entrants of the round being played (every entrant outside qualifiers)."""
        return [e for e in self.entrants if e.round == self.round]

    # ------------------------------------------------------------------ registration
    # (the rules are in engine.tournament.registration)
    def registration_open(self) -> bool:
        """True while a new entry may join (before the start, or during late registration;
        never once the tournament is over)."""
        return registration.registration_open(self)

    def verify_register(self, name: str, seat: int) -> None:
        """Raises RegistrationError as :meth:`register` of ``name`` at ``seat`` would
        (registration closed, seat taken or out of range, no name); changes nothing."""
        registration.verify_register(self, name, seat)

    def register(self, name: str, seat: int, now: float | None = None) -> Entrant:
        """Add an entry at ``seat`` (1..10).  After the start it is a late entry: the stack
        is reduced by the deduction of the level being played (seed 000).  Raises
        RegistrationError as :meth:`verify_register`, which it calls first."""
        return registration.register(self, name, seat)

    def _closed_reason(self) -> str:
        return registration.closed_reason(self)

    # ------------------------------------------------------------------ start and clock
    def verify_start(self) -> None:
        """Raises as :meth:`start` would now (started, round on, over, too few); no change."""
        starting.verify_start(self)

    def start(self, now: float) -> list[ClockAlert]:
        """Start the tournament (or the next qualifier) at ``now``; raises as :meth:`verify_start`."""
        return starting.start(self, now)

    def tick(self, now: float) -> list[ClockAlert]:
        """Bring the clock to ``now`` (call on every redraw)."""
        out = self.clock.update(now)
        if self.structure.qualifiers is None:  # a round ends only in a house-rounds night
            return out
        return out + self._check_round_end(now)

    def pause(self, now: float) -> list[ClockAlert]:
        return self.clock.pause(now)

    def resume(self, now: float) -> list[ClockAlert]:
        return self.clock.resume(now)

    def add_time(self, now: float, seconds: float) -> list[ClockAlert]:
        return self.clock.add_time(now, seconds) + self._check_round_end(now)

    def add_hands(self, now: float, hands: int) -> list[ClockAlert]:
        return self.clock.add_hands(now, hands)

    def next_level(self, now: float) -> list[ClockAlert]:
        return self.clock.next_level(now)

    def previous_level(self, now: float) -> list[ClockAlert]:
        return self.clock.previous_level(now)

    def jump_to_level(self, now: float, index: int) -> list[ClockAlert]:
        return self.clock.jump_to(now, index)

    # ------------------------------------------------------------------ hands
    def next_hand(self, now: float) -> NextHand:
        """The next hand's blinds, antes, minimum bet, bonus and raise rule (no change)."""
        return hands.next_hand(self, now)

    def blinds_for_next_hand(self, now: float) -> tuple[int, int, int, int]:
        """``(small_blind, big_blind, ante, big_blind_ante)`` of the next hand."""
        h = hands.next_hand(self, now)
        return h.small_blind, h.big_blind, h.ante, h.big_blind_ante

    def verify_hand_started(self, now: float) -> None:
        """Raises ClockError as :meth:`hand_started` at ``now`` would (not started, over,
        fewer than two players, a hand in progress, a break at ``now``); changes nothing."""
        hands.verify_hand_started(self, now)

    def hand_started(self, now: float) -> list[ClockAlert]:
        """The next hand is dealt now, at :meth:`next_hand`'s values (its bonus is used);
        raises as :meth:`verify_hand_started`."""
        return hands.hand_started(self, now)

    def hand_finished(self, now: float, stacks: Mapping[int, int]) -> list[ClockAlert]:
        """The hand ended at ``now`` with ``stacks`` (seat -> chips, the seats dealt in);
        see :func:`engine.tournament.hands.hand_finished` (busts eliminated, TDA order).
        Raises ChipCountError when the chips do not add up to those put in plus the bonus."""
        return hands.hand_finished(self, now, stacks)

    # ------------------------------------------------------------------ eliminations
    def _alert(self, kind: str, t: float, message: str) -> ClockAlert:
        lv = self.clock.level
        return ClockAlert(kind, t, lv.index, lv.number, message)

    def out_count(self) -> int:
        """How many entrants of this round are out."""
        return sum(1 for e in self.round_entrants() if not e.active)

    def _eliminate(self, now: float, e: Entrant, *, by: Entrant | None = None,
                   keep_chips: bool = False) -> list[ClockAlert]:
        e.out_order = self.out_count() + 1
        e.out_at = now
        e.chips_at_out = e.chips
        if by is not None and by is not e:
            e.knocked_out_by = by.entry_id
            by.knockouts += 1
            if keep_chips:
                by.chips += e.chips
        e.chips = 0
        out = [self._alert("eliminated", now, f"{e.name} finishes {self.place(e)}")]
        left = self.active()
        if len(left) == 1 and self.structure.qualifiers is None:
            self.finished = True
            out.append(self._alert("tournament_over", now, f"{left[0].name} wins"))
            if self.clock.running:  # the clock stops with the last player out
                out += self.clock.pause(now)
        return out

    def _eliminate_tied(self, now: float, group: list[Entrant], by: Entrant) -> list[ClockAlert]:
        return eliminations.eliminate_tied(self, now, group, by)

    def eliminate(self, now: float, seat: int, by: int | None = None) -> list[ClockAlert]:
        """Operator: the player in ``seat`` is out now; any chips they had leave play.
        ``by``: the seat of the player who knocked them out, credited with the knockout
        (results, league points); raises InvalidInputError for their own or an empty seat."""
        eliminations.verify_eliminate(self, seat, by)
        winner = None if by is None else self._by_seat(by)
        return self._eliminate(now, self._by_seat(seat), by=winner) + self._check_round_end(now)

    def undo_elimination(self, now: float, entry_id: int | None = None, *,
                         chips: int | None = None) -> Entrant:
        """Put a mistakenly eliminated player back (default: the last one out) with
        ``chips`` (default: the chips they had when eliminated; needed when they busted in a
        hand).  Later finishing places move up accordingly."""
        return eliminations.undo_elimination(self, entry_id, chips=chips)

    def correct_stacks(self, stacks: Mapping[int, int]) -> None:
        """Operator correction of counted stacks (seat -> chips) between hands."""
        if self.current is not None:
            raise ClockError("finish the hand first")
        for seat in stacks:
            self._by_seat(seat)
        for seat, chips in stacks.items():
            if not isinstance(chips, int) or chips <= 0:
                raise InvalidInputError(f"seat {seat}: chips must be > 0 (eliminate instead)")
        for seat, chips in stacks.items():
            self._by_seat(seat).chips = chips

    def place(self, e: Entrant) -> int | None:
        """Finishing place (1 = winner) once known."""
        n = len(self.round_entrants()) if e.round == self.round else len(
            [x for x in self.entrants if x.round == e.round])
        if e.out_order is not None:
            return n - e.out_order + 1
        if e.round == self.round and self.finished and len(self.active()) == 1:
            return 1
        return None

    def standings(self) -> list[tuple[int | None, Entrant]]:
        """(place, entrant) of the current round: players still in by chips, then the
        eliminated by place."""
        ents = self.round_entrants()
        ins = sorted((e for e in ents if e.active), key=lambda e: -e.chips)
        outs = sorted((e for e in ents if not e.active), key=lambda e: self.place(e) or 0)
        return [(self.place(e), e) for e in ins] + [(self.place(e), e) for e in outs]

    # ------------------------------------------------------------------ house rounds
    def _heads_up(self, now: float, was_heads_up: bool) -> list[ClockAlert]:
        return house_rounds.heads_up_limit(self, now, was_heads_up)

    def _check_round_end(self, now: float) -> list[ClockAlert]:
        return house_rounds.check_round_end(self, now)

    # ------------------------------------------------------------------ color-up
    def color_up(self, removed_by_seat: Mapping[int, Mapping[int, int] | int]) -> ColorUpResult:
        """Exchange the chips colored up at the current entry, per seat (denomination ->
        count, or the value in removed chips).  Stacks and chips in play change by each
        seat's ``change``.  Raises IllegalActionError when no color-up is due."""
        if self.current is not None:
            raise ClockError("color up between hands")
        idx = self.clock.index
        due = [lv for lv in self.clock.structure.levels[: idx + 1]
               if lv.color_up and lv.index not in self.colored_up]
        if not due:
            raise IllegalActionError("no color-up is due")
        lv = due[-1]
        removed = tuple(d for x in due for d in x.color_up)
        remaining = self.clock.structure.denominations_in_play(idx)
        seats = self.stacks()
        for s in removed_by_seat:
            self._by_seat(s)
        values = {s: (v if isinstance(v, int) else sum(int(d) * c for d, c in v.items()))
                  for s, v in removed_by_seat.items()}
        for s, v in values.items():
            if v > seats[s]:
                raise InvalidInputError(f"seat {s}: {v} in removed chips but the stack is "
                                        f"{seats[s]}")
        result = color_up(self.structure.color_up_rule, removed_by_seat, removed, remaining,
                          rng=self._rng(f"race:{lv.index}"),
                          other_value_by_seat={s: seats[s] - values[s] for s in values})
        for sc in result.seats:
            self._by_seat(sc.seat).chips += sc.change
        self.colored_up += [x.index for x in due]
        return result

    def color_up_due(self) -> tuple[int, ...]:
        """Denominations whose color-up is due now and not done yet."""
        return tuple(d for lv in self.clock.structure.levels[: self.clock.index + 1]
                     if lv.index not in self.colored_up for d in lv.color_up)

    # ------------------------------------------------------------------ reports
    # (computed in engine.tournament.report; thin wrappers keep the API in one place)
    def entries(self) -> list[Entrant]:
        """Every paid entry (the final's seats, copies of qualifiers, excluded)."""
        return report.entries(self)

    def prize_pool(self) -> int:
        """Sum of the entries' buy-ins."""
        return report.prize_pool(self)

    def payouts(self) -> list[tuple[int, int]]:
        """(place, amount) from the payout table; see :func:`engine.tournament.report.payouts`."""
        return report.payouts(self)

    def prizes(self) -> dict[int, int]:
        """entry_id -> prize; see :func:`engine.tournament.report.prizes`."""
        return report.prizes(self)

    def league_points(self) -> dict[int, Decimal]:
        """entry_id -> league points of every placed entrant (exact, 0.01-point unit); see
        :func:`engine.tournament.report.league_points`."""
        return report.league_points(self)

    def estimated_seconds_to_end(self, now: float, clock: Clock | None = None) -> float | None:
        """See :func:`engine.tournament.report.estimated_seconds_to_end`."""
        return report.estimated_seconds_to_end(self, now, clock)

    def stats(self, now: float) -> report.Stats:
        """Standings and stats at ``now`` (does not change the tournament)."""
        return report.stats(self, now)

    def clock_view(self, now: float) -> ClockView:
        """The public :class:`engine.views.ClockView` at ``now`` (does not change state)."""
        return report.clock_view(self, now)

    def room_view(self) -> RoomView:
        """What the room's screen shows beside the clock; see :mod:`engine.tournament.room`."""
        return room.room_view(self)

    def wheel_view(self) -> WheelView | None:
        """The bonus wheel once it has spun (the screen animates it), else None."""
        return report.wheel_view(self)

    # ------------------------------------------------------------------ snapshot
    # (written and read in engine.tournament.snapshot)
    def to_dict(self, now: float) -> dict[str, Any]:
        """JSON-able snapshot at ``now`` (for the journal)."""
        return snapshot.to_dict(self, now)

    @classmethod
    def from_dict(cls, d: dict[str, Any], structure: Structure, *, now: float,
                  policy: str = "paused", offline_seconds: float | None = None) -> Tournament:
        """Restore a snapshot (see :meth:`engine.tournament.clock.Clock.from_dict` for the policy)."""
        return snapshot.from_dict(cls, d, structure, now=now, policy=policy,
                                  offline_seconds=offline_seconds)
