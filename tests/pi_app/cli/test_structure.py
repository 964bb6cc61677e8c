"""HandConfig rejects a small blind above the big blind; ``structure show --json`` gives
``min_bet``, ``buy_in`` and ``raise_rule``; absurd level lengths are rejected."""

from __future__ import annotations

import json

import pytest

from engine.betting.hand import HandConfig
from engine.betting.hand_config import InvalidHandConfigError
from engine.tournament.structure import StructureError
from engine.tournament.structure_file import load_structure, parse_structure
from tests.data_paths import REPO, data
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

VALID = data("tournament", "valid_mixed.toml")


def test_small_blind_above_big_blind_is_rejected() -> None:
    with pytest.raises(InvalidHandConfigError, match="small_blind 30 is larger than big_blind 20"):
        HandConfig(stacks={1: 100, 2: 100}, button=1, small_blind=30, big_blind=20)


@pytest.mark.parametrize("sb, bb, min_bet", [(10, 20, None), (20, 20, None), (5, 0, None),
                                              (0, 0, 10)])
def test_allowed_blinds_still_accepted(sb, bb, min_bet) -> None:
    cfg = HandConfig(stacks={1: 100, 2: 100}, button=1, small_blind=sb, big_blind=bb,
                     min_bet=min_bet)
    assert cfg.effective_min_bet > 0


def _show_json(name: str, capsys) -> dict:
    rc, out, err = run_main(["structure", "show", name, "--json"], capsys)
    assert rc == 0, err
    return json.loads(out)


@pytest.mark.parametrize("name", ["gunpowder", "mini", str(VALID)])
def test_show_json_adds_min_bet_buy_in_raise_rule(name, capsys) -> None:
    s = load_structure(name)
    data = _show_json(name, capsys)
    base = s.to_json()
    assert data["buy_in"] == s.buy_in and data["raise_rule"] == s.raise_rule
    assert {k: v for k, v in data.items() if k not in ("buy_in", "raise_rule", "levels")} == \
        {k: v for k, v in base.items() if k != "levels"}
    for got, want, lv in zip(data["levels"], base["levels"], s.levels, strict=True):
        assert {k: v for k, v in got.items() if k != "min_bet"} == want
        if lv.is_break or lv.big_blind:
            assert got["min_bet"] is None
        else:
            assert got["min_bet"] == lv.min_bet and got["min_bet"] > 0


def test_mini_has_a_no_blind_level(capsys) -> None:
    data = _show_json("mini", capsys)
    assert any(lv["min_bet"] for lv in data["levels"])
    assert data["buy_in"] == 0 and data["raise_rule"] == "standard"


def _with_first_length(replacement: str) -> str:
    text = VALID.read_text()
    assert "minutes = 2" in text
    return text.replace("minutes = 2", replacement, 1)


@pytest.mark.parametrize("length, message", [
    ("minutes = 1e308", "level 1: minutes must be 1..1440"),
    ("minutes = 1441", "level 1: minutes must be 1..1440"),
    ("minutes = 0.5", "level 1: minutes must be 1..1440"),
    ("hands = 1001", "level 1: hands must be 1..1000"),
])
def test_absurd_level_length_is_rejected(length, message) -> None:
    with pytest.raises(StructureError) as info:
        parse_structure(_with_first_length(length), "s.toml")
    assert any(message in p for p in info.value.problems), info.value.problems


@pytest.mark.parametrize("length", ["minutes = 1440", "minutes = 1", "hands = 1000"])
def test_longest_level_is_accepted(length) -> None:
    s = parse_structure(_with_first_length(length), "s.toml")
    assert s.levels[0].minutes in (1440.0, 1.0) or s.levels[0].hands == 1000


def test_show_of_absurd_level_is_one_line(tmp_path, capsys) -> None:
    f = tmp_path / "s.toml"
    f.write_text(_with_first_length("minutes = 1e308"))
    rc, out, err = run_main(["structure", "show", str(f)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "minutes must be 1..1440")


def test_structure_show_json_gives_the_payouts_for_n_entrants(capsys):
    rc, out, err = run_main(["structure", "show", "gunpowder", "--json", "--entrants", "20"],
                            capsys)
    assert rc == 0, err
    d = json.loads(out)
    assert d["prize_pool"] == 20 * d["buy_in"]
    assert all(isinstance(a, int) for _, a in d["payouts"])
    assert sum(a for _, a in d["payouts"]) == d["prize_pool"]
    assert [k for k, _ in d["payouts"]] == list(range(1, len(d["payouts"]) + 1))


def test_structure_show_pays_the_issue_example_exactly(tmp_path, capsys):
    """10 entrants at a buy-in of 100: a pool of 1,000 at 45.2/32.3/22.5 % pays 452/323/225
    (float floor division paid 453/322/225)."""
    text = (REPO / "engine/tournament/presets/gunpowder.toml").read_text()
    text = text.replace("buy_in = 10 ", "buy_in = 100 ")
    text = (text[:text.index("[payouts]")] + "[payouts]\ntable = [\n  { min_entrants = 3, "
            "max_entrants = 40, percentages = [45.2, 32.3, 22.5] },\n]\n\n"
            + text[text.index("[points]"):])
    f = tmp_path / "exact.toml"
    f.write_text(text)
    rc, out, err = run_main(["structure", "show", str(f), "--entrants", "10", "--json"], capsys)
    assert rc == 0, err
    d = json.loads(out)
    assert d["prize_pool"] == 1000
    assert d["payouts"] == [[1, 452], [2, 323], [3, 225]]


def test_structure_show_refuses_a_bad_entrant_count_in_one_line(capsys):
    rc, out, err = run_main(["structure", "show", "gunpowder", "--json", "--entrants", "0"],
                            capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "--entrants must be 1..100000")
