"""Helpers for the tournament tests: their data folder and driving hands."""

from __future__ import annotations

from tests.data_paths import REPO, data

DATA = data("tournament")
__all__ = ["DATA", "REPO", "four_players", "gunpowder_text", "play_hand"]


def play_hand(t, now: float, winner_seat: int | None = None, amount: int = 0,
              loser_seat: int | None = None, duration: float = 30.0) -> list:
    """Start a hand at ``now``, move ``amount`` chips from ``loser_seat`` to ``winner_seat``
    (plus any bonus to the winner, or to the lowest seat) and finish it ``duration`` later."""
    setup = t.next_hand(now)
    alerts = t.hand_started(now)
    stacks = t.stacks()
    stacks = {s: c for s, c in stacks.items() if s in t.hand_start_chips}
    if winner_seat is not None and loser_seat is not None:
        moved = min(amount, stacks[loser_seat])
        stacks[loser_seat] -= moved
        stacks[winner_seat] += moved
    target = winner_seat if winner_seat is not None else min(stacks)
    stacks[target] += setup.bonus
    return alerts + t.hand_finished(now + duration, stacks)


def gunpowder_text() -> str:
    """The gunpowder preset's TOML text, for a test to change one table of it."""
    return (REPO / "engine/tournament/presets/gunpowder.toml").read_text()


def four_players(text: str):
    """A started tournament of ``text`` (structure TOML) with P1..P4 in seats 1..4."""
    from engine.tournament.structure_file import parse_structure
    from engine.tournament.tournament import Tournament

    t = Tournament(parse_structure(text, "four.toml"), seed=1)
    for seat in range(1, 5):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    return t



LEAGUE_NAMES = ("Ann", "Bob", "Carmen", "Dmitri", "Eve", "Farouk")


def league_night(preset: str, players: int, seed: int):
    """A tournament of the ``preset`` structure with the first ``players`` of
    :data:`LEAGUE_NAMES` registered in seats 1.., not started."""
    from engine.tournament.structure_file import load_structure
    from engine.tournament.tournament import Tournament

    t = Tournament(load_structure(preset), seed=seed)
    for seat, name in enumerate(LEAGUE_NAMES[:players], 1):
        t.register(name, seat)
    return t
