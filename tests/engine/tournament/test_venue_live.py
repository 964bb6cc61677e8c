"""The live director (engine/tournament/venue_live.py) against model tables that play at
their own pace (tests/engine/tournament/venue_model.py): a hand's end reaches the director
at a random moment, each table's reports in order, so tables are at their boundaries at
different times.  Whole nights keep the chips and end in places; a table that finished its
hand gets its go while another is still playing; the clock sends the level on wall time."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import venue_live
from engine.tournament.venue import Order, VenueSetup, VenueState, VenueStateError
from tests.engine.tournament.venue_model import ModelTable, Report

LEVELS = ((0, 25, 50, 0, 600_000), (1, 50, 100, 0, 600_000), (3, 100, 200, 25, 900_000))


def test_the_modules_examples_hold():
    result = doctest.testmod(venue_live)
    assert result.attempted > 0 and result.failed == 0


@dataclass
class LiveNight:
    """The director and model tables; each table's reports wait in its own line, and a
    hand's end is let through only when the scheduler says the hand is over."""

    state: VenueState
    tables: dict[int, ModelTable]
    rng: random.Random
    inbox: dict[int, list[Order]] = field(default_factory=dict)
    out: dict[int, list[tuple[Report, bool]]] = field(default_factory=dict)
    gos_while_others_play: int = 0
    gos: int = 0
    levels: list[int] = field(default_factory=list)
    clock_ms: int = 0
    pauses: int = 0
    balancing: int = 0   # balancing moves at a boundary without a bust
    unannounced: list[Order] = field(default_factory=list)  # those not announced before

    def send(self, orders: list[Order], givers: set[int] | None = None) -> None:
        for o in orders:
            if o.kind == "move" and givers is not None:
                self.balancing += 1
                if o.table not in givers:
                    self.unannounced.append(o)
            if o.kind == "go":
                assert self.state.paused_at is None, "a go while the clock is paused"
                self.gos += 1
                if any(t.playing for n, t in self.state.tables.items() if n != o.table):
                    self.gos_while_others_play += 1
            if o.kind == "level":
                self.levels.append(o.args[0])
            self.inbox.setdefault(o.table, []).append(o)

    def step(self) -> bool:
        """One thing happens: a table takes a command, a hand ends, a report arrives, or
        a minute passes.  False when nothing can."""
        choices = [("take", n) for n, q in self.inbox.items() if q]
        choices += [("end", n) for n, q in self.out.items() if q and not q[0][1]]
        choices += [("report", n) for n, q in self.out.items() if q and q[0][1]]
        if self.state.paused_at is not None:
            choices.append(("clock", 0))
        if not choices:
            return False
        what, n = self.rng.choice(sorted(choices) + [("tick", 0)])
        if what == "tick" and self.rng.random() < 0.1:
            what = "clock"  # now and then the director pauses the clock
        if what == "take":
            for rep in self.tables[n].take(self.inbox[n].pop(0)):
                self.out.setdefault(n, []).append((rep, rep[2] != "hand_finished"))
        elif what == "end":
            self.out[n][0] = (self.out[n][0][0], True)
        elif what == "report":
            (table, seq, kind, args), _ = self.out[n].pop(0)
            givers = {g for g, _t in self.state.planned}
            self.state, orders = venue_live.step(self.state, table, seq, kind, args)
            quiet = kind == "hand_finished" and not args[2] and \
                self.state.seating.final_table is None
            self.send(orders, givers if quiet else None)
        elif what == "clock":  # the director pauses or resumes the clock
            self.pauses += self.state.paused_at is None
            flip = venue_live.resume if self.state.paused_at is not None else venue_live.pause
            self.state, orders = flip(self.state, self.clock_ms)
            self.send(orders)
        else:
            self.clock_ms += 60_000
            self.state, orders = venue_live.tick(self.state, self.clock_ms)
            self.send(orders)
        return True


