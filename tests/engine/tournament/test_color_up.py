"""Color-up per seat: the seed-000 round-up rule and the chip race."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalActionError
from engine.tournament.color_up import ColorUpError, chip_race, make_chips, round_up
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import DATA

REMAINING_000 = (500, 1000, 5000, 10000, 25000)


def test_seed_example_600_becomes_1000():
    r = round_up({3: {100: 6}}, (100,), REMAINING_000)
    seat = r.seats[0]
    assert (seat.removed_value, seat.new_value, seat.change) == (600, 1000, 400)
    assert seat.new_chips == {1000: 1}
    assert r.change_in_play == 400


@pytest.mark.parametrize("count", range(30))
def test_round_up_never_loses_chips_and_reports_change(count):
    r = round_up({1: {100: count}}, (100,), REMAINING_000)
    s = r.seats[0]
    assert s.new_value >= s.removed_value
    assert s.new_value - s.removed_value < 500  # never more than one chip's worth
    assert s.new_value % 500 == 0
    assert sum(d * n for d, n in s.new_chips.items()) == s.new_value
    assert r.change_in_play == s.change == s.new_value - s.removed_value


def test_values_or_counts_accepted_and_bad_input_rejected():
    assert round_up({1: 1300}, (100,), (500, 1000)).seats[0].new_value == 1500
    with pytest.raises(ColorUpError):
        round_up({1: {25: 3}}, (100,), (500,))
    with pytest.raises(ColorUpError):
        make_chips(750, (500, 1000))


def test_chip_race_conserves_whole_chips_and_reports_change():
    removed = {1: {25: 3}, 2: {25: 1}, 3: {25: 2}, 4: {25: 7}, 5: {25: 0}}
    r = chip_race(removed, (25,), (100, 500), random.Random(4),
                  other_value_by_seat={1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000})
    by = r.by_seat()
    odd_total = 75 + 25 + 50 + 75
    assert r.race_chips == (odd_total + 50) // 100  # nearest whole chip: 2
    assert sum(s.won_race_chip for s in r.seats) == r.race_chips
    for s in r.seats:
        whole = s.removed_value // 100 * 100
        assert s.new_value == whole + (100 if s.won_race_chip else 0)
        assert len(s.race_cards) == (s.removed_value % 100) // 25
    assert by[4].new_value in (100, 200)  # 175: one whole chip, maybe one from the race
    assert r.change_in_play == sum(s.new_value - s.removed_value for s in r.seats)
    # deterministic from the seed
    again = chip_race(removed, (25,), (100, 500), random.Random(4),
                      other_value_by_seat={1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000})
    assert again == r


def test_chip_race_nobody_raced_out():
    r = chip_race({1: {25: 1}, 2: {25: 3}}, (25,), (100,), random.Random(1),
                  other_value_by_seat={1: 0, 2: 0})
    by = r.by_seat()
    assert by[1].new_value >= 100 and by[2].new_value >= 100
    assert by[1].protected or by[1].won_race_chip


def test_tournament_color_up_changes_stacks_and_chips_in_play():
    s = load_structure("gunpowder")
    t = Tournament(s, seed=9)
    for seat in (1, 2, 3):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    with pytest.raises(IllegalActionError):
        t.color_up({1: {100: 6}})
    t.jump_to_level(10.0, 4)  # 500/1000: the 100s go
    assert t.color_up_due() == (100,)
    assert any("Color-up" in n for n in t.clock_view(10.0).notices)
    before = t.stacks()
    chips_before = t.stats(10.0).chips_in_play
    r = t.color_up({1: {100: 6}, 2: {100: 13}, 3: {100: 5}})
    after = t.stacks()
    assert after[1] - before[1] == 400  # 600 -> 1,000 (seed 000)
    assert after[2] - before[2] == 200  # 1,300 -> 1,500
    assert after[3] == before[3]  # 500 -> one 500 chip
    assert t.stats(10.0).chips_in_play == chips_before + r.change_in_play == chips_before + 600
    assert t.color_up_due() == ()
    with pytest.raises(IllegalActionError):
        t.color_up({1: {100: 1}})


def test_tournament_chip_race_structure_reproducible():
    s = load_structure(DATA / "valid_mixed.toml")

    def run():
        t = Tournament(s, seed=11)
        for seat in (1, 2, 3, 4):
            t.register(f"P{seat}", seat)
        t.start(0.0)
        t.jump_to_level(1.0, 2)
        return t.color_up({1: {25: 3}, 2: {25: 2}, 3: {25: 1}, 4: {25: 0}})

    a, b = run(), run()
    assert a == b and a.rule == "chip_race"
