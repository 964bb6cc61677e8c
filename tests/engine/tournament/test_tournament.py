"""The tournament model: entries, eliminations, extras, heads-up, qualifiers, stats, views."""

from __future__ import annotations

import json

import pytest

from engine.errors import PokerTableError
from engine.tournament.clock import ClockError
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import ChipCountError, RegistrationError, Tournament
from engine.views import ClockView
from tests.engine.tournament.helpers import DATA, play_hand


def new(name="gunpowder", players=4, seed=1, start=True):
    t = Tournament(load_structure(name), seed=seed)
    for seat in range(1, players + 1):
        t.register(f"P{seat}", seat)
    if start:
        t.start(0.0)
    return t


def bust(t, now, loser, winner):
    """A hand in which ``loser`` loses everything to ``winner``."""
    return play_hand(t, now, winner_seat=winner, loser_seat=loser, amount=10**9)


def test_registration_rules():
    t = new(start=False)
    with pytest.raises(RegistrationError):
        t.register("Dup", 1)
    with pytest.raises(RegistrationError):
        t.register("", 5)
    with pytest.raises(RegistrationError):
        t.register("X", 11)
    t.start(0.0)
    late = t.register("Late", 5, now=30.0)
    assert late.chips == 6300 - 300 and late.level_number == 1 and late.deduction == 300


def test_eliminations_places_and_undo():
    t = new(players=5)
    bust(t, 0.0, loser=5, winner=1)
    bust(t, 60.0, loser=3, winner=2)
    places = {e.name: p for p, e in t.standings()}
    assert places["P5"] == 5 and places["P3"] == 4
    assert {e.name: e.knockouts for e in t.entrants}["P1"] == 1
    # undo the first (mistaken) elimination: P3 moves to place 5
    p5 = next(e for e in t.entrants if e.name == "P5")
    total_before = sum(t.stacks().values())
    t.undo_elimination(70.0, p5.entry_id, chips=1000)
    assert p5.active and t.stacks()[5] == 1000
    assert sum(t.stacks().values()) == total_before + 1000
    assert {e.name: p for p, e in t.standings()}["P3"] == 5
    assert {e.name: e.knockouts for e in t.entrants}["P1"] == 0
    with pytest.raises(PokerTableError):
        t.undo_elimination(70.0, p5.entry_id)


def test_simultaneous_busts_smaller_stack_finishes_lower():
    t = new(players=4)
    t.correct_stacks({1: 10000, 2: 3000, 3: 5000, 4: 7200})
    t.hand_started(0.0)
    t.hand_finished(20.0, {1: 25200, 2: 0, 3: 0, 4: 0})
    places = {e.name: p for p, e in t.standings()}
    assert places == {"P1": 1, "P4": 2, "P3": 3, "P2": 4}
    assert t.finished


def test_chip_count_checked_after_each_hand():
    t = new()
    t.hand_started(0.0)
    stacks = t.stacks()
    stacks[1] += 100
    before = t.to_dict(1.0)
    with pytest.raises(ChipCountError):
        t.hand_finished(10.0, stacks)
    assert t.to_dict(1.0) == before  # rejected: nothing changed


def test_bounty_assigned_by_seed():
    holders = set()
    for seed in range(12):
        t = new("phat-ace", players=6, seed=seed)
        bounty = [e for e in t.entrants if e.bounty]
        assert len(bounty) == 1
        assert bounty[0].chips == 20000 + 5000
        assert sum(t.stacks().values()) == 6 * 20000 + 5000
        again = new("phat-ace", players=6, seed=seed)
        assert [e.bounty for e in again.entrants] == [e.bounty for e in t.entrants]
        holders.add(bounty[0].seat)
    assert len(holders) > 1  # the seed matters


