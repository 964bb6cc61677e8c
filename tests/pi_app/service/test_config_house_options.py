"""The table config's house options reach the table's settings; a bad value names its key."""

from __future__ import annotations

import pytest

from engine.errors import PokerTableError
from pi_app.service.config import parse_config
from tests.data_paths import REPO

ROOT = REPO


def test_house_options_default_and_set():
    cfg = parse_config("[tournament]\nstructure = \"gunpowder\"\n", base_dir=ROOT)
    s = cfg.table_settings()
    assert (s.new_player, s.heads_up) == ("button_passes", "button")
    cfg = parse_config('[tournament]\nstructure = "gunpowder"\nnew_player = "at_once"\n'
                       'heads_up_small_blind = "high_card"\n', base_dir=ROOT)
    s = cfg.table_settings()
    assert (s.new_player, s.heads_up) == ("at_once", "high_card")


@pytest.mark.parametrize("key", ["new_player", "heads_up_small_blind"])
def test_a_bad_house_option_names_its_key(key):
    with pytest.raises(PokerTableError, match=f"tournament.{key}"):
        parse_config(f'[tournament]\nstructure = "gunpowder"\n{key} = "sometimes"\n',
                     base_dir=ROOT)
