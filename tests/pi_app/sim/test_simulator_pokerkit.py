"""The hand histories the table writes are standard PHH: PokerKit (the research engine, used
here only as an oracle) reads them and reaches the same finishing stacks, except where our
documented rules differ (docs/phh.md): a bonus in the pot, a pot split in chips of the
smallest denomination, a big blind posted short."""

from __future__ import annotations

import tomllib
import warnings

from pokerkit import HandHistory

from pi_app.sim.simulator import SimOptions, Simulation


def _differs_by_rule(h: dict) -> bool:
    blinds, stacks = h["blinds_or_straddles"], h["starting_stacks"]
    short_blind = any(0 < s < b for s, b in zip(stacks, blinds, strict=False))
    split = sum(1 for w in h["winnings"] if w) > 1
    return "_bonus" in h or short_blind or split


def test_histories_of_a_tournament_load_in_pokerkit(tmp_path):
    journal = tmp_path / "j.db"
    Simulation(SimOptions(players=8, seed=3, until_winner=True, backend="direct",
                          journal=str(journal))).run()
    files = sorted((tmp_path / "j-hands").glob("hand-*.phh"))
    assert len(files) > 40
    checked = runouts = 0
    for f in files:
        text = f.read_text()
        h = tomllib.loads(text)
        if _differs_by_rule(h):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(HandHistory.loads(text))
        assert states, f.name
        state = states[-1]
        assert list(state.stacks) == h["finishing_stacks"], f.name
        checked += 1
        acts = h["actions"]
        boards = [a for a in acts if a.startswith("d db")]
        assert all(len(a.split()[2]) in (6, 2) for a in boards), f.name  # one per street
        if boards and acts[-1].startswith("d db"):
            runouts += 1  # an all-in runout: the hands were shown before the last cards
    assert checked > 30
    assert runouts >= 1