def live_night(setup: VenueSetup, players: int, seed: int, pace: int) -> LiveNight:
    names = [f"P{i:02d}" for i in range(1, players + 1)]
    state, orders = venue_live.start(setup, names, 1000, seed)
    tables = {n: ModelTable(n, seats, random.Random(f"{seed}:{n}"))
              for n, seats in enumerate(setup.seats, 1)}
    night = LiveNight(state, tables, random.Random(pace))
    night.send(orders)
    for _ in range(200_000):
        if night.state.phase == "over" or not night.step():
            break
    assert night.state.phase == "over", "the night does not end"
    return night


@st.composite
def nights(draw):
    seats = tuple(draw(st.lists(st.integers(4, 10), min_size=2, max_size=4)))
    order = tuple(draw(st.permutations(list(range(1, len(seats) + 1)))))
    host = seats[order[-1] - 1]
    players = draw(st.integers(min(host + 1, sum(seats)), min(sum(seats), 30)))
    return VenueSetup(seats, order, draw(st.integers(1, 2)), LEVELS), players


@settings(max_examples=40, deadline=None)
@given(setup=nights(), seed=st.integers(0, 2**32 - 1), pace=st.integers(0, 2**16))
def test_a_live_night_keeps_the_chips_and_ends_in_places(setup, seed, pace):
    venue_setup, players = setup
    night = live_night(venue_setup, players, seed, pace)
    places = night.state.places
    assert sorted(places) == [f"P{i:02d}" for i in range(1, players + 1)]
    assert Counter(places.values())[1] == 1
    assert max(places.values()) <= players
    winner = next(p for p, place in places.items() if place == 1)
    at_tables = {p: c for t in night.tables.values() for p, c in t.stacks.items()}
    assert at_tables == {winner: 1000 * players}
    assert night.state.transit == {}
    # a table gives a player at a boundary without a bust only if it was announced
    assert night.unannounced == []


def test_a_table_at_its_boundary_is_not_kept_waiting_for_the_others():
    night = live_night(VenueSetup((9, 9, 9), (1, 2, 3), 1, LEVELS), 24, seed=7, pace=3)
    assert night.gos_while_others_play > night.gos // 3
    assert night.state.tables_broken == 2 and night.state.seating.final_table == 3


def test_the_clock_runs_on_wall_time_and_never_goes_back():
    state, _ = venue_live.start(VenueSetup((9, 9), (1, 2), 1, LEVELS),
                                [f"P{i:02d}" for i in range(1, 13)], 1000, seed=1)
    state, orders = venue_live.tick(state, 599_999)
    assert orders == [] and state.clock.position == 0
    state, orders = venue_live.tick(state, 600_000)
    assert {(o.table, o.kind, o.args[0]) for o in orders} == {(1, "level", 1), (2, "level", 1)}
    same, orders = venue_live.tick(state, 1_000)
    assert orders == [] and same.clock_ms == 600_000 and same.clock.position == 1
    with pytest.raises(VenueStateError):
        venue_live.tick(state, -1)


class Director:
    """The live director driven by hand: each table's reports numbered in order."""

    def __init__(self, players: int, seats: tuple[int, ...] = (9, 9)) -> None:
        names = [f"P{i:02d}" for i in range(1, players + 1)]
        order = tuple(range(1, len(seats) + 1))
        self.state, orders = venue_live.start(VenueSetup(seats, order, 1, LEVELS), names,
                                              1000, seed=5)
        self.seq = dict.fromkeys(order, 0)
        self.gos = [o for o in orders for o in self.answer(o)]

    def report(self, table: int, kind: str, *args: object) -> list[Order]:
        self.seq[table] += 1
        self.state, more = venue_live.step(self.state, table, self.seq[table], kind,
                                           tuple(args))
        return more

    def answer(self, o: Order) -> list[Order]:
        return self.report(o.table, "applied", o.seq) if o.kind != "go" else [o]

    def seats(self, table: int) -> list[tuple[int, str]]:
        return sorted(self.state.seating.table(table).players.items())

    def start_hand(self, table: int, hand: int) -> list[Order]:
        seats = [s for s, _p in self.seats(table)]
        return self.report(table, "hand_started", hand, *seats[:3])


