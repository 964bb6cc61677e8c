"""Presets name the house profile they come with; a config or a simulation that names none
uses it (issue: the league's own misdeal window without editing the config)."""

from __future__ import annotations

import pytest

from engine.tournament.structure import StructureError
from engine.tournament.structure_file import load_structure, parse_structure
from pi_app.service.config import parse_config
from pi_app.sim.simulator import SimOptions, settings_for
from tests.data_paths import REPO

ROOT = REPO


@pytest.mark.parametrize("preset,profile", [("gunpowder", "gunpowder"), ("mini", "mini"),
                                            ("phat-ace", "tda2024")])
def test_each_preset_names_its_profile(preset, profile):
    assert load_structure(preset).house_profile == profile


def test_unknown_profile_in_a_structure_is_refused():
    text = (ROOT / "engine/tournament/presets/gunpowder.toml").read_text()
    text = text.replace('house_profile = "gunpowder"', 'house_profile = "casino"')
    with pytest.raises(StructureError, match="house_profile"):
        parse_structure(text, "x.toml")


def test_config_without_a_profile_uses_the_structures():
    cfg = parse_config('[tournament]\nstructure = "gunpowder"\n', base_dir=ROOT)
    assert cfg.house_profile == "gunpowder"
    cfg = parse_config('[tournament]\nstructure = "gunpowder"\nhouse_profile = "rrop"\n',
                       base_dir=ROOT)
    assert cfg.house_profile == "rrop"


def test_example_config_and_simulation_use_the_league_profile():
    text = (ROOT / "config/example-table.toml").read_text()
    assert 'house_profile = "gunpowder"' in text
    assert settings_for(SimOptions(preset="gunpowder", players=6)).profile == "gunpowder"
