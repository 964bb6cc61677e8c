"""A venue's entries and prizes (engine/tournament/venue_prizes.py; late entries in
engine/tournament/venue.py): names checked as at one table, late entries drawn into the
tables with the fewest players at the next boundary with the late stack, and the prizes
exact, by the single-table tournament's payout rules."""

from __future__ import annotations

import doctest
import random
from dataclasses import dataclass, field
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInputError, PokerTableError
from engine.text import UnsafeTextError
from engine.tournament import venue_prizes
from engine.tournament.report import payouts_for
from engine.tournament.seating import SeatingError
from engine.tournament.structure_file import load_structure
from engine.tournament.venue import VenueSetup, VenueStateError, enter, start
from engine.tournament.venue_prizes import (
    EntryError,
    check_entry_name,
    late_entry_chips,
    prize_pool,
    prizes,
    results,
)
from tests.engine.tournament.venue_model import ModelTable, Night

LEVELS = ((0, 25, 50, 0, 600_000), (1, 50, 100, 0, 600_000), (2, 100, 200, 0, 0))
GUNPOWDER = load_structure("gunpowder")


def test_the_modules_examples_hold():
    assert doctest.testmod(venue_prizes).failed == 0


@pytest.mark.parametrize("name, error, words", [
    ("", UnsafeTextError, "must not be empty"),
    ("x" * 25, UnsafeTextError, "at most 24"),
    ("Ann\x07", UnsafeTextError, "control character"),
    ("Ann\u202e", UnsafeTextError, "bidi"),
    (" Ann", UnsafeTextError, "space"),
    ("aNN", EntryError, "already entered"),
    (7, UnsafeTextError, "must be text"),
])
def test_a_bad_or_taken_name_is_refused(name, error, words):
    with pytest.raises(error, match=words) as info:
        check_entry_name(name, ["Ann", "Bo"])
    assert isinstance(info.value, PokerTableError)
    assert isinstance(info.value, (ValueError, RuntimeError, InvalidInputError))


def test_a_good_name_is_taken_as_given():
    assert check_entry_name("Zoë O'Neil", ["Ann"]) == "Zoë O'Neil"


def test_late_entries_take_the_levels_deduction_until_registration_closes():
    start_stack = GUNPOWDER.starting_stack
    by_number = {lv.number: lv.index for lv in GUNPOWDER.levels if not lv.is_break}
    assert late_entry_chips(GUNPOWDER, by_number[1]) == start_stack - 300
    assert late_entry_chips(GUNPOWDER, by_number[3]) == start_stack - 1800
    with pytest.raises(EntryError, match="registration closed at the end of level 3"):
        late_entry_chips(GUNPOWDER, by_number[4])
    with pytest.raises(EntryError, match="no late entries"):
        late_entry_chips(load_structure("mini"), 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.data())
def test_prizes_are_exact_and_add_up_to_the_pool(entries, data):
    # places as a night gives them: busts of one round share the better place
    places: dict[str, int] = {}
    left = entries
    names = iter(f"P{i:02d}" for i in range(1, entries + 1))
    while left > 1:
        busted = data.draw(st.integers(1, left - 1))
        ties = data.draw(st.integers(1, busted))
        for i in range(busted):
            places[next(names)] = left - busted + 1 + min(i, busted - ties)
        left -= busted
    places[next(names)] = 1
    won = prizes(GUNPOWDER, entries, places)
    assert all(isinstance(v, int) and v >= 0 for v in won.values())
    paid = dict(payouts_for(GUNPOWDER, entries, prize_pool(GUNPOWDER, entries)))
    assert sum(won.values()) == sum(paid.values()) == entries * GUNPOWDER.buy_in
    for player, place in places.items():  # tied players get the same share, +/- one unit
        tied = [won[p] for p, q in places.items() if q == place]
        assert max(tied) - min(tied) <= 1
        if place > max(paid):
            assert won[player] == 0
        else:  # exact: the mean of the places covered
            span = range(place, place + len(tied))
            assert Fraction(sum(tied), len(tied)) == Fraction(sum(paid.get(p, 0) for p in span),
                                                              len(tied))


def test_results_list_places_players_and_prizes():
    rows = results(GUNPOWDER, 13, {"Cy": 3, "Ann": 1, "Bo": 2, "Di": 4})
    assert rows == [(1, "Ann", 65), (2, "Bo", 39), (3, "Cy", 26), (4, "Di", 0)]