def test_a_table_at_its_boundary_gets_its_go_at_once_and_a_seat_waits_for_the_hand_start():
    d = Director(14)
    assert sorted(o.table for o in d.gos) == [1, 2]
    d.start_hand(1, 1)
    d.start_hand(2, 1)
    # table 1 busts three players at once while table 2 plays on
    at_1 = [p for _s, p in d.seats(1)]
    busted, kept = at_1[:3], at_1[3:]
    chips = ((kept[0], 4000),) + tuple((p, 1000) for p in kept[1:])
    more = d.report(1, "hand_finished", 1, chips, tuple((p, 1000) for p in busted), 0)
    assert d.state.places == dict.fromkeys(busted, 12)  # placed at once, sharing a place
    assert [(o.table, o.kind, o.args) for o in more] == [(1, "go", (2,))]
    # table 2 (six players) ends its hand: it gives one to table 1 (three)
    chips2 = tuple((p, 1000) for _s, p in d.seats(2))
    more = d.report(2, "hand_finished", 1, chips2, (), 0)
    assert [(o.table, o.kind) for o in more][:1] == [(2, "move")]
    mover = more[0].args[0]
    # moved: table 1 has its go but has not started hand 2, so the seat waits
    after = d.report(2, "moved", more[0].seq, mover, 1000)
    assert [(o.table, o.kind) for o in after] == [(2, "go")]
    assert d.state.pending() == [(mover, 2, 1)]
    seat = [o for o in d.start_hand(1, 2) if o.kind == "seat"]
    assert [(o.table, o.for_hand, o.args[0]) for o in seat] == [(1, 2, mover)]
    assert d.state.pending() == [(mover, 2, 1)]
    d.report(1, "applied", seat[0].seq)
    assert d.state.pending() == []


def test_a_late_entry_is_seated_live_at_a_table_with_the_fewest_players():
    from engine.tournament.venue import enter

    d = Director(13)
    d.start_hand(1, 1)
    d.start_hand(2, 1)
    d.state = enter(d.state, "Late", 800)
    short = min((1, 2), key=lambda n: len(d.seats(n)))
    chips = tuple((p, 1000) for _s, p in d.seats(3 - short))
    more = d.report(3 - short, "hand_finished", 1, chips, (), 0)
    seat = [o for o in more if o.kind == "seat"]
    assert [(o.table, o.args[0], o.args[2], o.args[3], o.for_hand) for o in seat] == [
        (short, "Late", 800, "late_entry", 1)]  # the short table, in its hand 1
    assert d.state.pending() == [("Late", short, short)]
    assert d.state.bought_in == 13 * 1000 + 800
    d.report(short, "applied", seat[0].seq)
    assert d.state.pending() == [] and d.state.seating.location("Late")[0] == short


def test_nights_with_pauses_move_players_only_as_announced():
    nights = [live_night(VenueSetup((9, 9, 9), (1, 2, 3), 1, LEVELS), 24, seed, pace=seed)
              for seed in range(6)]
    assert sum(n.pauses for n in nights) > 6 and sum(n.balancing for n in nights) > 6
    assert [o for n in nights for o in n.unannounced] == []


def _bust(d: Director, table: int, count: int, hand: int = 1) -> list[Order]:
    """Table ``table`` ends ``hand`` with its first ``count`` players busted."""
    at = [p for _s, p in d.seats(table)]
    chips = ((at[count], 1000 * (count + 1)),) + tuple((p, 1000) for p in at[count + 1:])
    return d.report(table, "hand_finished", hand, chips,
                    tuple((p, 1000) for p in at[:count]), 0)


