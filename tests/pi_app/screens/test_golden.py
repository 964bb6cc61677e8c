"""Golden images of every TV screen state (tests/data/screens/*.png).

Regenerate after an intended visual change with
``.venv/bin/python -m pi_app.screens.golden --update`` (or ``UPDATE_GOLDEN=1`` here),
then look at the pictures before committing them.
"""

import os

import pygame
import pytest

from pi_app.screens import golden
from pi_app.screens.golden import cases
from tests.data_paths import data

GOLDEN = data("screens")
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

REQUIRED = {
    "clock_running", "clock_paused", "clock_break", "clock_hands", "clock_color_up",
    "clock_blinds_up_next_hand", "wheel_mid_spin", "wheel_landed", "table_preflop",
    "table_side_pots", "table_showdown", "ruling_over_clock", "ruling_over_table",
    "offline_displays", "alarm", "split_preflop", "split_all_in_odds", "clock_registration",
    "season_between", "winner_gunpowder", "ruling_over_all_in_odds",
}


def test_catalogue_covers_every_required_state_and_both_resolutions():
    cs = cases()
    assert REQUIRED <= set(cs)
    assert {size for _state, size in cs.values()} == {(1920, 1080), (1280, 720)}


@pytest.mark.parametrize("name", sorted(cases()))
def test_screen_matches_golden(name):
    surf = golden.render(name)
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        golden.save(surf, path)
        pytest.skip(f"updated {path}")
    result = golden.compare(surf, path)
    assert result.ok, f"{name}: {result.reason} (see {path}; update with --update)"


def test_no_stale_golden_files():
    names = {p.stem for p in GOLDEN.glob("*.png")}
    assert names == set(cases()), "golden PNGs and the catalogue differ"


def test_compare_detects_a_real_change(tmp_path):
    surf = golden.render("clock_running")
    golden.save(surf, tmp_path / "a.png")
    assert golden.compare(surf, tmp_path / "a.png").ok
    # a changed time field (a few thousand pixels) must fail the comparison
    pygame.draw.rect(surf, (255, 255, 255), pygame.Rect(1190, 110, 200, 100))  # was dark
    bad = golden.compare(surf, tmp_path / "a.png")
    assert not bad.ok and bad.differing >= 200 * 100 * 0.9
    # a one-pixel rasterising wobble is tolerated
    surf2 = golden.render("clock_running")
    surf2.set_at((5, 5), (200, 200, 200))
    assert golden.compare(surf2, tmp_path / "a.png").ok
    assert not golden.compare(surf2, tmp_path / "missing.png").ok


def test_golden_cli_writes_every_case(tmp_path):
    assert golden.main(["--out", str(tmp_path)]) == 0
    assert {p.stem for p in tmp_path.glob("*.png")} == set(cases())
    assert golden.main(["--check", "--dir", str(tmp_path)]) == 0
