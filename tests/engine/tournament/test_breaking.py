"""Breaking tables, the final table and the hand boundary (engine/tournament/breaking.py)."""

from __future__ import annotations

import random

import pytest

from engine.tournament.breaking import (
    break_table,
    can_break,
    draw_final_table,
    final_table_due,
    hand_finished,
    hand_started,
    next_to_break,
)
from engine.tournament.seating import (
    SeatingError,
    TablePositions,
    TableSeats,
    VenueSeating,
    draw_seats,
    late_entry,
    new_venue,
)
from tests.engine.tournament.venue_helpers import start_hand


def night(seats, order, players, seed=1):
    venue, _ = draw_seats(new_venue(seats, order), [f"P{i}" for i in range(1, players + 1)],
                          random.Random(seed))
    return venue


def bust(venue, number, k, seed=1):
    """Table ``number`` plays a hand in which its ``k`` lowest-seated players bust."""
    rng = random.Random(seed)
    venue = start_hand(venue, number, rng)
    gone = list(venue.table(number).players.values())[:k]
    return hand_finished(venue, number, gone, rng)


def test_the_next_table_to_break_follows_the_house_order():
    venue = night([9, 9, 9], [2, 3, 1], 24)
    assert next_to_break(venue) == 2
    assert not can_break(venue, 2)  # 8 players, 3 open seats elsewhere
    with pytest.raises(SeatingError, match="next to break: 2"):
        break_table(venue, 3, random.Random(1))


def test_a_table_breaks_at_its_boundary_once_its_players_fit_elsewhere():
    venue = night([9, 9, 9], [2, 3, 1], 24)
    venue, moves = bust(venue, 1, 4)        # table 1 is not next: it balances, no break
    assert all(m.reason == "balance" for m in moves)
    assert venue.table(2).status == "open"
    venue, moves = bust(venue, 2, 2)
    assert venue.table(2).status == "broken" and venue.table(2).count == 0
    assert {m.reason for m in moves} == {"break"}
    assert {m.from_table for m in moves} == {2} and {m.to_table for m in moves} <= {1, 3}
    counts = [t.count for t in venue.open_tables()]
    assert max(counts) - min(counts) <= 1 and sum(counts) == 18
    for m in moves:
        assert venue.location(m.player) == (m.to_table, m.to_seat)


def test_a_table_short_of_players_to_deal_breaks_at_another_tables_boundary():
    idle = TableSeats(1, ("A", None, None, None), "open", TablePositions(1, 2, 3))
    two = TableSeats(2, ("B", "C", "D", None), "open")
    three = TableSeats(3, ("E", "F", "G", None), "open")
    venue = VenueSeating((idle, two, three), (1, 2, 3))
    venue, moves = bust(venue, 2, 0)
    assert venue.table(1).status == "broken"
    assert [(m.player, m.from_table, m.reason) for m in moves] == [("A", 1, "break")]
    assert moves[0].to_table in (2, 3)


def test_the_final_table_waits_for_every_table_then_draws_everyone_afresh():
    venue = night([6, 6, 6], [1, 2, 3], 12)
    assert [t.count for t in venue.tables] == [0, 6, 6]
    venue, moves = bust(venue, 2, 4)      # 2 + 6 left: no break, no move from table 2
    assert moves == [] and not final_table_due(venue)
    venue, moves = bust(venue, 3, 2)      # 2 + 4 = 6 left: the final table is due
    assert moves == [] and final_table_due(venue)
    assert [t.number for t in venue.open_tables() if t.held] == [3]
    with pytest.raises(SeatingError, match="not playing"):
        hand_started(venue, 3, 1, 2, 3)
    with pytest.raises(SeatingError, match="holding"):
        late_entry(venue, "Late", random.Random(1))
    before = venue.seated()
    venue, moves = bust(venue, 2, 0)      # table 2's hand ends: everyone draws afresh
    assert venue.final_table == 3
    assert [t.number for t in venue.open_tables()] == [3]
    assert [t.status for t in venue.tables] == ["closed", "broken", "open"]
    assert {m.reason for m in moves} == {"final_table"}
    assert sorted(m.player for m in moves) == sorted(before) == sorted(venue.seated())
    assert all(before[m.player] == (m.from_table, m.from_seat) for m in moves)
    assert not final_table_due(venue) and not venue.table(3).held
    with pytest.raises(SeatingError, match="no more entries"):
        late_entry(venue, "Late", random.Random(1))


def test_the_final_table_draw_is_refused_before_it_is_due():
    venue = night([9, 9], [1, 2], 12)
    with pytest.raises(SeatingError, match="not due"):
        draw_final_table(venue, random.Random(1))


@pytest.mark.parametrize("busted, message", [
    (["Nobody"], "not seated at table"),
    (["P1", "P1"], "named twice"),
])
def test_a_bad_bust_report_is_refused_and_changes_nothing(busted, message):
    venue = night([9], [1], 9)
    number = venue.location("P1")[0]
    venue = start_hand(venue, number, random.Random(1))
    with pytest.raises(SeatingError, match=message):
        hand_finished(venue, number, busted, random.Random(1))
    assert venue.out == () and venue.location("P1") is not None


def test_a_closed_table_plays_no_hand():
    venue = night([9, 9], [1, 2], 4)
    assert venue.table(1).status == "closed"
    with pytest.raises(SeatingError, match="not playing"):
        hand_finished(venue, 1, [], random.Random(1))