def test_the_move_is_announced_at_the_bust_and_made_at_the_givers_boundary():
    d = Director(14)
    d.start_hand(1, 1)
    d.start_hand(2, 1)
    more = _bust(d, 1, 3)  # 4 against 7: table 2 owes table 1 a player, said at once
    assert d.state.planned == ((2, 1),) and not [o for o in more if o.kind == "move"]
    assert d.state.pending() == []  # nobody named yet: table 2 is in its hand
    chips2 = tuple((p, 1000) for _s, p in d.seats(2))
    more = d.report(2, "hand_finished", 1, chips2, (), 0)
    moves = [o for o in more if o.kind == "move"]
    assert [(o.table, o.args[2]) for o in moves] == [(2, 1)] and d.state.planned == ()
    assert d.state.pending() == [(moves[0].args[0], 2, 1)]  # named at its boundary


def test_an_announced_move_no_longer_needed_is_withdrawn():
    d = Director(14)
    d.start_hand(1, 1)
    d.start_hand(2, 1)
    _bust(d, 1, 3)
    assert d.state.planned == ((2, 1),)
    more = _bust(d, 2, 3)  # table 2 busts three too: 4 and 4
    assert d.state.planned == () and not [o for o in more if o.kind == "move"]


def test_only_the_table_that_owes_the_move_gives_it():
    d = Director(27, seats=(9, 9, 9))
    for t in (1, 2, 3):
        d.start_hand(t, 1)
    counts = {t: len(d.seats(t)) for t in (1, 2, 3)}
    assert sorted(counts.values()) == [9, 9, 9]
    _bust(d, 3, 2)  # 9, 9, 7: one move, from table 1 (both play; the lower number)
    assert d.state.planned == ((1, 3),)
    chips2 = tuple((p, 1000) for _s, p in d.seats(2))
    more = d.report(2, "hand_finished", 1, chips2, (), 0)  # as long, but owes nothing
    assert not [o for o in more if o.kind == "move"] and d.state.planned == ((1, 3),)
    chips1 = tuple((p, 1000) for _s, p in d.seats(1))
    more = d.report(1, "hand_finished", 1, chips1, (), 0)
    assert [(o.table, o.args[2]) for o in more if o.kind == "move"] == [(1, 3)]


def test_the_paused_clock_stops_deals_no_hand_and_resumes_with_the_time_left():
    d = Director(14)
    d.start_hand(1, 1)
    d.state, _ = venue_live.tick(d.state, 100_000)
    left = d.state.clock.remaining_ms()
    d.state, orders = venue_live.pause(d.state, 250_000)
    assert d.state.clock.remaining_ms() == left - 150_000
    assert sorted((o.table, o.kind, o.args) for o in orders) == [
        (1, "signal", ("pause",)), (2, "signal", ("pause",))]
    with pytest.raises(VenueStateError, match="paused already"):
        venue_live.pause(d.state, 260_000)
    for o in orders:
        assert d.answer(o) == []
    chips = tuple((p, 1000) for _s, p in d.seats(1))
    assert d.report(1, "hand_finished", 1, chips, (), 0) == []  # no go while paused
    same, orders = venue_live.tick(d.state, 2_000_000)  # the paused time does not count
    assert orders == [] and same.clock.remaining_ms() == left - 150_000
    d.state, orders = venue_live.resume(d.state, 900_000)
    assert [(o.table, o.kind, o.args) for o in orders] == [
        (1, "signal", ("resume",)), (2, "signal", ("resume",))]
    assert [o.kind for o in d.answer(orders[0])] == ["go"]  # table 1 deals again
    d.state, _ = venue_live.tick(d.state, 910_000)
    assert d.state.clock.remaining_ms() == left - 160_000  # on from the time left
    with pytest.raises(VenueStateError, match="not paused"):
        venue_live.resume(d.state, 920_000)
