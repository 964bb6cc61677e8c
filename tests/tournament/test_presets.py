"""The shipped presets against the venues' own rule sheets (numbers parsed from the seeds)."""

from __future__ import annotations

import re

import pytest

from engine.tournament.color_up import round_up
from engine.tournament.structure import load_structure, preset_names
from engine.tournament.tournament import RegistrationError, Tournament
from tests.tournament.helpers import find, number, play_hand, seed_text


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
    text = seed_text("000")
    stack = number(find(r"starting stack is ([\d,]+) chips", text).group(1))
    chips = {int(d): int(n) for n, d in re.findall(r"(\d+) x (\d+) Chips", text)}
    assert chips, "no chip lines found in seed 000"
    assert gunpowder.starting_chips == chips
    assert gunpowder.starting_stack == stack == sum(d * n for d, n in chips.items())


def test_gunpowder_blinds_and_level_length_match_seed(gunpowder):
    text = seed_text("000")
    m = find(r"Blinds start at (\d+) chips for small blind, and (\d+) chips for big blind", text)
    first = gunpowder.blind_levels[0]
    assert (first.small_blind, first.big_blind) == (number(m.group(1)), number(m.group(2)))
    minutes = number(find(r"Blind levels are typically (\d+) minutes long", text).group(1))
    assert all(lv.minutes == minutes for lv in gunpowder.blind_levels)


