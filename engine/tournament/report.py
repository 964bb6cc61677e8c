"""Reports on a tournament: payouts, league points, stats, the estimated end and the public
:class:`engine.views.ClockView` (pure queries; they never change the tournament or its
clock, so no alert is fired or lost by drawing a screen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from engine.tournament.clock import Clock
from engine.tournament.entrant import Entrant
from engine.tournament.payouts import share_places, split_pool
from engine.tournament.points import POINT_UNIT, bonus_points, place_points, share_equally
from engine.tournament.structure import Level, Structure
from engine.views import ClockView, WheelView


class TournamentReading(Protocol):
    """What the reports read of a :class:`engine.tournament.tournament.Tournament` (chips are
    ints, times seconds; ``hand_seconds_total`` is the table time spent in hands)."""

    @property
    def structure(self) -> Structure: ...
    @property
    def name(self) -> str: ...
    @property
    def entrants(self) -> Sequence[Entrant]: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def round(self) -> int: ...
    @property
    def hands_played(self) -> int: ...
    @property
    def hand_seconds_total(self) -> float: ...
    @property
    def finished(self) -> bool: ...
    @property
    def notices(self) -> Sequence[str]: ...
    @property
    def pending_bonus(self) -> int: ...
    @property
    def bonus_amount(self) -> int: ...
    @property
    def wheel_spun_at(self) -> float | None: ...
    @property
    def heads_up_hands(self) -> int | None: ...
    @property
    def sudden_death(self) -> bool: ...

    def entries(self) -> list[Entrant]: ...
    def round_entrants(self) -> list[Entrant]: ...
    def out_count(self) -> int: ...
    def active(self) -> list[Entrant]: ...
    def stacks(self) -> dict[int, int]: ...
    def place(self, e: Entrant) -> int | None: ...
    def standings(self) -> list[tuple[int | None, Entrant]]: ...
    def payouts(self) -> list[tuple[int, int]]: ...
    def prize_pool(self) -> int: ...
    def registration_open(self) -> bool: ...
    def color_up_due(self) -> tuple[int, ...]: ...
    def estimated_seconds_to_end(self, now: float, clock: Clock | None = None) -> float | None: ...

DEFAULT_SECONDS_PER_HAND = 120.0  # our choice, until hands have been timed
END_BIG_BLINDS = 20  # our choice: the end is estimated when all chips are 20 big blinds


@dataclass(frozen=True)
class Stats:
    """Standings and stats at one instant.  Times are seconds; ``estimated_end_at`` is a
    monotonic instant (``now + estimated_seconds_to_end``)."""

    players_left: int
    entrants: int
    average_stack: int
    chips_in_play: int
    prize_pool: int
    level: Level
    next_level: Level | None
    remaining_seconds: float | None
    hands_remaining: int | None
    seconds_to_break: float | None
    estimated_seconds_to_end: float | None
    estimated_end_at: float | None
    late_registration_open: bool
    hands_played: int


def entries(t: TournamentReading) -> list[Entrant]:
    """Every paid entry (the final's seats, copies of qualifiers, excluded)."""
    q = t.structure.qualifiers
    return [e for e in t.entrants if q is None or e.round <= q.rounds]


def prize_pool(t: TournamentReading) -> int:
    """Sum of the entries' buy-ins."""
    return sum(e.spend for e in t.entries())


def payouts(t: TournamentReading) -> list[tuple[int, int]]:
    """(place, amount) from the payout table for the number of entrants, in exact
    arithmetic (:func:`engine.tournament.payouts.split_pool`: the remainder goes to first
    place).  Empty when no bracket fits."""
    return payouts_for(t.structure, len(t.entries()), t.prize_pool())


def payouts_for(structure: Structure, entrants: int, pool: int) -> list[tuple[int, int]]:
    """(place, amount) for ``entrants`` and a ``pool`` (whole units) from ``structure``'s
    payout table; empty when no bracket fits."""
    for br in structure.payouts:
        if br.min_entrants <= entrants <= br.max_entrants:
            return list(enumerate(split_pool(pool, br.percentages), 1))
    return []


def prizes(t: TournamentReading) -> dict[int, int]:
    """entry_id -> prize (whole units) of every placed entrant, from :func:`payouts`.

    Entrants tied for a place (out in the same hand with the same chips at its start, TDA)
    share the prizes of the places they cover equally; the remainder of that share goes one
    unit each to the tied entrants in seat-number order (the stated rule)."""
    groups: dict[int, list[Entrant]] = {}
    for place, e in t.standings():
        if place is not None:
            groups.setdefault(place, []).append(e)
    ordered = {place: [e.entry_id for e in sorted(es, key=lambda x: x.seat or 0)]
               for place, es in groups.items()}
    return share_places(dict(t.payouts()), ordered)


def league_points(t: TournamentReading) -> dict[int, Decimal]:
    """entry_id -> league points of every placed entrant (structure's ``[points]``), exact
    multiples of :data:`engine.tournament.points.POINT_UNIT`.

    Entrants tied for a place share the place points of the places they cover
    (:func:`engine.tournament.points.share_equally`: the remainder one unit each in
    seat-number order, the rule :func:`prizes` follows); bonuses are each player's own."""
    cfg = t.structure.points
    if cfg is None:
        return {}
    ents = t.round_entrants()
    n = len(ents)
    b = t.structure.buy_in or 1
    groups: dict[int, list[Entrant]] = {}
    for e in ents:
        k = t.place(e)
        if k is not None:
            groups.setdefault(k, []).append(e)
    out: dict[int, Decimal] = {}
    for k, es in groups.items():
        es.sort(key=lambda x: x.seat or 0)
        for i, e in enumerate(es):
            spend = e.spend or b
            total = sum((place_points(cfg, n=n, k=p, b=b, e=spend)
                         for p in range(k, min(k + len(es), n + 1))), Decimal(0))
            share = share_equally(total, len(es), POINT_UNIT)[i]
            out[e.entry_id] = share + bonus_points(cfg, knockouts=e.knockouts,
                                                   high_hands=e.high_hands)
    return out

# ------------------------------------------------------------------ stats and views

def _seconds_per_hand(t: TournamentReading) -> float:
    if t.hands_played:
        return t.hand_seconds_total / t.hands_played
    return DEFAULT_SECONDS_PER_HAND


def estimated_seconds_to_end(t: TournamentReading, now: float,
                             clock: Clock | None = None) -> float | None:
    """Our estimate: from the elimination rate per hand once someone is out, else the time
    until all chips in play are :data:`END_BIG_BLINDS` big blinds; hand-based levels at the
    measured seconds per hand.  None before the start."""
    clock = clock or t.clock
    if not clock.started:
        return None
    if t.finished:
        return 0.0
    left = len(t.active())
    out = t.out_count()
    sph = _seconds_per_hand(t)
    if t.structure.qualifiers is not None:
        return clock.remaining(now)
    if out and t.hands_played:
        return (left - 1) * t.hands_played / out * sph
    chips = sum(t.stacks().values())
    total = clock.remaining(now)
    if total is None:
        total = (clock.hands_remaining() or 0) * sph
    if clock.playing_level().big_blind * END_BIG_BLINDS >= chips:
        return total
    for is_break, big_blind, seconds, hands in clock.structure.entry_rows[clock.index + 1:]:
        if not is_break and big_blind * END_BIG_BLINDS >= chips:
            return total
        total += seconds if seconds is not None else (hands or 0) * sph
    return total


def stats(t: TournamentReading, now: float) -> Stats:
    """Standings and stats at ``now`` (does not change the tournament)."""
    c = t.clock.at(now)
    st = c.status(now)
    act = t.active()
    chips = sum(e.chips for e in act)
    est = t.estimated_seconds_to_end(now, c)
    return Stats(
        players_left=len(act), entrants=len(t.round_entrants()),
        average_stack=chips // len(act) if act else 0, chips_in_play=chips,
        prize_pool=t.prize_pool(), level=c.playing_level(), next_level=st.next_level,
        remaining_seconds=st.remaining_seconds, hands_remaining=st.hands_remaining,
        seconds_to_break=st.seconds_to_break, estimated_seconds_to_end=est,
        estimated_end_at=None if est is None else now + est,
        late_registration_open=t.registration_open(), hands_played=t.hands_played)


def clock_view(t: TournamentReading, now: float) -> ClockView:
    """The public :class:`engine.views.ClockView` at ``now`` (does not change state)."""
    c = t.clock.at(now)
    st = c.status(now)
    lv = c.level
    play = c.playing_level()
    # on a break the next level is the one the break leads to (the level the blinds show)
    nxt = play if lv.is_break else st.next_level
    notices = list(t.notices)
    if st.blinds_up_next_hand:
        notices.append("Blinds up next hand")
    if st.break_pending:
        notices.append("Break after this hand")
    due = t.color_up_due()
    if due:
        notices.append("Color-up: remove the " + ", ".join(
            f"{d:,} ({t.structure.color(d)})" for d in due) + " chips")
    if t.pending_bonus:
        notices.append(f"Bonus: {t.pending_bonus:,} in the next hand's pot")
    if t.heads_up_hands is not None and t.structure.heads_up_hand_limit and not t.finished:
        notices.append("Sudden-death hand" if t.sudden_death else
                       f"Heads-up hand {t.heads_up_hands + 1} of "
                       f"{t.structure.heads_up_hand_limit}")
    if t.clock.started and t.registration_open() and t.structure.qualifiers is None:
        notices.append("Late registration open until the end of level "
                       f"{t.structure.late_registration.last_level}")
    act = t.active()
    chips = sum(e.chips for e in act)
    est = t.estimated_seconds_to_end(now, c)
    players, field = len(act), len(t.round_entrants())
    if not field and t.structure.qualifiers is not None:  # the next round's registered
        nxt_round = [e for e in t.entrants if e.round == t.round + 1]
        players = field = len(nxt_round)
    name = t.name if t.structure.qualifiers is None else c.structure.name
    return ClockView(
        level_number=lv.number, is_break=lv.is_break,
        small_blind=play.small_blind, big_blind=play.big_blind, ante=play.ante,
        big_blind_ante=play.big_blind_ante, remaining_seconds=st.remaining_seconds,
        hands_remaining=st.hands_remaining, running=st.running,
        next_small_blind=nxt.small_blind if nxt else None,
        next_big_blind=nxt.big_blind if nxt else None,
        next_ante=nxt.ante if nxt else None,
        next_is_break=bool(st.next_entry and st.next_entry.is_break),
        seconds_to_break=st.seconds_to_break, players_left=players, entrants=field,
        average_stack=chips // len(act) if act else 0, chips_in_play=chips,
        prize_pool=t.prize_pool(), notices=tuple(notices), tournament_name=name,
        structure_name=c.structure.name,
        next_big_blind_ante=nxt.big_blind_ante if nxt else None,
        estimated_end_seconds=est, min_bet=play.min_bet,
        late_registration_open=t.registration_open(), started=t.clock.started)


def wheel_view(t: TournamentReading) -> WheelView | None:
    """The bonus wheel once it has spun (the screen animates it), else None."""
    w = t.structure.bonus_wheel
    if w is None or t.wheel_spun_at is None:
        return None
    return WheelView(tuple(w.segments), t.bonus_amount, t.wheel_spun_at, name=w.name)
