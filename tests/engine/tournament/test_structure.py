"""Structure files: broken ones rejected with clear reasons; the CLI show/check commands."""

from __future__ import annotations

import json

import pytest

from engine.errors import InvalidInputError, PokerTableError
from engine.tournament.structure import StructureError
from engine.tournament.structure_file import load_structure, parse_structure
from pi_app.cli.main import main
from tests.engine.tournament.helpers import DATA

# file -> (where, words that must appear in the reason)
BROKEN = {
    "bb_smaller_than_sb.toml": ("level 2", "big blind 100 is smaller than the small blind 200"),
    "blind_not_makeable.toml": ("level 2", "small blind 60 cannot be made from the chips"),
    "color_up_still_needed.toml": ("level 2", "color-up of 25 but the small blind 75 still"),
    "minutes_and_hands.toml": ("level 1", "exactly one of minutes or hands"),
    "no_duration.toml": ("level 1", "exactly one of minutes or hands"),
    "late_beyond_levels.toml": ("[late_registration]", "last_level 4 is beyond"),
    "deduction_after_close.toml": ("level 2", "late registration ends after level 1"),
    "unknown_key.toml": ("level 1", "unknown key 'colour_up'"),
    "unsafe_formula.toml": ("[points]", "is not allowed"),
    "break_in_hands.toml": ("break after level 1", "not hands"),
    "payouts_not_100.toml": ("payout bracket 1", "add up to 90, not 100"),
    "starting_not_in_set.toml": ("[chips.starting]", "denomination 1000 is not in the chip set"),
    "not_toml.toml": ("", "not valid TOML"),
    "no_blinds_no_min_bet.toml": ("level 1", "needs a min_bet"),
    "wheel_odd_segment.toml": ("[bonus_wheel]", "segments [30, 7] cannot be paid"),
    "nul_in_chip_color.toml": ("chip 1", "color must not hold a control character U+0000"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_file_rejected_naming_file_level_problem(name):
    where, words = BROKEN[name]
    path = DATA / name
    with pytest.raises(StructureError) as info:
        load_structure(path)
    err = info.value
    assert isinstance(err, PokerTableError) and isinstance(err, ValueError)
    assert isinstance(err, InvalidInputError)
    match = [p for p in err.problems if words in p]
    assert match, err.problems
    assert match[0].startswith(f"{path}: {where}")


def test_every_broken_file_is_in_the_table():
    files = {p.name for p in DATA.glob("*.toml")} - {"valid_mixed.toml", "seed004_chip_set.toml"}
    assert files == set(BROKEN)


def test_all_problems_reported_at_once():
    text = (DATA / "bb_smaller_than_sb.toml").read_text() + "\n[bounty]\nchips = 30\n"
    with pytest.raises(StructureError) as info:
        parse_structure(text, "two.toml")
    assert len(info.value.problems) == 2
    assert any("bounty of 30 cannot be made" in p for p in info.value.problems)


def test_valid_mixed_structure_loads():
    s = load_structure(str(DATA / "valid_mixed.toml"))
    assert s.starting_stack == 25 * 8 + 100 * 8 + 500 * 2
    assert [lv.is_break for lv in s.levels] == [False, False, True, False, False]
    assert s.levels[1].hands == 3 and s.levels[0].minutes == 2
    assert s.levels[2].color_up == (25,) and s.denominations_in_play(2) == (100, 500)
    assert s.levels[3].big_blind_ante == 200
    assert s.late_deduction(2) == 225 and s.late_deduction(3) == 0


def test_unknown_preset_names_the_presets():
    with pytest.raises(StructureError, match="gunpowder"):
        load_structure("no-such-preset")


def test_cli_show_json_keys(capsys):
    assert main(["structure", "show", "gunpowder", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["starting_stack"] == 6300
    assert data["starting_chips"] == {"100": 13, "500": 4, "1000": 3}
    assert data["late_registration"] == {"last_level": 3,
                                         "deduction_by_level": {"1": 300, "2": 900, "3": 1800}}
    assert data["heads_up_hand_limit"] is None
    for lv in data["levels"]:
        keys = set(lv)
        assert keys in ({"small_blind", "big_blind", "ante", "big_blind_ante", "minutes",
                         "break", "color_up", "min_bet"},
                        {"small_blind", "big_blind", "ante", "big_blind_ante", "hands",
                         "break", "color_up", "min_bet"})
    assert [lv["color_up"] for lv in data["levels"] if lv["color_up"]] == [[100]]


def test_cli_show_phat_ace_hands_and_limit(capsys):
    assert main(["structure", "show", "phat-ace", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["heads_up_hand_limit"] == 7
    assert all("hands" in lv for lv in data["levels"])
    assert main(["structure", "show", "phat-ace"]) == 0
    out = capsys.readouterr().out
    assert "500/1000" in out and "3 hands" in out and "Bounty chip: 5000" in out


def test_cli_check_exit_codes(capsys):
    assert main(["structure", "check", str(DATA / "valid_mixed.toml")]) == 0
    assert "valid" in capsys.readouterr().out
    assert main(["structure", "check", str(DATA / "color_up_still_needed.toml")]) == 2
    err = capsys.readouterr().err
    assert "level 2: color-up of 25" in err and "invalid (2 problems)" in err
    assert "Traceback" not in err


def test_cli_show_bad_file_is_one_line_exit_2(capsys):
    assert main(["structure", "show", str(DATA / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err
