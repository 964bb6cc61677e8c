"""Balancing a venue's tables (engine/tournament/balancing.py): the player due the big blind
next at the long table moves to the worst seat at the short one (TDA 11 and 12)."""

from __future__ import annotations

import pytest

from engine.tournament.balancing import (
    balance,
    may_take,
    next_hand_positions,
    out_of_balance,
    player_to_move,
    record_positions,
    worst_seat,
)
from engine.tournament.seating import (
    Move,
    SeatingError,
    TablePositions,
    TableSeats,
    VenueSeating,
)


def table(number, occupants, positions=None):
    seats = tuple(None if p == "." else p for p in occupants.split())
    pos = TablePositions(*positions) if positions else None
    return TableSeats(number, seats, "open", pos)


def venue(*tables, difference=1):
    return VenueSeating(tuple(tables), tuple(t.number for t in tables), difference)


def test_the_player_due_the_big_blind_next_moves():
    long = table(1, "A B C D E F G H I", (3, 4, 5))
    assert player_to_move(long) == (6, "F")
    # the big blind's neighbour left: the next seated player is due
    assert player_to_move(table(1, "A B C D E . . H I", (3, 4, 5))) == (8, "H")
    # round the table from the last seat
    assert player_to_move(table(1, "A B C . . . . . I", (7, 8, 9))) == (1, "A")


def test_the_worst_seat_takes_the_next_big_blind_when_one_is_free():
    # last hand: button 2, small blind 3, big blind 4; seat 5 is empty and comes before
    # the next big blind (seat 6): a newcomer there posts the next big blind at once
    short = table(2, "A B C D . F . H .", (2, 3, 4))
    assert next_hand_positions(short) == (3, 4, 6)
    assert worst_seat(short) == 5


def test_the_worst_seat_is_never_the_small_blind_nor_between_button_and_small_blind():
    # last hand 5/6/7: the next hand's button is 6, small blind 7; seats 8, 9, 1, 2 are
    # after the big blind; only seat 7 (the small blind, its player gone) is empty there...
    short = table(2, "A B C D E F . H I", (5, 6, 7))
    assert not may_take(short, 7)
    assert worst_seat(short) is None
    # ...and an empty seat 6 lies on the next hand's button: allowed, the last choice
    short = table(2, "A B C D E . . H I", (5, 6, 7))
    assert worst_seat(short) == 6
    # last hand 1/3/5 with seat 2 and 4 empty: seat 4 lies between the next button (3)
    # and the next small blind (5), seat 2 behind the button: seat 2 is the only legal one
    short = table(2, "A . C . E F G H I", (1, 3, 5))
    assert not may_take(short, 4)
    assert worst_seat(short) == 2


def test_a_table_left_with_one_player_forgets_its_button_and_takes_any_seat():
    short = table(2, ". . C D . . . . .", (3, 3, 4)).with_player(4, None)
    assert short.positions is None and short.players == {3: "C"}
    assert worst_seat(short) == 1 and may_take(short, 2)
    assert next_hand_positions(short) is None


def test_before_its_first_hand_a_table_takes_its_lowest_empty_seat():
    assert worst_seat(table(2, "A . C . .")) == 2
    assert player_to_move(table(1, ". B C")) == (2, "B")


def test_the_long_table_gives_at_its_boundary_until_balanced():
    long = table(1, "A B C D E F G H I", (3, 4, 5))
    short = table(2, "J . L . . . . . .", (1, 1, 3))
    state = venue(long, short)
    assert out_of_balance(state)
    state2, moves = balance(state, 1)
    assert [m.player for m in moves] == ["F", "G", "H"]
    assert all(m.reason == "balance" and m.from_table == 1 and m.to_table == 2
               for m in moves)
    assert [t.count for t in state2.tables] == [6, 5]
    assert not out_of_balance(state2)
    assert state.table(1).count == 9  # the old state is unchanged


def test_a_table_that_is_not_the_longest_gives_nobody():
    state = venue(table(1, "A B C D E F G . .", (1, 2, 3)),
                  table(2, "J K L M N O P Q R", (1, 2, 3)),
                  table(3, "S T U . . . . . .", (1, 2, 3)))
    assert balance(state, 1) == (state, [])
    state, moves = balance(state, 2)
    # 7/9/3: table 2 gives while it is one of the longest: 7/8/4, 7/7/5, 7/6/6
    assert moves == [Move("M", 2, 4, 3, 4, "balance"), Move("N", 2, 5, 3, 5, "balance"),
                     Move("O", 2, 6, 3, 6, "balance")]
    assert [t.count for t in state.tables] == [7, 6, 6]


def test_the_house_difference_allows_a_wider_gap():
    state = venue(table(1, "A B C D E . . . .", (1, 2, 3)),
                  table(2, "J K L . . . . . .", (1, 2, 3)), difference=2)
    assert not out_of_balance(state)
    assert balance(state, 1) == (state, [])


def test_a_move_waits_when_the_short_table_has_no_legal_seat():
    state = venue(table(1, "A B C D E F G H I", (3, 4, 5)),
                  table(2, "J K L M N O . Q R", (5, 6, 7)))
    assert balance(state, 1) == (state, [])


def test_a_full_short_table_is_passed_over_for_the_next_shortest():
    state = venue(table(1, "A B C D E", (1, 2, 3)),
                  table(2, "J K", (1, 1, 2)),
                  table(3, "S T U . . . .", (1, 2, 3)))
    _, moves = balance(state, 1)
    assert [(m.player, m.to_table) for m in moves] == [("D", 3)]


@pytest.mark.parametrize("args, message", [
    ((1, 2, 10), "big blind seat must be 1..9"),
    ((1, 2, 0), "big blind seat must be"),
    ((True, 2, 3), "button seat"),
    ((1, 2, 2), "must differ"),
    ((1, 2, 4), "is empty"),
])
def test_bad_positions_are_refused(args, message):
    state = venue(table(1, "A B C . E F G H I"), table(2, "J K L M . . . . ."))
    with pytest.raises(SeatingError, match=message):
        record_positions(state, 1, *args)
    assert record_positions(state, 1, 1, 2, 3).table(1).positions == TablePositions(1, 2, 3)