@dataclass
class LateNight(Night):
    """A night in which players enter late at given rounds."""

    entries: dict[int, list[str]] = field(default_factory=dict)
    seated_late: list[tuple[str, int, int, dict[int, int]]] = field(default_factory=list)

    def __post_init__(self):
        for table in self.tables.values():
            table.take = self._recording(table.take)

    def _recording(self, take):
        def recorded(o):
            if o.kind == "seat" and o.args[3] == "late_entry":
                counts = {n: len(t.occupants) for n, t in self.tables.items()
                          if self.state.seating.table(n).status == "open"}
                self.seated_late.append((o.args[0], o.table, o.args[2], counts))
            return take(o)
        return recorded

    def check_chips(self):
        super().check_chips()
        for name in self.entries.pop(self.rounds, []):
            self.state = enter(self.state, name, 700)


def test_late_entries_are_seated_at_the_next_boundary_with_the_fewest_players():
    setup = VenueSetup((6, 6, 6), (1, 2, 3), 1, LEVELS)
    names = [f"P{i:02d}" for i in range(1, 9)]
    state, orders = start(setup, names, 1000, 11)
    tables = {n: ModelTable(n, 6, random.Random(f"11:{n}")) for n in (1, 2, 3)}
    night = LateNight(state, tables, random.Random(2), entries={2: ["Late1", "Late2"],
                                                                4: ["Late3"]})
    night.deliver(orders)
    assert night.state.phase == "over"
    result = night.state.result()
    assert sorted(result["places"]) == sorted(names + ["Late1", "Late2", "Late3"])
    assert [row[0] for row in night.seated_late] == ["Late1", "Late2", "Late3"]
    for _player, table, chips, counts in night.seated_late:
        assert chips == 700
        assert counts[table] == min(c for c in counts.values() if c < 6)  # the fewest
    assert night.state.bought_in == 8 * 1000 + 3 * 700


def test_a_late_entry_is_refused_when_it_cannot_be_taken():
    state, _orders = start(VenueSetup((2, 2), (1, 2), 1, LEVELS), ["A", "B", "C"], 500, 1)
    with pytest.raises(SeatingError, match="already entered"):
        enter(state, "A", 500)
    with pytest.raises(VenueStateError, match="whole number > 0"):
        enter(state, "D", 0)
    taken = enter(state, "D", 500)
    assert [p for p, _c in taken.entering] == ["D"] and state.entering == []  # pure
    for same in ("D", "d", "\uff24"):  # the waiting entry, in any case or width
        with pytest.raises(SeatingError, match="already entered"):
            enter(taken, same, 500)
    with pytest.raises(SeatingError, match="already entered"):
        enter(state, "\uff41", 500)  # a full-width "a" is the seated A
    with pytest.raises(VenueStateError, match="no seat is left"):
        enter(taken, "E", 500)


def _ranked(places: dict[str, int]) -> bool:
    """Places as a ranking of every entry: each place p has p - 1 players above it (tied
    players share the better place), and the worst place is at most the entries."""
    values = list(places.values())
    return all(sum(1 for v in values if v < p) == p - 1 for p in values) \
        and max(values) <= len(values)


class _OutBeforeEntry(LateNight):
    """A LateNight that notes how many players were out when each late entry was taken
    (an entry the venue has no seat for is refused, and not counted)."""

    out_at_entry: list[int] = []

    def check_chips(self):
        Night.check_chips(self)
        for name in self.entries.pop(self.rounds, []):
            try:
                self.state = enter(self.state, name, 700)
            except VenueStateError as exc:
                assert "no seat is left" in str(exc) or "final table" in str(exc)
                continue
            self.out_at_entry.append(len(self.state.places))


@pytest.mark.parametrize("seed", range(8))
def test_late_entries_after_busts_push_everyone_out_one_place_down(seed):
    setup = VenueSetup((9, 9, 9), (1, 2, 3), 1, LEVELS)
    names = [f"P{i:02d}" for i in range(1, 21)]
    state, orders = start(setup, names, 1000, seed)
    tables = {n: ModelTable(n, 9, random.Random(f"{seed}:{n}")) for n in (1, 2, 3)}
    night = _OutBeforeEntry(state, tables, random.Random(seed),
                            entries={2: ["Late1"], 3: ["Late2"], 4: ["Late3"]})
    night.out_at_entry = []
    night.deliver(orders)
    places = night.state.result()["places"]
    assert night.state.phase == "over"
    assert len(places) == 20 + len(night.seated_late)  # an entry left out has no place
    assert _ranked(places), places
    if seed == 0:
        assert any(night.out_at_entry), "no late entry came after a bust"
