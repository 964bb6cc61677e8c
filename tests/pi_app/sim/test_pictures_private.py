"""Pictures of a simulated run: a seat display's pictures show that player's hole cards
(folded or not), so they are private files (0600) in a private folder (0700); the TV's
pictures are public and never show a card that was not face up.  (Issue: in ``make run``'s
hand 1 the seat 3 and seat 4 pictures, mode 0644, showed two folded players' cards.)"""

from __future__ import annotations

import stat
from pathlib import Path

from pi_app.sim.screenshots import ScreenRecorder
from pi_app.sim.simulator import SimOptions, Simulation
from tests.engine.table.test_core_secrets import _cards_on_screen, _secret_cards


def test_seat_pictures_are_private_and_tv_pictures_show_no_hidden_card(tmp_path: Path,
                                                                       monkeypatch) -> None:
    shots = tmp_path / "shots"
    saved: list[tuple[str, set, set]] = []
    sim_ref: list[Simulation] = []
    real_save = ScreenRecorder._save_tv

    def save_tv(self, what, words):  # the TV state a picture is made of, and the secrets then
        screen = self._screen_now
        saved.append((what, _cards_on_screen(screen), _secret_cards(sim_ref[0].core)))
        real_save(self, what, words)

    real_on_screen = ScreenRecorder.on_screen

    def on_screen(self, state):
        self._screen_now = state
        real_on_screen(self, state)

    monkeypatch.setattr(ScreenRecorder, "_save_tv", save_tv)
    monkeypatch.setattr(ScreenRecorder, "on_screen", on_screen)
    sim = Simulation(SimOptions(preset="gunpowder", players=6, seed=5, hands=8,
                                backend="direct", screenshots=str(shots)))
    sim_ref.append(sim)
    sim.run()
    seats = shots / "seats"
    pictures = sorted(seats.glob("hand-*-seat-*.png"))
    assert pictures, "seat pictures at the showdowns"
    assert stat.S_IMODE(seats.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in pictures} == {0o600}
    assert not list(shots.glob("hand-*.png"))  # none left in the public folder
    index = (shots / "index.txt").read_text(encoding="utf-8")
    assert f"seats/{pictures[0].name}\t" in index
    assert saved and sorted(shots.glob("tv-*.png"))
    for what, on_screen_cards, secret in saved:
        assert not on_screen_cards & secret, what
