"""The venue director's state machine (engine/tournament/venue.py) against model tables
that bust players at random (tests/engine/tournament/venue_model.py): whole nights keep the
chips, the balance, the break order and the final table, end with places that are a
permutation with ties, and do not depend on the order the reports arrive in."""

from __future__ import annotations

import doctest
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInputError
from engine.tournament import venue, venue_clock
from engine.tournament.venue import VenueSetup, VenueStateError, start, step
from engine.tournament.venue_clock import rank_busts
from tests.engine.tournament.venue_model import Night, play_night

LEVELS = ((0, 25, 50, 0, 600_000), (1, 50, 100, 0, 600_000), (3, 100, 200, 25, 900_000))


def test_the_modules_examples_hold():
    for module in (venue, venue_clock):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


@st.composite
def nights(draw):
    """(setup, players): 2..4 tables of 4..10 seats, a shuffled break order, a house
    difference of 1 or 2, and players enough to open at least two tables."""
    seats = tuple(draw(st.lists(st.integers(4, 10), min_size=2, max_size=4)))
    order = tuple(draw(st.permutations(list(range(1, len(seats) + 1)))))
    host = seats[order[-1] - 1]
    players = draw(st.integers(min(host + 1, sum(seats)), min(sum(seats), 30)))
    return VenueSetup(seats, order, draw(st.integers(1, 2)), LEVELS), players


def check_places(night: Night, players: int) -> None:
    places = night.state.places
    assert len(places) == players
    assert Counter(places.values())[1] == 1
    by_place = Counter(places.values())
    for place, count in by_place.items():  # a tie of k at place p leaves p+1..p+k-1 out
        assert all(place + k not in by_place for k in range(1, count))
        following = place + count
        assert following in by_place or following == players + 1


@settings(max_examples=40, deadline=None)
@given(setup=nights(), seed=st.integers(0, 2**32 - 1), arrival=st.integers(0, 2**16))
def test_a_whole_night_keeps_chips_balance_break_order_and_ends_in_places(setup, seed,
                                                                         arrival):
    venue_setup, players = setup
    night = play_night(venue_setup, players, seed, arrival)
    check_places(night, players)
    state = night.state
    assert state.chips == {} or list(state.chips) == [p for p, v in state.places.items()
                                                      if v == 1]
    assert sum(sum(t.stacks.values()) for t in night.tables.values()) == state.bought_in
    # breaks in the house's order (of the tables the draw opened), each once, the host never
    opened = [n for n in venue_setup.break_order
              if state.seating.table(n).status != "closed"]
    assert night.breaks == opened[:-1]
    # each round dealt: the playing tables within the house's difference (or the move
    # waits for a seat the newcomer may take), and more than
    # one table only while the players do not fit at the host
    host_seats = venue_setup.seats[venue_setup.break_order[-1] - 1]
    for counts, waits in zip(night.counts_at_go, night.waits_at_go, strict=True):
        if max(counts.values()) - min(counts.values()) > venue_setup.max_difference:
            assert waits, counts  # only while no short table has a seat to take now
        if len(counts) > 1:
            assert sum(counts.values()) > host_seats
    assert state.seating.final_table == venue_setup.break_order[-1]
    assert state.tables_broken == len(opened) - 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), arrivals=st.tuples(st.integers(0, 99),
                                                           st.integers(100, 199)))
def test_the_result_does_not_depend_on_the_order_reports_arrive_in(seed, arrivals):
    setup = VenueSetup((9, 9, 9), (2, 1, 3), 1, LEVELS)
    first, second = (play_night(setup, 18, seed, a).state.result() for a in arrivals)
    assert first == second


def test_a_three_table_night_breaks_two_tables_and_draws_the_final_table():
    night = play_night(VenueSetup((9, 9, 9), (1, 2, 3), 1, LEVELS), 24, 5, 1)
    result = night.state.result()
    assert result["tables_broken"] == 2 and night.breaks == [1, 2]
    assert result["hands_played"] == sum(len(t.dealt) for t in night.tables.values())
    assert result["moves"] > 0 and len(result["places"]) == 24
    assert night.levels_sent[:3] == [0, 0, 0] and 3 in night.levels_sent  # blinds went up
    assert len(result["history_sha256"]) == 64


def _started():
    state, orders = start(VenueSetup((9, 9), (1, 2), 1, LEVELS), [f"P{i}" for i in
                                                                  range(1, 11)], 500, 3)
    return state, orders


def test_the_opening_draw_seats_everyone_once_then_deals_when_every_seat_is_applied():
    state, orders = _started()
    seats = [o for o in orders if o.kind == "seat"]
    assert sorted(o.args[0] for o in seats) == sorted(f"P{i}" for i in range(1, 11))
    assert all(o.for_hand == 0 and o.args[2:] == (500, "draw") for o in seats)
    seq = {1: 0, 2: 0}
    gos = []
    for o in orders:
        seq[o.table] += 1
        state, more = step(state, o.table, seq[o.table], "applied", (o.seq,))
        gos += more
    assert [(o.kind, o.args) for o in gos] == [("go", (1,)), ("go", (1,))]
    assert state.phase == "play"


@pytest.mark.parametrize("table, seq, kind, args, message", [
    (3, 1, "applied", (1,), "no table 3"),
    (1, 0, "applied", (1,), "applied already"),
    (1, 1, "applied", (99,), "never sent"),
    (1, 1, "hand_finished", (1, (), (), 0), "was not being played"),
    (1, 1, "reboot", (), "no report of kind"),
    (1, 1, "moved", (1, "P1", 500), "was not moved"),
])
def test_a_report_out_of_turn_is_refused_and_changes_nothing(table, seq, kind, args,
                                                             message):
    state, _orders = _started()
    before = state.result(), dict(state.tables[1].__dict__), state.phase
    with pytest.raises(VenueStateError, match=message) as info:
        step(state, table, seq, kind, args)
    assert isinstance(info.value, InvalidInputError) and isinstance(info.value, ValueError)
    assert (state.result(), dict(state.tables[1].__dict__), state.phase) == before


def test_chips_that_do_not_add_up_are_refused():
    state, orders = _started()
    seq = {1: 0, 2: 0}
    for o in orders:
        seq[o.table] += 1
        state, _more = step(state, o.table, seq[o.table], "applied", (o.seq,))
    players = sorted(state.seating.table(1).players.items())
    state, _ = step(state, 1, seq[1] + 1, "hand_started", (1, players[0][0], players[1][0],
                                                          players[2][0]))
    chips = tuple((p, 500) for _s, p in players)
    forged = ((chips[0][0], 600), *chips[1:])  # 100 chips from nowhere
    with pytest.raises(VenueStateError, match="chips"):
        step(state, 1, seq[1] + 2, "hand_finished", (1, forged, (), 60_000))
    state, _ = step(state, 1, seq[1] + 2, "hand_finished", (1, chips, (), 60_000))
    assert state.tables[1].hand == 1


def test_busts_of_one_round_are_placed_by_chips_at_the_start_of_the_hand():
    assert rank_busts([("A", 100), ("B", 100)], remaining=2) == {"A": 1, "B": 1}
    assert rank_busts([("A", 50), ("B", 700), ("C", 100)], 10) == {"B": 8, "C": 9, "A": 10}
    assert rank_busts([], 5) == {}


def test_a_bad_starting_stack_is_refused():
    with pytest.raises(VenueStateError, match="starting chips"):
        start(VenueSetup((9, 9), (1, 2)), ["A", "B"], 0, 1)
