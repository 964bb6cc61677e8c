"""What the room's screen is told about a tournament (engine.tournament.room) and the
clock view's issue-15 fixes: the break's next level, the heads-up notice at the end, the
players of a qualifier round before it starts, the clock stopped with the last player."""

from __future__ import annotations

from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import LEAGUE_NAMES as NAMES
from tests.engine.tournament.helpers import league_night


def _t(preset: str, players: int) -> Tournament:
    return league_night(preset, players, seed=15)


def test_payouts_points_stacks_and_the_wheel_name_of_a_league_night():
    t = _t("gunpowder", 6)
    t.start(0.0)
    r = t.room_view()
    assert r.currency == "$" and r.payouts == ((1, 60),)  # 6 x 10, one place paid
    assert r.wheel_name == "Party Pop"
    assert [name for name, _ in r.stacks] == list(NAMES)  # all equal: seat order
    assert r.points and r.points[0][0] == 1 and float(r.points[0][1]) > 0
    assert not r.finished and r.places == () and r.eliminated == ()


def test_late_entry_stack_follows_the_level_and_goes_when_registration_closes():
    t = _t("gunpowder", 5)
    assert t.room_view().late_entry_stack is None  # before the start: not a late entry
    t.start(0.0)
    assert t.room_view().late_entry_stack == 6300 - 300  # level 1 deduction (seed 000)
    t.next_level(10.0)
    assert t.room_view().late_entry_stack == 6300 - 900
    e = t.register("Farouk", 6, now=11.0)
    assert e.chips == 6300 - 900
    t.next_level(20.0)
    t.next_level(30.0)  # level 4: closed
    assert t.room_view().late_entry_stack is None


def test_eliminated_players_with_places_the_chip_leader_first():
    t = _t("gunpowder", 4)
    t.start(0.0)
    t.correct_stacks({1: 6300, 2: 9000, 3: 3600, 4: 6300})
    t.eliminate(5.0, 3)
    r = t.room_view()
    assert r.stacks[0] == ("Bob", 9000)
    assert [(p.place, p.name) for p in r.eliminated] == [(4, "Carmen")]


def test_the_bounty_chip_holder_and_who_takes_it():
    t = _t("phat-ace", 3)
    t.start(0.0)
    holder = next(e for e in t.entrants if e.bounty)
    assert t.room_view().bounty_holder == holder.name
    other = next(e for e in t.active() if e is not holder)
    t.hand_started(1.0)
    stacks = t.stacks()
    stacks[other.seat] += stacks[holder.seat]
    stacks[holder.seat] = 0
    t.hand_finished(2.0, stacks)
    assert t.room_view().bounty_holder == other.name
    assert _t("gunpowder", 2).room_view().bounty_holder == ""


def test_the_end_stops_the_clock_lists_every_place_and_closes_registration():
    t = _t("gunpowder", 3)
    t.start(0.0)
    t.eliminate(30.0, 3)
    t.eliminate(60.0, 2)
    assert t.finished and not t.clock.running
    r = t.room_view()
    assert r.finished and [(p.place, p.name) for p in r.places] == [
        (1, "Ann"), (2, "Bob"), (3, "Carmen")]
    assert r.places[0].payout == 30 and r.late_entry_stack is None
    assert not t.registration_open()
    view = t.clock_view(600.0)
    assert not view.running and view.remaining_seconds == t.clock_view(60.0).remaining_seconds


def test_the_break_shows_the_level_it_leads_to_as_the_next_level():
    t = _t("gunpowder", 6)
    t.start(0.0)
    brk = next(lv for lv in t.structure.levels if lv.is_break)
    t.jump_to_level(10.0, brk.index)
    v = t.clock_view(20.0)
    assert v.is_break
    after = t.structure.levels[brk.index + 1]
    assert (v.small_blind, v.big_blind) == (after.small_blind, after.big_blind)
    assert (v.next_small_blind, v.next_big_blind) == (after.small_blind, after.big_blind)


def test_a_night_decided_by_the_heads_up_limit_has_no_heads_up_notice_at_the_end():
    t = _t("phat-ace", 6)
    t.start(0.0)
    holder = next(e for e in t.active() if e.bounty)
    for e in [e for e in t.active() if e is not holder][1:]:
        t.eliminate(1.0, e.seat)
    now = 2.0
    for _ in range(20):
        if t.finished:
            break
        t.hand_started(now)
        t.hand_finished(now + 1, t.stacks())
        now += 2
    assert t.finished
    v = t.clock_view(now)
    assert not any("heads-up" in n.lower() for n in v.notices), v.notices
    r = t.room_view()
    assert r.places[0].name == holder.name and "heads-up limit" in r.decided


def test_a_qualifier_round_counts_the_players_registered_for_it():
    t = Tournament(load_structure("mini"), seed=1)
    assert (t.clock_view(0.0).players_left, t.clock_view(0.0).entrants) == (0, 0)
    for seat, name in enumerate(NAMES[:3], 1):
        t.register(name, seat)
    v = t.clock_view(0.0)
    assert (v.players_left, v.entrants) == (3, 3)
