"""What the room's column beside the full clock says (pi_app.screens.room) and what the
table marks (pi_app.screens.table.chip_leader), from explicit views."""

from dataclasses import replace

import pygame

from engine.views import PlaceLine
from pi_app.screens import render_frame
from pi_app.screens.room import sections
from pi_app.screens.samples import CLOCK, ROOM, busiest_state
from pi_app.screens.table import chip_leader
from pi_app.screens.theme import record_texts


def _lines(room):
    return dict(sections(CLOCK, room))


def test_payouts_points_leader_bounty_late_entry_and_the_players_out():
    got = _lines(ROOM)
    assert got["PRIZE POOL $400"] == [("1st", "$260"), ("2nd", "$140")]
    assert got["LEAGUE POINTS"][0] == ("1st", "63.25")
    assert got["CHIP LEADER"] == [("Bob", "26,400")]
    assert got["BOUNTY CHIP"] == [("Carmen", "")]
    assert got["LATE ENTRY NOW"] == [("5,400 chips", "")]
    assert got["OUT"] == [("8th", "Hiroshi"), ("9th", "Ines"), ("10th", "Jean-Baptiste")]


def test_no_chip_leader_on_a_tie_and_no_late_entry_once_closed():
    room = replace(ROOM, stacks=(("Ann", 6300), ("Bob", 6300)), late_entry_stack=None,
                   bounty_holder="", eliminated=(PlaceLine(3, "Cy"),))
    got = _lines(room)
    assert "CHIP LEADER" not in got and "LATE ENTRY NOW" not in got
    assert "BOUNTY CHIP" not in got and got["OUT"] == [("3rd", "Cy")]


def test_the_clock_alone_still_says_the_prize_pool():
    assert list(_lines(None)) == ["PRIZE POOL 400", "CHIPS IN PLAY"]


def test_the_table_marks_the_chip_leader_and_the_bounty_holder():
    state = busiest_state()
    assert chip_leader(state.table) == 5  # Eve: 19,600 and no bet ties her
    surf = pygame.Surface((1920, 1080))
    with record_texts() as drawn:
        render_frame(surf, replace(state, ruling=None))
    texts = [t.text for t in drawn]
    assert "CHIP LEADER" in texts and "BOUNTY" in texts


def test_a_cut_list_of_players_out_says_how_many_more():
    """Four players out are listed; the title of a longer list counts the rest."""
    gone = tuple(PlaceLine(p, f"Gone {p}") for p in range(4, 11))
    got = _lines(replace(ROOM, eliminated=gone))
    assert got["OUT   +3 more"] == [("4th", "Gone 4"), ("5th", "Gone 5"), ("6th", "Gone 6"),
                                    ("7th", "Gone 7")]
    assert "OUT" in _lines(replace(ROOM, eliminated=gone[:4]))
