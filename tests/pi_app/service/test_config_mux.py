"""A display on the multiplexer's parent bus at a muxed display's address (or the
multiplexer's) is refused, naming the key."""

from __future__ import annotations

import pytest

from engine.errors import PokerTableError
from pi_app.service.config import parse_config
from tests.data_paths import REPO

ROOT = REPO


def test_display_on_the_mux_parent_bus_at_a_muxed_address_is_refused():
    text = ('[backends]\ndisplays = "real"\n[seats]\ncount = 2\n[displays]\n'
            'mux_parent_bus = 1\n1 = { mux_channel = 0, address = 0x3C }\n'
            '2 = { bus = 1, address = 0x3C }\n')
    with pytest.raises(PokerTableError, match=r"displays\.2\.bus"):
        parse_config(text, "x.toml", base_dir=ROOT)
    ok = text.replace("2 = { bus = 1, address = 0x3C }", "2 = { bus = 1, address = 0x3D }")
    assert parse_config(ok, "x.toml", base_dir=ROOT).displays[2].address == 0x3D
