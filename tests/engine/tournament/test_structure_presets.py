"""The shipped presets against the venues' own rule sheets.

The numbers are quoted from the rule sheets (the project's seed documents, kept outside the
repository): seed 000 is the gunpowder league's sheet, seed 003 phat-ace's and seed 002 the
mini league's.  Each constant names the passage it comes from; the tests check the presets
against them.
"""

from __future__ import annotations

import pytest

from engine.tournament.color_up import round_up
from engine.tournament.structure_file import load_structure, preset_names
from engine.tournament.tournament import RegistrationError, Tournament
from tests.engine.tournament.helpers import play_hand

# seed 000 (gunpowder), "Chips": the starting stack and its chips (denomination -> count).
GUNPOWDER_STACK = 6300
GUNPOWDER_CHIPS = {1000: 3, 500: 4, 100: 13}
# seed 000, "Chips": blinds start at 100/200 and rise every 10 minutes.
GUNPOWDER_FIRST_BLINDS = (100, 200)
GUNPOWDER_LEVEL_MINUTES = 10
# seed 000, "Chips": the lowest chips are colored up once the blinds are 500 & 1000; five 100
# chips become one 500 chip; an odd 600 is rounded up to 1,000.
GUNPOWDER_COLOR_UP_BLINDS = (500, 1000)
GUNPOWDER_COLOR_UP_EXAMPLE = (5, 100, 500)  # count, denomination, into
GUNPOWDER_ROUND_UP_EXAMPLE = (600, 1000)    # chips before, value after
# seed 000, late registration: until the end of the third level, with fewer chips by level.
GUNPOWDER_LATE_LAST_LEVEL = 3
GUNPOWDER_LATE_DEDUCTIONS = {1: 300, 2: 900, 3: 1800}
# seed 000, "Blind Clock": the bonus wheel's name; the announcement before a level change.
GUNPOWDER_WHEEL_NAME = "Party Pop"

# seed 003 (phat-ace): 4 red 500s, 8 white 1000s and 2 blue 5000s, plus a blue 5000 bounty.
PHAT_CHIPS = {500: 4, 1000: 8, 5000: 2}
PHAT_COLORS = {500: "red", 1000: "white", 5000: "blue"}
PHAT_BOUNTY = 5000
# seed 003: blinds start at 500/1000; a 7-hand limit heads-up; every raise must be double;
# no entries after the first raise.
PHAT_FIRST_BLINDS = (500, 1000)
PHAT_HEADS_UP_HAND_LIMIT = 7
# seed 003: red 500s go at the first raise; white 1000s go at 5000/10,000.
PHAT_FIRST_COLOR_UP = 500
PHAT_SECOND_COLOR_UP = (5000, 10000, 1000)  # small blind, big blind, chip colored up
# seed 003: the small blind by hand number: (hand, before, from that hand on).
PHAT_SCHEDULE = [(4, 500, 1000), (8, 1000, 2000), (12, 2000, 3000), (16, 3000, 5000),
                 (20, 5000, 10000), (24, 10000, 15000), (28, 15000, 25000),
                 (32, 25000, 50000)]

# seed 002 (mini): no blinds; 4 qualifying rounds of 30 minutes, the best 2 of each go to
# a final of one hour.
MINI_ROUND_MINUTES = 30
MINI_FINAL_MINUTES = 60
MINI_ADVANCE = 2
MINI_ROUNDS = 4


def test_presets_are_shipped_and_load_by_name():
    assert {"gunpowder", "phat-ace", "mini"} <= set(preset_names())
    for name in preset_names():
        s = load_structure(name)
        assert s.levels and s.starting_stack > 0


# ----------------------------------------------------------------- seed 000: gunpowder
@pytest.fixture(scope="module")
def gunpowder():
    return load_structure("gunpowder")


def test_gunpowder_stack_matches_seed(gunpowder):
    assert gunpowder.starting_chips == GUNPOWDER_CHIPS
    assert gunpowder.starting_stack == GUNPOWDER_STACK == sum(
        d * n for d, n in GUNPOWDER_CHIPS.items())


def test_gunpowder_blinds_and_level_length_match_seed(gunpowder):
    first = gunpowder.blind_levels[0]
    assert (first.small_blind, first.big_blind) == GUNPOWDER_FIRST_BLINDS
    assert all(lv.minutes == GUNPOWDER_LEVEL_MINUTES for lv in gunpowder.blind_levels)


