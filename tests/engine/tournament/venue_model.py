"""A small model of the venue's tables for the director's tests: each model table takes
the director's orders as a table service would (seat, move, break, level, go), keeps its
players' chips, deals by the table's own dead-button rule (engine/table/positions.py) and
plays a hand by moving chips at random between its players, busting some, always
conserving them.  Its reports go back to the director (engine/tournament/venue.py) in an
arrival order chosen by a random generator, each table's own reports in order."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.table.positions import Positions, next_positions
from engine.tournament.balancing import destination
from engine.tournament.venue import Order, VenueSetup, VenueState, start, step

Report = tuple[int, int, str, tuple[Any, ...]]  # table, seq, kind, args


@dataclass
class ModelTable:
    """One table: seat -> player, player -> chips, its hands and its report stream."""

    number: int
    seats: int
    rng: random.Random
    occupants: dict[int, str] = field(default_factory=dict)
    stacks: dict[str, int] = field(default_factory=dict)
    positions: Positions = field(default_factory=Positions)
    hand: int = 0
    seq: int = 0
    level: tuple[Any, ...] = ()
    broken: bool = False
    paused: bool = False
    dealt: list[int] = field(default_factory=list)  # players at each hand dealt

    def report(self, kind: str, *args: Any) -> Report:
        self.seq += 1
        return self.number, self.seq, kind, args

    def take(self, order: Order) -> list[Report]:
        """The reports the table sends for ``order``."""
        assert not self.broken, f"table {self.number} got {order.kind} after its break"
        # a level applies at once (blinds up next hand): the live director sends it while
        # a table plays; every other command is for the hand the table is at
        kind, args = order.kind, order.args
        at_once = kind == "level" or args in (("pause",), ("resume",))  # not at a boundary
        assert order.for_hand == self.hand or (at_once and order.for_hand < self.hand), (
            order, self.hand)
        if args in (("pause",), ("resume",)):
            self.paused = args == ("pause",)
            return [self.report("applied", order.seq)]
        if kind == "seat":
            player, seat, chips, _reason = args
            assert seat not in self.occupants and 1 <= seat <= self.seats, (order, self)
            self.occupants[seat], self.stacks[player] = player, chips
            return [self.report("applied", order.seq)]
        if kind == "move":
            player, seat = args[0], args[1]
            assert self.occupants.get(seat) == player, (order, self.occupants)
            del self.occupants[seat]
            return [self.report("moved", order.seq, player, self.stacks.pop(player))]
        if kind == "signal":
            assert args == ("break",)
            out = [self.report("moved", order.seq, p, self.stacks.pop(p))
                   for _s, p in sorted(self.occupants.items())]
            self.occupants.clear()
            self.broken = True
            return [*out, self.report("applied", order.seq)]
        if kind == "level":
            self.level = args
            return [self.report("applied", order.seq)]
        assert kind == "go" and args == (self.hand + 1,) and not self.paused
        return self.play()

    def play(self) -> list[Report]:
        """One hand: the blinds by the dead-button rule, chips moved at random."""
        seats = sorted(self.occupants)
        assert len(seats) >= 2
        self.positions = next_positions(self.positions, seats, self.rng)
        pos = self.positions
        self.hand += 1
        self.dealt.append(len(seats))
        started = self.report("hand_started", self.hand, pos.button, pos.small_blind,
                              pos.big_blind)
        players = [self.occupants[s] for s in seats]
        start_chips = dict(self.stacks)
        winner = self.rng.choice(players)
        for p in players:
            if p != winner and self.rng.random() < 0.5:
                all_in = self.rng.random() < 0.15
                lost = self.stacks[p] if all_in else self.rng.randint(1, self.stacks[p])
                self.stacks[p] -= lost
                self.stacks[winner] += lost
        busted = [(p, start_chips[p]) for p in players if self.stacks[p] == 0]
        for p, _c in busted:
            del self.stacks[p]
            del self.occupants[next(s for s, q in self.occupants.items() if q == p)]
        chips = tuple((p, self.stacks[p]) for p in players if p in self.stacks)
        finished = self.report("hand_finished", self.hand, chips, tuple(busted),
                               self.rng.randint(20_000, 240_000))
        return [started, finished]


def interleave(reports: dict[int, list[Report]], rng: random.Random) -> list[Report]:
    """The tables' reports merged in a random arrival order, each table's in its order."""
    queues = {n: list(r) for n, r in reports.items() if r}
    merged = []
    while queues:
        n = rng.choice(sorted(queues))
        merged.append(queues[n].pop(0))
        if not queues[n]:
            del queues[n]
    return merged


@dataclass
class Night:
    """A whole night of the director against model tables, with what the tests check."""

    state: VenueState
    tables: dict[int, ModelTable]
    arrival: random.Random
    breaks: list[int] = field(default_factory=list)     # tables sent a break, in order
    counts_at_go: list[dict[int, int]] = field(default_factory=list)
    levels_sent: list[int] = field(default_factory=list)
    waits_at_go: list[bool] = field(default_factory=list)
    rounds: int = 0
    max_rounds: int = 5000

    def deliver(self, orders: list[Order]) -> None:
        """Send ``orders`` to their tables and feed every report back, until none is due."""
        while orders:
            reports: dict[int, list[Report]] = {}
            gos = [o for o in orders if o.kind == "go"]
            if gos:
                self.rounds += 1
                assert self.rounds < self.max_rounds, "the night does not end"
                self.counts_at_go.append({o.table: len(self.tables[o.table].occupants)
                                          for o in gos})
                self.waits_at_go.append(self.balance_waits())
            for o in orders:
                if o.kind == "signal":
                    self.breaks.append(o.table)
                if o.kind == "level":
                    self.levels_sent.append(o.args[0])
                reports.setdefault(o.table, []).extend(self.tables[o.table].take(o))
            orders = []
            for table, seq, kind, args in interleave(reports, self.arrival):
                self.state, more = step(self.state, table, seq, kind, args)
                orders += more
            self.check_chips()

    def balance_waits(self) -> bool:
        """Whether a balancing move is due but waits: no table short enough has a seat a
        newcomer may take now (TDA 11 and 12, engine/tournament/balancing.py)."""
        seating = self.state.seating
        longest = max(t.count for t in seating.open_tables())
        return all(destination(seating, t.number) is None for t in seating.open_tables()
                   if t.count == longest)

    def check_chips(self) -> None:
        """Every chip bought in is at a model table or with a player between tables."""
        at_tables = sum(sum(t.stacks.values()) for t in self.tables.values())
        assert at_tables + self.in_transit() == self.state.bought_in

    def in_transit(self) -> int:
        seated = {p for t in self.tables.values() for p in t.stacks}
        return sum(c for p, c in self.state.chips.items() if p not in seated)


def play_night(setup: VenueSetup, players: int, seed: int, arrival_seed: int,
               chips: int = 1000, max_rounds: int = 5000) -> Night:
    """A night of ``players`` players (``P01``...) to a winner."""
    names = [f"P{i:02d}" for i in range(1, players + 1)]
    state, orders = start(setup, names, chips, seed)
    tables = {n: ModelTable(n, seats, random.Random(f"{seed}:{n}"))
              for n, seats in enumerate(setup.seats, 1)}
    night = Night(state, tables, random.Random(arrival_seed))
    night.max_rounds = max_rounds
    night.deliver(orders)
    assert night.state.phase == "over", f"stuck in phase {night.state.phase}"
    return night
