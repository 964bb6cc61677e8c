"""Players busting in the same hand: the larger stack at the start of the hand finishes
higher (TDA); equal stacks tie and share the places' prizes."""

from __future__ import annotations

from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import four_players, gunpowder_text


def _four_players_paying_three() -> Tournament:
    text = gunpowder_text().replace("buy_in = 10 ", "buy_in = 40 ")
    start = text.index("[payouts]")
    end = text.index("[points]")
    return four_players(text[:start] + "[payouts]\ntable = [\n  { min_entrants = 3, "
                        "max_entrants = 10, percentages = [40, 30, 30] },\n]\n\n" + text[end:])


def test_two_equal_stacks_busted_by_one_hand_tie_and_share():
    t = _four_players_paying_three()
    assert t.payouts() == [(1, 64), (2, 48), (3, 48)]
    t.correct_stacks({1: 10000, 2: 600, 3: 600, 4: 14000})
    t.hand_started(0.0)
    alerts = t.hand_finished(20.0, {1: 11200, 2: 0, 3: 0, 4: 14000})
    places = {e.seat: p for p, e in t.standings()}
    assert places[2] == places[3] == 3
    prizes = {e.seat: t.prizes().get(e.entry_id) for _, e in t.standings()}
    assert prizes[2] == prizes[3] == 24  # places 3 and 4 pay 48 and 0
    assert [a.message for a in alerts if a.kind == "eliminated"] == \
        ["P2 finishes 3 (tied)", "P3 finishes 3 (tied)"]


def test_larger_stack_at_the_start_finishes_higher():
    t = _four_players_paying_three()
    t.correct_stacks({1: 10000, 2: 600, 3: 700, 4: 13900})
    t.hand_started(0.0)
    t.hand_finished(20.0, {1: 11300, 2: 0, 3: 0, 4: 13900})
    places = {e.seat: p for p, e in t.standings()}
    assert places[3] == 3 and places[2] == 4
    prizes = {e.seat: t.prizes().get(e.entry_id) for _, e in t.standings()}
    assert prizes[3] == 48 and prizes[2] == 0
