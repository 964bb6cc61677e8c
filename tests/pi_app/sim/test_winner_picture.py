"""The end of a simulated night: the TV's last picture is the winner screen, listed in
index.txt with the word "winner" (issue 15)."""

from __future__ import annotations

from pi_app.screens import render_frame
from pi_app.screens.theme import record_texts
from pi_app.sim.simulator import SimOptions, Simulation


def test_a_night_to_the_winner_writes_the_winner_screen(tmp_path):
    shots = tmp_path / "shots"
    sim = Simulation(SimOptions(players=2, seed=2, backend="direct", late=(), until_winner=True,
                                journal=str(tmp_path / "j.db"), screenshots=str(shots)))
    state = None
    original_close = sim.close

    def close():
        nonlocal state
        state = sim.core.screen_state()
        original_close()

    sim.close = close  # type: ignore[method-assign]
    summary = sim.run()
    lines = (shots / "index.txt").read_text(encoding="utf-8").splitlines()
    levels = [ln.split("\t", 1)[1] for ln in lines if "\tlevel change: " in ln]
    assert levels and levels[0].startswith("level change: level 1")
    assert not any("level-" in w or "break-after" in w for w in levels), levels
    winner = [ln for ln in lines if "winner" in ln]
    assert len(winner) == 1, lines
    name = winner[0].split("\t", 1)[0]
    assert (shots / name).is_file() and name.startswith("tv-")
    assert lines[-1] == winner[0] or all(not ln.startswith("tv-") for ln in
                                         lines[lines.index(winner[0]) + 1:])
    # the state at the end: one player left, the clock stopped, every place listed
    assert state is not None and state.room is not None and state.room.finished
    assert state.clock is not None and not state.clock.running
    places = [p.place for p in state.room.places]
    assert places == [1, 2]
    assert {str(p) for p in summary["places"].values()} == {"1", "2"}
    import pygame

    surf = pygame.Surface((1920, 1080))
    with record_texts() as drawn:
        render_frame(surf, state)
    texts = [t.text for t in drawn]
    assert "WINNER" in texts and state.room.places[0].name in texts
    from engine.tournament.structure_file import load_structure

    title = load_structure(sim.opts.preset).name  # the structure's display name
    assert title.upper() in texts
    assert not any(t.startswith("SIM-") for t in texts), texts
    assert not any(":" in t and t.replace(":", "").isdigit() for t in texts), \
        "no running clock on the winner screen"
