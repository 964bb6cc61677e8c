"""The structure check asks whether the chips in play can make an amount, not whether the
smallest chip divides it (seed 004's 10/25/100/250 set was refused before)."""

from __future__ import annotations

import pytest

from engine.tournament.structure import StructureError
from engine.tournament.structure_check import can_make
from engine.tournament.structure_file import load_structure, parse_structure
from tests.data_paths import data

DATA = data("tournament")


def test_seed_004_chip_set_makes_its_blinds():
    s = load_structure(str(DATA / "seed004_chip_set.toml"))
    assert [lv.small_blind for lv in s.blind_levels] == [25, 35]


@pytest.mark.parametrize("amount,ok", [(25, True), (35, True), (15, False), (5, False),
                                       (45, True), (10**9 + 5, True)])
def test_can_make_with_10_25_100_250(amount, ok):
    assert can_make(amount, (10, 25, 100, 250)) is ok


def test_an_amount_the_chips_cannot_make_is_still_refused():
    text = (DATA / "seed004_chip_set.toml").read_text().replace("small_blind = 35",
                                                                "small_blind = 15")
    with pytest.raises(StructureError, match="small blind 15 cannot be made"):
        parse_structure(text, "x.toml")


@pytest.mark.parametrize("count", [1, 3])
def test_a_denomination_with_a_leading_zero_is_refused(count: int) -> None:
    """``1000 = 3`` and ``01000 = n`` would both name the 1,000 chip, the second winning."""
    text = (DATA / "seed004_chip_set.toml").read_text()
    start = text.index("[chips.starting]")
    first = text.index("\n", start) + 1
    text = text[:first] + f"0{text[first:].split(' ', 1)[0]} = {count}\n" + text[first:]
    with pytest.raises(StructureError, match="without leading zeros"):
        parse_structure(text, "x.toml")
