"""The example in docs/tournament.md is a valid structure; doctests of the new modules pass."""

from __future__ import annotations

import doctest
import importlib
import re

import pytest

from engine.tournament.structure_file import parse_structure
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import REPO, play_hand


def test_docs_full_example_is_valid_and_playable():
    text = (REPO / "docs" / "tournament.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1
    s = parse_structure(blocks[0], "docs/tournament.md")
    assert s.starting_stack == 5000
    assert [lv.hands for lv in s.levels if lv.hands] == [12]
    t = Tournament(s, seed=3)
    for seat in (1, 2, 3):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    play_hand(t, 0.0, winner_seat=1, loser_seat=2, amount=200)
    assert t.clock_view(60.0).big_blind == 50


@pytest.mark.parametrize("name", ["engine.tournament.points", "engine.tournament.color_up"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