def test_gunpowder_color_up_level_and_example_match_seed(gunpowder):
    colored = [lv for lv in gunpowder.levels if lv.color_up]
    assert colored, "the preset has no color-up"
    first = colored[0]
    assert (first.small_blind, first.big_blind) == GUNPOWDER_COLOR_UP_BLINDS
    lowest = min(gunpowder.starting_chips)
    assert first.color_up == (lowest,)  # "the lowest value chips"
    remaining = gunpowder.denominations_in_play(first.index)
    count, denom, into = GUNPOWDER_COLOR_UP_EXAMPLE
    r = round_up({1: {denom: count}}, first.color_up, remaining)
    assert r.seats[0].new_chips == {into: 1} and r.change_in_play == 0
    before, after = GUNPOWDER_ROUND_UP_EXAMPLE
    r = round_up({4: {lowest: before // lowest}}, first.color_up, remaining)
    assert r.seats[0].removed_value == before
    assert r.seats[0].new_value == after
    assert r.change_in_play == after - before
    assert gunpowder.color_up_rule == "round_up"


def test_gunpowder_late_registration_matches_seed(gunpowder):
    lr = gunpowder.late_registration
    assert lr.last_level == GUNPOWDER_LATE_LAST_LEVEL
    assert lr.deduction_by_level == GUNPOWDER_LATE_DEDUCTIONS


def test_gunpowder_late_entries_follow_seed_in_play(gunpowder):
    deductions = GUNPOWDER_LATE_DEDUCTIONS
    t = Tournament(gunpowder, seed=1)
    t.register("A", 1)
    t.register("B", 2)
    t.start(0.0)
    seat = 3
    for level, deduction in sorted(deductions.items()):
        now = (level - 1) * 600.0 + 5.0
        t.tick(now)
        e = t.register(f"late{level}", seat, now=now)
        assert e.chips == gunpowder.starting_stack - deduction
        seat += 1
    t.tick(3 * 600.0 + 1)
    with pytest.raises(RegistrationError):
        t.register("too late", seat, now=3 * 600.0 + 1)


def test_gunpowder_party_pop_enabled(gunpowder):
    assert gunpowder.bonus_wheel is not None
    assert gunpowder.bonus_wheel.name == GUNPOWDER_WHEEL_NAME


def test_gunpowder_blinds_up_next_hand(gunpowder):
    t = Tournament(gunpowder, seed=2)
    t.register("A", 1)
    t.register("B", 2)
    t.start(0.0)
    t.hand_started(590.0)
    assert t.current.big_blind == 200
    alerts = t.tick(605.0)  # level 1 ends during the hand
    assert "blinds_up_next_hand" in [a.kind for a in alerts]
    assert "Blinds up next hand" in t.clock_view(605.0).notices
    t.hand_finished(620.0, t.stacks())
    assert t.blinds_for_next_hand(620.0)[:2] == (200, 400)


# ----------------------------------------------------------------- seed 003: phat-ace
@pytest.fixture(scope="module")
def phat():
    return load_structure("phat-ace")


def test_phat_ace_stack_and_bounty_match_seed(phat):
    assert phat.starting_chips == PHAT_CHIPS
    assert {d: phat.color(d) for d in PHAT_CHIPS} == PHAT_COLORS
    assert phat.bounty is not None and phat.bounty.chips == PHAT_BOUNTY
    assert phat.color(PHAT_BOUNTY) == "blue"


def test_phat_ace_rules_match_seed(phat):
    first = phat.blind_levels[0]
    assert (first.small_blind, first.big_blind) == PHAT_FIRST_BLINDS
    assert phat.heads_up_hand_limit == PHAT_HEADS_UP_HAND_LIMIT
    assert phat.raise_rule == "double"
    assert phat.late_registration.close_at_first_raise
    assert all(lv.big_blind == 2 * lv.small_blind for lv in phat.blind_levels)
    assert all(lv.hands is not None for lv in phat.blind_levels)


def test_phat_ace_color_ups_match_seed(phat):
    second = phat.blind_levels[1]  # the first raise
    assert second.color_up == (PHAT_FIRST_COLOR_UP,)
    sb, bb, white = PHAT_SECOND_COLOR_UP
    lv = next(lv for lv in phat.blind_levels if lv.small_blind == sb)
    assert lv.big_blind == bb and lv.color_up == (white,)


def test_phat_ace_blind_schedule_by_hand_matches_seed(phat):
    schedule = PHAT_SCHEDULE
    t = Tournament(phat, seed=5)
    for seat in (1, 2, 3):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    small_by_hand = {}
    now = 0.0
    for hand in range(1, schedule[-1][0] + 1):
        setup = t.next_hand(now)
        small_by_hand[hand] = setup.small_blind
        assert setup.big_blind == 2 * setup.small_blind
        play_hand(t, now, winner_seat=1 + hand % 3, loser_seat=1 + (hand + 1) % 3, amount=0)
        now += 60.0
    for hand, old, new in schedule:
        assert small_by_hand[hand - 1] == old, (hand, small_by_hand)
        assert small_by_hand[hand] == new, (hand, small_by_hand)


def test_phat_ace_no_entries_after_first_raise(phat):
    t = Tournament(phat, seed=5)
    t.register("A", 1)
    t.register("B", 2)
    t.start(0.0)
    t.register("C", 3, now=1.0)  # still the first level
    now = 0.0
    while t.blinds_for_next_hand(now)[0] == phat.blind_levels[0].small_blind:
        play_hand(t, now)
        now += 60
    with pytest.raises(RegistrationError, match="first blind raise"):
        t.register("D", 4, now=now)


# ----------------------------------------------------------------- seed 002: mini
def test_mini_matches_seed():
    s = load_structure("mini")
    assert all(lv.small_blind == 0 and lv.big_blind == 0 for lv in s.levels)
    assert all(lv.min_bet for lv in s.levels)
    q = s.qualifiers
    assert q is not None
    assert q.minutes == MINI_ROUND_MINUTES
    assert q.final_minutes == MINI_FINAL_MINUTES
    assert q.advance == MINI_ADVANCE
    assert q.rounds == MINI_ROUNDS


def test_level_tables_of_the_presets():
    g = load_structure("gunpowder")
    cu = next(lv for lv in g.levels if lv.color_up)
    assert (cu.small_blind, cu.big_blind, cu.color_up) == (500, 1000, (100,))
    p = load_structure("phat-ace")
    assert [lv.small_blind for lv in p.blind_levels] == [
        500, 1000, 2000, 3000, 5000, 10000, 15000, 25000, 50000]
    assert [lv.color_up for lv in p.blind_levels if lv.color_up] == [(500,), (1000,)]
    assert p.blind_levels[4].big_blind == 10000 and p.late_registration.last_level == 1