def test_bonus_wheel_in_window_and_into_next_pot():
    s = load_structure("gunpowder")
    w = s.bonus_wheel
    seen = set()
    for seed in range(8):
        t = new(seed=seed)
        assert w.first_hand <= t.bonus_hand <= w.last_hand
        assert t.bonus_amount in w.segments
        now = 0.0
        spun = None
        total = sum(t.stacks().values())
        for hand in range(1, w.last_hand + 2):
            setup = t.next_hand(now)
            if spun is not None and hand == spun + 1:
                assert setup.bonus == t.bonus_amount  # the hand after the wheel
            else:
                assert setup.bonus == 0
            alerts = play_hand(t, now, duration=5.0)
            now += 10.0
            total += setup.bonus
            assert sum(t.stacks().values()) == total
            if "bonus_wheel" in [a.kind for a in alerts]:
                assert spun is None and hand == t.bonus_hand
                spun = hand
                assert t.wheel_view().chosen == t.bonus_amount
            if spun is not None and hand > spun + 1:
                break
        assert spun == t.bonus_hand
        seen.add((t.bonus_hand, t.bonus_amount))
    assert len(seen) > 1


def test_heads_up_limit_bigger_stack_wins():
    t = new("phat-ace", players=3, seed=2)
    t.correct_stacks({1: 30000, 2: 20000, 3: 15000 if t.stacks()[3] else 1})
    alerts = bust(t, 0.0, loser=3, winner=1)
    assert "heads_up_limit" in [a.kind for a in alerts]
    now = 10.0
    for i in range(1, 8):
        assert t.next_hand(now).heads_up_hand == i
        alerts = play_hand(t, now, winner_seat=2, loser_seat=1, amount=1000)
        now += 10
        if i < 7:
            assert not t.finished
    assert t.finished
    standings = {e.name: p for p, e in t.standings()}
    assert standings["P3"] == 3
    chips = {e.name: e.chips_at_out for e in t.entrants}
    assert standings["P1"] == 1 and standings["P2"] == 2, (standings, chips)
    assert "tournament_over" in [a.kind for a in alerts]


