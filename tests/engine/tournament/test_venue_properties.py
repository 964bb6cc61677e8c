"""Property tests of the venue's seating (hypothesis): whole nights of random busts at
random tables keep every invariant after every hand boundary, and end at one table."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.balancing import out_of_balance
from engine.tournament.breaking import final_table_due, final_table_host
from engine.tournament.seating import SeatingError, draw_seats, late_entry, new_venue
from tests.engine.tournament.venue_helpers import (
    check_invariants,
    check_landing,
    play_boundary,
    playable,
)


@st.composite
def venues(draw):
    """(venue, players): 2..5 tables of 2..10 seats, a shuffled break order, a house
    difference of 1 or 2, and enough players to open at least two tables."""
    seats = draw(st.lists(st.integers(2, 10), min_size=2, max_size=5))
    order = draw(st.permutations(list(range(1, len(seats) + 1))))
    difference = draw(st.integers(1, 2))
    host = seats[order[-1] - 1]
    count = draw(st.integers(min(host + 1, sum(seats)), sum(seats)))
    return new_venue(seats, order, difference), [f"P{i}" for i in range(1, count + 1)]


@settings(max_examples=150, deadline=None)
@given(setup=venues(), seed=st.integers(0, 2**32 - 1), bust_rate=st.integers(1, 4),
       late=st.integers(0, 3))
def test_a_whole_night_keeps_every_invariant(setup, seed, bust_rate, late):
    venue, players = setup
    rng = random.Random(seed)
    registered = set(players)
    before = venue
    venue, moves = draw_seats(venue, players, rng)
    check_invariants(before, venue, moves, registered)
    broke: list[int] = []
    for step in range(2000):
        tables = playable(venue)
        if not tables:
            break
        if step < late and not any(t.status == "broken" for t in venue.tables):
            try:
                before = venue
                venue, moves = late_entry(venue, f"L{step}", rng)
                registered.add(f"L{step}")
                check_invariants(before, venue, moves, registered)
            except SeatingError as exc:  # a full venue refuses, naming why
                assert "no open seat" in str(exc) or "holding" in str(exc)
        number = rng.choice(tables)
        busts = 1 if rng.randrange(bust_rate + 1) == 0 else 0
        before = venue
        venue, moves = play_boundary(venue, number, busts, rng)
        check_invariants(before, venue, moves, registered)
        for m in moves:
            if m.reason == "balance":
                assert m.from_table == number
                check_landing(venue, m)
        broke += sorted((t.number for t in venue.tables
                         if t.status == "broken" and before.table(t.number).status == "open"),
                        key=venue.break_order.index)
    assert venue.remaining() == 1, "the night stopped before a winner"
    assert len(venue.out) == len(registered) - 1
    assert broke == [n for n in venue.break_order if n in broke]  # the house's order
    assert venue.final_table is None or venue.final_table == venue.break_order[-1] \
        or venue.table(venue.break_order[-1]).status == "closed"


@settings(max_examples=150, deadline=None)
@given(setup=venues(), seed=st.integers(0, 2**32 - 1), busts=st.integers(0, 12))
def test_quiet_rounds_bring_the_tables_within_the_house_difference(setup, seed, busts):
    venue, players = setup
    rng = random.Random(seed)
    venue, _ = draw_seats(venue, players, rng)
    for _ in range(busts):  # an uneven room: busts at random tables, one at a time
        if not playable(venue):
            return
        venue, _ = play_boundary(venue, rng.choice(playable(venue)), 1, rng)
    for _ in range(3 * len(venue.tables) + 3):  # every playing table finishes a hand
        for number in playable(venue):
            if venue.table(number).status == "open" and not venue.table(number).held:
                venue, _ = play_boundary(venue, number, 0, rng)
    if venue.final_table is None and not final_table_due(venue) and out_of_balance(venue):
        tables = venue.open_tables()
        longest = max(t.count for t in tables)
        for t in tables:  # only a table with no seat left may stay short
            assert longest - t.count <= venue.max_difference or not t.open_seats(), \
                [(t.count, t.seats) for t in tables]


@settings(max_examples=100, deadline=None)
@given(setup=venues(), seed=st.integers(0, 2**32 - 1))
def test_the_final_table_is_drawn_once_the_players_fit(setup, seed):
    venue, players = setup
    rng = random.Random(seed)
    venue, _ = draw_seats(venue, players, rng)
    host = final_table_host(venue)
    while venue.final_table is None and playable(venue):
        venue, moves = play_boundary(venue, rng.choice(playable(venue)), 1, rng)
    assert venue.final_table == host
    assert venue.remaining() <= venue.table(host).seats
    assert [t.number for t in venue.open_tables()] == [host]
