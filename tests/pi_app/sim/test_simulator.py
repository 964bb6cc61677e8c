"""Whole simulated tournaments through every layer: the presets play to a winner, with the
events their rule sheets promise (color-ups, late entries with deductions, bonus wheel,
bounty chip, hand-based levels, the heads-up hand limit)."""

from __future__ import annotations

import pytest

from engine.table.core import TableCore
from pi_app.sim.simulator import SimOptions, Simulation


def _play(tmp_path, **kw) -> tuple[dict, TableCore]:
    opts = SimOptions(until_winner=True, journal=str(tmp_path / "j.db"), **kw)
    sim = Simulation(opts)
    holder = {}
    original_close = sim.close

    def close():
        holder["core"] = TableCore.restore(sim.core.snapshot())
        original_close()

    sim.close = close  # type: ignore[method-assign]
    summary = sim.run()
    return summary, holder["core"]


def _check_winner(summary: dict, core: TableCore, players: int) -> None:
    assert core.finished
    assert len(summary["final_stacks"]) == 1
    (winner, chips), = summary["final_stacks"].items()
    assert summary["places"][winner] == 1
    assert sorted(summary["places"].values()) == list(range(1, players + 1))
    # every chip in play ended with the winner
    assert chips == core.tournament.stats(core.last_t).chips_in_play


def test_gunpowder_league_night_through_the_devices(tmp_path):
    summary, core = _play(tmp_path, preset="gunpowder", players=8, seed=1)
    _check_winner(summary, core, 8)
    tour = core.tournament
    late = [e for e in tour.entrants if e.level_number > 0]
    assert late, "the simulator seats late arrivals"
    for e in late:  # seed 000: minus 300, 900 or 1,800 in levels 1 to 3
        assert e.deduction == {1: 300, 2: 900, 3: 1800}[e.level_number]
    assert tour.colored_up, "the 100s were colored up at 500/1000"
    assert tour.wheel_spun_at is not None and tour.bonus_amount > 0
    assert summary["history_sha256"]


def test_phat_ace_with_bounty_hand_levels_and_heads_up_limit(tmp_path):
    summary, core = _play(tmp_path, preset="phat-ace", players=6, seed=2)
    _check_winner(summary, core, 6)
    tour = core.tournament
    assert any(e.bounty for e in tour.entrants), "the bounty chip went to a player"
    assert tour.colored_up, "the 500s are colored up at the first raise"
    assert tour.heads_up_hands is not None, "the heads-up limit started"
    assert tour.heads_up_hands <= tour.structure.heads_up_hand_limit + 1


def test_direct_and_device_runs_agree(tmp_path):
    """The mocked devices change nothing: buttons and shoe give the same game as events."""
    a = Simulation(SimOptions(preset="gunpowder", players=5, seed=4, hands=12,
                              journal=str(tmp_path / "a.db"))).run()
    b = Simulation(SimOptions(preset="gunpowder", players=5, seed=4, hands=12,
                              journal=str(tmp_path / "b.db"), backend="direct")).run()
    assert a == b
    assert a["hands_played"] == 12


def test_seeds_differ(tmp_path):
    a = Simulation(SimOptions(players=4, seed=1, hands=5, backend="direct",
                              journal=str(tmp_path / "a.db"))).run()
    b = Simulation(SimOptions(players=4, seed=2, hands=5, backend="direct",
                              journal=str(tmp_path / "b.db"))).run()
    assert a["history_sha256"] != b["history_sha256"]


@pytest.mark.parametrize("players", [1, 11])
def test_bad_player_count_is_a_clear_error(tmp_path, players):
    from pi_app.sim.simulator import SimError

    with pytest.raises(SimError, match="2..10"):
        Simulation(SimOptions(players=players, journal=str(tmp_path / "x.db")))



def test_desk_window_shows_the_tv_and_every_seat_display(tmp_path):
    """With a display, ``run`` shows the TV and the seat displays together in one window
    (drawn here on SDL's dummy driver, which has no screen)."""
    import pygame
    from PIL import Image

    from pi_app.sim.policy import next_step

    sim = Simulation(SimOptions(players=8, seed=1, hands=3, backend="direct", late=(),
                                journal=str(tmp_path / "j.db"), show_window=True,
                                screenshots=str(tmp_path / "shots")))
    desk = sim.screens.desk
    try:
        sim._settle()
        for _ in range(60):
            sim._perform(next_step(sim.core, seed=1, max_hands=3))
        path = tmp_path / "desk.png"
        desk.save_png(path)
    finally:
        sim.close()
    img = Image.open(path).convert("L")
    w, h = img.size
    assert (w, h) == (1280, 720 + desk.strip_h)
    tv_part = img.crop((0, 0, w, 720))
    strip = img.crop((0, 720, w, h))
    assert tv_part.getextrema()[1] > 200  # the TV frame is drawn (white clock digits)
    # each seat display appears in the strip: bright pixels in every cell
    cell = 128 * desk.SCALE + desk.GAP
    for i in range(8):
        x = desk.GAP + (i % desk.per_row) * cell
        y = desk.GAP + (i // desk.per_row) * (64 * desk.SCALE + 26) + 20
        box = strip.crop((x, y, x + 128 * desk.SCALE, y + 64 * desk.SCALE))
        assert box.getextrema()[1] > 200, f"seat {i + 1} display missing"
    assert sorted((tmp_path / "shots").glob("tv-*.png")), "the TV pictures are still written"
    assert not pygame.display.get_init()  # the window was closed cleanly


def test_paced_run_for_a_window_plays_the_same_game(tmp_path):
    """``run`` with a display paces the table second by second for a person watching; the
    game itself is the same as a flat-out run."""
    paced = Simulation(SimOptions(players=5, seed=4, hands=3, backend="direct", late=(),
                                  journal=str(tmp_path / "a.db"), show_window=True,
                                  speed=2000.0)).run()
    flat = Simulation(SimOptions(players=5, seed=4, hands=3, backend="direct", late=(),
                                 journal=str(tmp_path / "b.db"))).run()
    assert paced == flat and paced["hands_played"] == 3