def test_heads_up_tie_plays_sudden_death():
    t = new("phat-ace", players=2, seed=3)
    a, b = sorted(t.stacks())
    # make the stacks equal
    total = sum(t.stacks().values())
    t.correct_stacks({a: total // 2, b: total - total // 2})
    now = 0.0
    kinds = []
    for _ in range(7):
        kinds += [x.kind for x in play_hand(t, now)]
        now += 10
    assert "sudden_death" in kinds and not t.finished
    assert t.next_hand(now).sudden_death
    assert "Sudden-death hand" in t.clock_view(now).notices
    play_hand(t, now, winner_seat=a, loser_seat=b, amount=1000)
    assert t.finished
    assert {e.seat: p for p, e in t.standings()}[a] == 1


def test_mini_qualifiers_and_final():
    s = load_structure("mini")
    t = Tournament(s, seed=4)
    now = 0.0
    qualifiers = []
    for rnd in range(1, 5):
        for seat in range(1, 5):
            t.register(f"R{rnd}S{seat}", seat)
        t.start(now)
        assert t.next_hand(now).min_bet == 10 and t.next_hand(now).big_blind == 0
        # seat 1 takes 300 from seat 3, seat 2 takes 100 from seat 4
        play_hand(t, now, winner_seat=1, loser_seat=3, amount=300)
        play_hand(t, now + 60, winner_seat=2, loser_seat=4, amount=100)
        t.hand_started(now + 29 * 60)
        assert t.tick(now + 31 * 60) == [] or not t.round_over  # hand in progress: played out
        alerts = t.hand_finished(now + 31 * 60, t.stacks())
        assert "round_over" in [a.kind for a in alerts]
        with pytest.raises(ClockError):
            t.hand_started(now + 32 * 60)
        qualifiers += [e.name for e in t.entrants if e.qualified and e.round == rnd]
        now += 40 * 60
    assert qualifiers == [f"R{r}S{s}" for r in range(1, 5) for s in (1, 2)]
    t.start(now)
    final = t.active()
    assert [e.name for e in final] == qualifiers
    assert all(e.chips == s.starting_stack for e in final)
    assert t.clock.remaining(now) == 3600
    play_hand(t, now, winner_seat=5, loser_seat=1, amount=500)
    alerts = t.tick(now + 3601)
    assert [a.kind for a in alerts][-2:] == ["round_over", "tournament_over"]
    assert t.standings()[0][1].name == "R3S1" and t.standings()[0][0] == 1


def test_payouts_and_prize_pool():
    t = new(players=8)
    assert t.prize_pool() == 80
    assert t.payouts() == [(1, 52), (2, 28)]
    t2 = new(players=10)
    # late entries into the seats of busted players: 13 entries in all
    for i, seat in enumerate((10, 9, 8), 1):
        bust(t2, 100.0 * i, loser=seat, winner=1)
        t2.register(f"Late{seat}", seat, now=100.0 * i + 50)
    assert len(t2.entries()) == 13 and t2.prize_pool() == 130
    assert [a for _, a in t2.payouts()] == [65, 39, 26]
    assert sum(a for _, a in t2.payouts()) == t2.prize_pool()


def test_league_points_after_the_end():
    t = new(players=4)
    for loser in (4, 3, 2):
        bust(t, 0.0, loser=loser, winner=1)
    pts = t.league_points()
    by_name = {e.name: pts.get(e.entry_id) for e in t.entrants}
    assert by_name["P1"] > 0
    # pokerstars pays the top 15%: with 4 entrants only the winner
    assert by_name["P2"] == 0 and by_name["P4"] == 0


def test_clock_view_and_stats():
    t = new(players=4)
    play_hand(t, 0.0, winner_seat=1, loser_seat=2, amount=1000, duration=60.0)
    v = t.clock_view(100.0)
    assert isinstance(v, ClockView)
    assert (v.level_number, v.small_blind, v.big_blind) == (1, 100, 200)
    assert (v.next_small_blind, v.next_big_blind) == (200, 400)
    assert v.remaining_seconds == pytest.approx(500.0)
    assert v.players_left == 4 and v.entrants == 4
    assert v.chips_in_play == 4 * 6300 and v.average_stack == 6300
    assert v.prize_pool == 40 and v.running
    assert v.seconds_to_break == pytest.approx(500 + 5 * 600)
    assert v.late_registration_open
    assert v.estimated_end_seconds is not None and v.estimated_end_seconds > 0
    st = t.stats(100.0)
    assert st.estimated_end_at == pytest.approx(100.0 + st.estimated_seconds_to_end)
    # the view is a query: it must not fire or swallow alerts
    assert [a.kind for a in t.tick(600.0)][-2:] == ["level_end", "level_start"]


def test_snapshot_restore_roundtrip():
    t = new("phat-ace", players=4, seed=8)
    play_hand(t, 0.0, winner_seat=1, loser_seat=2, amount=3000)
    bust(t, 40.0, loser=4, winner=3)
    t.hand_started(100.0)
    d = json.loads(json.dumps(t.to_dict(110.0)))
    r = Tournament.from_dict(d, t.structure, now=110.0, policy="catch_up")
    assert r.to_dict(110.0) == t.to_dict(110.0)
    stacks = t.stacks()
    t.hand_finished(130.0, stacks)
    r.hand_finished(130.0, stacks)
    assert r.to_dict(130.0) == t.to_dict(130.0)
    assert r.clock_view(130.0) == t.clock_view(130.0)


def test_restore_paused_by_default():
    t = new(players=3)
    d = t.to_dict(100.0)
    r = Tournament.from_dict(d, t.structure, now=900.0)
    assert not r.clock.running and r.clock_view(900.0).remaining_seconds == pytest.approx(500)


def test_tournament_start_needs_two_players():
    t = Tournament(load_structure(DATA / "valid_mixed.toml"))
    t.register("Solo", 1)
    with pytest.raises(RegistrationError):
        t.start(0.0)
