"""Between two hands (engine/table/between_hands.py): the smallest chip, the color-up,
the hand's seed."""

from __future__ import annotations

from engine.effects import Alert
from engine.table.between_hands import color_up_if_due, hand_seed, smallest_chip
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament


def test_the_hand_seed_is_fixed_by_its_parts():
    assert hand_seed(5, 1) == hand_seed("5", "1")
    assert hand_seed(5, 1) != hand_seed(5, 2)
    assert 0 <= hand_seed(5, 1) < 2 ** 48


def test_no_color_up_due_at_the_start_and_the_smallest_chip_is_the_structure_s():
    tour = Tournament(load_structure("gunpowder"))
    tour.register("Ann", 1)
    chips = tour.clock.structure.denominations_in_play(tour.clock.index)
    assert smallest_chip(tour) == min(chips)
    assert color_up_if_due(tour) == []


def test_a_due_color_up_removes_the_chip_and_keeps_the_chips_in_play_exact():
    tour = Tournament(load_structure("gunpowder"))
    for seat, name in ((1, "Ann"), (2, "Bob")):
        tour.register(name, seat)
    level = next(lv for lv in tour.structure.levels if lv.color_up)
    tour.start(0.0)
    tour.jump_to_level(1.0, level.index)
    due = tour.color_up_due()
    assert due
    before = sum(tour.stacks().values())
    effects = color_up_if_due(tour)
    assert isinstance(effects[0], Alert) and effects[0].kind == "color_up"
    assert tour.color_up_due() == ()
    change = sum(tour.stacks().values()) - before
    assert effects[1].text.endswith(f"chips in play change by {change:+d}")
    assert min(due) not in tour.clock.structure.denominations_in_play(tour.clock.index)