def test_gunpowder_color_up_level_and_example_match_seed(gunpowder):
    text = seed_text("000")
    m = find(r"Once the blinds are ([\d,]+) & ([\d,]+)", text)
    sb, bb = number(m.group(1)), number(m.group(2))
    colored = [lv for lv in gunpowder.levels if lv.color_up]
    assert colored, "the preset has no color-up"
    first = colored[0]
    assert (first.small_blind, first.big_blind) == (sb, bb)
    lowest = min(gunpowder.starting_chips)
    assert first.color_up == (lowest,)  # "the lowest value chips"
    remaining = gunpowder.denominations_in_play(first.index)
    # "five 100 chips will be converted into one 500 chip"
    m = find(r"(\w+) (\d+) chips will be converted into one (\d+) chip", text)
    count, denom, into = number(m.group(1)), int(m.group(2)), int(m.group(3))
    r = round_up({1: {denom: count}}, first.color_up, remaining)
    assert r.seats[0].new_chips == {into: 1} and r.change_in_play == 0
    # "say 600 chips, this will be rounded up to the next chip amount, in this case 1,000"
    m = find(r"say ([\d,]+) chips, this will be rounded up to the next chip amount, "
             r"in this case ([\d,]+)", text)
    before, after = number(m.group(1)), number(m.group(2))
    r = round_up({4: {lowest: before // lowest}}, first.color_up, remaining)
    assert r.seats[0].removed_value == before
    assert r.seats[0].new_value == after
    assert r.change_in_play == after - before
    assert gunpowder.color_up_rule == "round_up"


def test_gunpowder_late_registration_matches_seed(gunpowder):
    text = seed_text("000")
    last = number(find(r"before the end of the (\w+) level", text).group(1))
    deductions = {number(w): number(v)
                  for w, v in re.findall(r"(first|second|third) level\D*?([\d,]+) fewer", text)}
    assert len(deductions) == 3
    lr = gunpowder.late_registration
    assert lr.last_level == last
    assert lr.deduction_by_level == deductions


def test_gunpowder_late_entries_follow_seed_in_play(gunpowder):
    text = seed_text("000")
    deductions = {number(w): number(v)
                  for w, v in re.findall(r"(first|second|third) level\D*?([\d,]+) fewer", text)}
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
    text = seed_text("000")
    m = find(r'"(Party Pop)"', text)
    assert gunpowder.bonus_wheel is not None
    assert gunpowder.bonus_wheel.name == m.group(1)
    assert "next hand" in text and "pre-flop" in text  # the seed's bonus timing


def test_gunpowder_blinds_up_next_hand(gunpowder):
    text = seed_text("000")
    assert "Blinds up next hand" in text
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
    text = seed_text("003")
    m = find(r"(\d+) red (\d+) chips, (\d+) white (\d+) chips, & (\d+) blue (\d+) chips", text)
    g = [int(x) for x in m.groups()]
    expected = {g[1]: g[0], g[3]: g[2], g[5]: g[4]}
    assert phat.starting_chips == expected
    colors = {phat.color(d) for d in expected}
    assert colors == {"red", "white", "blue"}
    bounty = number(find(r"additional blue ([\d,]+) chip", text).group(1))
    assert phat.bounty is not None and phat.bounty.chips == bounty
    assert phat.color(bounty) == "blue"


def test_phat_ace_rules_match_seed(phat):
    text = seed_text("003")
    m = find(r"starts with ([\d,]+) for small blind, ([\d,]+) for big blind", text)
    first = phat.blind_levels[0]
    assert (first.small_blind, first.big_blind) == (number(m.group(1)), number(m.group(2)))
    limit = number(find(r"there will be a (\d+) hand limit", text).group(1))
    assert phat.heads_up_hand_limit == limit
    find(r"Every raise must be double", text)
    assert phat.raise_rule == "double"
    find(r"NO new players may enter", text)
    assert phat.late_registration.close_at_first_raise
    assert all(lv.big_blind == 2 * lv.small_blind for lv in phat.blind_levels)
    assert all(lv.hands is not None for lv in phat.blind_levels)


def test_phat_ace_color_ups_match_seed(phat):
    text = seed_text("003")
    m = find(r"ALL red ([\d,]+) chips are exchanged for white ([\d,]+)", text)
    red = number(m.group(1))
    second = phat.blind_levels[1]  # the first raise
    assert second.color_up == (red,)
    m = find(r"([\d,]+) for the small blind & ([\d,]+) for the Big Blind\. ALL white ([\d,]+) "
             r"chips are exchanged", text)
    sb, bb, white = (number(x) for x in m.groups())
    lv = next(lv for lv in phat.blind_levels if lv.small_blind == sb)
    assert lv.big_blind == bb and lv.color_up == (white,)


def test_phat_ace_blind_schedule_by_hand_matches_seed(phat):
    text = seed_text("003")
    schedule = [(int(h), number(a), number(b)) for h, a, b in
                re.findall(r"(\d+)(?:st|nd|rd|th) hand: ([\d,]+) to ([\d,]+)", text)]
    assert len(schedule) == 8
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
    text = seed_text("002")
    s = load_structure("mini")
    find(r"there will be no blind bets", text)
    assert all(lv.small_blind == 0 and lv.big_blind == 0 for lv in s.levels)
    assert all(lv.min_bet for lv in s.levels)
    minutes = number(find(r"limited to a period of (\d+) minutes each", text).group(1))
    hours = number(find(r"contested over a period of (\w+) hour", text).group(1))
    m = find(r"consist of the (\w+) best players from each of the previous (\d+) qualifying",
             text)
    q = s.qualifiers
    assert q is not None
    assert q.minutes == minutes
    assert q.final_minutes == hours * 60
    assert q.advance == number(m.group(1))
    assert q.rounds == number(m.group(2))


def test_presets_match_the_numbers_quoted_in_issue_3():
    """Runs even where the seed sheets are not available (CI): the numbers issue 3 quotes
    from the seeds."""
    g = load_structure("gunpowder")
    assert g.starting_stack == 6300 and g.starting_chips == {1000: 3, 500: 4, 100: 13}
    assert (g.levels[0].small_blind, g.levels[0].big_blind, g.levels[0].minutes) == (100, 200, 10)
    cu = next(lv for lv in g.levels if lv.color_up)
    assert (cu.small_blind, cu.big_blind, cu.color_up) == (500, 1000, (100,))
    assert g.late_registration.last_level == 3
    assert g.late_registration.deduction_by_level == {1: 300, 2: 900, 3: 1800}
    assert g.bonus_wheel is not None
    p = load_structure("phat-ace")
    assert p.starting_chips == {500: 4, 1000: 8, 5000: 2} and p.bounty.chips == 5000
    assert [lv.small_blind for lv in p.blind_levels] == [
        500, 1000, 2000, 3000, 5000, 10000, 15000, 25000, 50000]
    assert [lv.color_up for lv in p.blind_levels if lv.color_up] == [(500,), (1000,)]
    assert p.blind_levels[1].color_up == (500,) and p.blind_levels[4].big_blind == 10000
    assert p.heads_up_hand_limit == 7 and p.late_registration.last_level == 1
    m = load_structure("mini")
    assert m.qualifiers.rounds == 4 and m.qualifiers.minutes == 30
    assert m.qualifiers.advance == 2 and m.qualifiers.final_minutes == 60
