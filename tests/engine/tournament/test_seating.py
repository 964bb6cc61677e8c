"""The venue's seat draw and late entries (engine/tournament/seating.py)."""

from __future__ import annotations

import doctest
import random
from collections import Counter

import pytest

from engine.errors import IllegalActionError, InvalidInputError, PokerTableError
from engine.text import UnsafeTextError
from engine.tournament import balancing, breaking, seating
from engine.tournament.seating import (
    Move,
    SeatingError,
    VenueSetupError,
    draw_seats,
    late_entry,
    new_venue,
)

NAMES = [f"P{i}" for i in range(1, 25)]


@pytest.mark.parametrize("module", [seating, balancing, breaking])
def test_the_modules_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_draw_spreads_players_evenly_over_the_tables_it_opens():
    venue, moves = draw_seats(new_venue([9, 9, 9], [1, 2, 3]), NAMES, random.Random(7))
    assert [t.count for t in venue.tables] == [8, 8, 8]
    assert {m.reason for m in moves} == {"draw"}
    assert [m.player for m in moves] == NAMES
    assert all(m.from_table is None and m.from_seat is None for m in moves)
    assert {(m.to_table, m.to_seat) for m in moves} == set(venue.seated().values())


def test_the_draw_opens_only_the_tables_that_break_last():
    venue, _ = draw_seats(new_venue([9, 9, 9], [2, 3, 1]), NAMES[:12], random.Random(1))
    assert [t.status for t in venue.tables] == ["open", "closed", "open"]
    assert [t.count for t in venue.tables] == [6, 0, 6]


def test_the_draw_depends_only_on_the_seed():
    draw = [draw_seats(new_venue([9, 9], [1, 2]), NAMES[:15], random.Random(s))[1]
            for s in (3, 3, 4)]
    assert draw[0] == draw[1]
    assert draw[0] != draw[2]


def test_every_seat_is_drawn_for_every_player_over_many_draws():
    seen = Counter()
    for seed in range(300):
        _, moves = draw_seats(new_venue([3, 3], [1, 2]), ["A", "B", "C", "D"],
                              random.Random(seed))
        seen.update((m.player, m.to_table, m.to_seat) for m in moves if m.player == "A")
    assert len(seen) == 6  # player A has sat in each of the six seats


@pytest.mark.parametrize("players, message", [
    (NAMES[:19], "do not fit"),
    (["A", "A"], "named twice"),
])
def test_a_bad_draw_is_refused_and_changes_nothing(players, message):
    venue = new_venue([9, 9], [1, 2])
    with pytest.raises(SeatingError, match=message) as info:
        draw_seats(venue, players, random.Random(1))
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)
    assert venue == new_venue([9, 9], [1, 2])


@pytest.mark.parametrize("name", ["", "x" * 25, "Ann\u202e", "Bob\x00", " Cy", 7])
def test_an_unsafe_name_is_refused(name):
    with pytest.raises(InvalidInputError):
        draw_seats(new_venue([9], [1]), [name], random.Random(1))


def test_a_second_draw_is_refused():
    venue, _ = draw_seats(new_venue([9, 9], [1, 2]), NAMES[:4], random.Random(1))
    with pytest.raises(SeatingError, match="late_entry"):
        draw_seats(venue, ["New"], random.Random(1))


def test_a_late_entry_goes_to_a_table_with_the_fewest_players():
    venue, _ = draw_seats(new_venue([9, 9, 9], [1, 2, 3]), NAMES[:26 - 3], random.Random(2))
    counts = [t.count for t in venue.tables]
    venue2, moves = late_entry(venue, "Late", random.Random(5))
    assert moves == [Move("Late", None, None, moves[0].to_table, moves[0].to_seat,
                          "late_entry")]
    assert counts[moves[0].to_table - 1] == min(counts)
    assert venue2.location("Late") == (moves[0].to_table, moves[0].to_seat)
    assert venue.location("Late") is None


def test_a_late_entry_opens_the_next_closed_table_when_the_open_ones_are_full():
    venue, _ = draw_seats(new_venue([2, 2, 2], [1, 2, 3]), ["A", "B"], random.Random(2))
    assert [t.status for t in venue.tables] == ["closed", "closed", "open"]
    venue, moves = late_entry(venue, "C", random.Random(1))
    assert moves[0].to_table == 2 and venue.table(2).status == "open"


def test_a_late_entry_is_refused_when_the_venue_is_full_or_the_name_is_taken():
    venue, _ = draw_seats(new_venue([2], [1]), ["A", "B"], random.Random(2))
    with pytest.raises(SeatingError, match="no open seat"):
        late_entry(venue, "C", random.Random(1))
    with pytest.raises(SeatingError, match="already entered"):
        late_entry(venue, "A", random.Random(1))


@pytest.mark.parametrize("seats, order, difference, message", [
    ([], [], 1, "1..64 tables"),
    ([9, 1], [1, 2], 1, "table 2 must have 2..10 seats"),
    ([9, 11], [1, 2], 1, "table 2 must have"),
    ([9, True], [1, 2], 1, "table 2 must have"),
    ([9, 9], [1, 1], 1, "break order must name every table"),
    ([9, 9], [1], 1, "break order must name every table"),
    ([9, 9], [1, 2], 0, "max difference"),
    ([9, 9], [1, 2], 1.5, "max difference"),
])
def test_a_bad_venue_is_refused_naming_what_is_wrong(seats, order, difference, message):
    with pytest.raises(VenueSetupError, match=message) as info:
        new_venue(seats, order, difference)
    assert isinstance(info.value, InvalidInputError) and isinstance(info.value, ValueError)


def test_a_bad_table_number_is_refused():
    venue = new_venue([9, 9], [1, 2])
    for number in (0, 3, "1"):
        with pytest.raises(SeatingError, match="no table"):
            venue.table(number)
    assert issubclass(SeatingError, IllegalActionError)
    assert issubclass(UnsafeTextError, InvalidInputError)
