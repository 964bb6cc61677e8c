"""Run the doctests of the pure modules whose docstrings carry examples."""

import doctest
import importlib

import pytest

MODULES = ["engine.cards", "engine.events", "engine.evaluation", "engine.table.core", "engine.betting.pots",
           "engine.betting.forced_bets", "engine.betting.showdown", "engine.betting.hand_state",
           "engine.betting.equity", "engine.wording",
           "engine.table.positions", "engine.table.atomic", "engine.table.announce",
           "engine.table.between_hands", "engine.table.settings", "engine.table.venue_state", "pi_app.screens.cache",
           "pi_app.sim.bots"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no doctest examples"
    assert result.failed == 0
