"""Screen states made by the engine itself, for the display bugs of issue 15 and the
winner screen: each golden picture of :mod:`pi_app.screens.golden` named ``bug_*`` or
``winner_*`` comes from a real :class:`engine.tournament.tournament.Tournament` driven here
(unlike :mod:`pi_app.screens.samples`, whose states are written out literally), so the
picture moves if the engine's view goes wrong again.

* ``bug_break_next_level``: on the gunpowder break, "THEN" and the NEXT LEVEL tile both
  give the level the break leads to (1,500 / 3,000);
* ``bug_phat_ace_end``: a phat-ace night decided by the 7-hand heads-up limit ends on the
  winner screen, with no "heads-up hand 8 of 7";
* ``bug_mini_before_registration``: the mini before anyone registers shows no "0 / 0";
* ``winner_gunpowder`` (1080p) and ``hd_winner_gunpowder`` (720p): the winner screen of a
  six-player league night with payouts and points.
"""

from __future__ import annotations

from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament
from engine.views import ScreenState

FULL_HD = (1920, 1080)
HD = (1280, 720)
NAMES = ("Ann", "Bob", "Carmen", "Dmitri", "Eve", "Farouk")


def _tournament(preset: str, players: int) -> Tournament:
    t = Tournament(load_structure(preset), seed=15)
    for seat, name in enumerate(NAMES[:players], 1):
        t.register(name, seat)
    return t


def _state(t: Tournament, now: float, layout: str = "clock") -> ScreenState:
    return ScreenState(clock=t.clock_view(now), layout=layout, now=now, room=t.room_view())


def break_state() -> ScreenState:
    """Gunpowder on its break (after 1,000 / 2,000; the next level is 1,500 / 3,000)."""
    t = _tournament("gunpowder", 6)
    t.start(0.0)
    index = next(lv.index for lv in t.structure.levels if lv.is_break)
    t.jump_to_level(10.0, index)
    return _state(t, 70.0)


def heads_up_end_state() -> ScreenState:
    """Phat-ace: four players out by the director, then seven heads-up hands with no chips
    moving; the shorter stack finishes second at the limit (seed 003)."""
    t = _tournament("phat-ace", 6)
    t.start(0.0)
    now = 1.0
    for seat in (5, 4, 3, 2):  # seat 6 holds the bounty chip: the stacks differ
        t.eliminate(now, seat)
        now += 1.0
    for _ in range(20):  # the first hand heads-up starts the count; seven more end it
        if t.finished:
            break
        t.hand_started(now)
        t.hand_finished(now + 30.0, t.stacks())
        now += 60.0
    return _state(t, now + 5.0, "split")


def mini_state() -> ScreenState:
    """The mini before anyone has registered."""
    t = Tournament(load_structure("mini"), seed=15)
    return _state(t, 0.0)


def winner_state() -> ScreenState:
    """A six-player gunpowder night: out in order 6, 5, 4, 3, 2; Ann wins."""
    t = _tournament("gunpowder", 6)
    t.start(0.0)
    now = 60.0
    for seat in (6, 5, 4, 3, 2):
        t.eliminate(now, seat)
        now += 60.0
    return _state(t, now + 5.0, "split")


def cases() -> dict[str, tuple[ScreenState, tuple[int, int]]]:
    """name -> (state, surface size), as :func:`pi_app.screens.samples.cases`."""
    winner = winner_state()
    return {
        "bug_break_next_level": (break_state(), FULL_HD),
        "bug_phat_ace_end": (heads_up_end_state(), FULL_HD),
        "bug_mini_before_registration": (mini_state(), FULL_HD),
        "winner_gunpowder": (winner, FULL_HD),
        "hd_winner_gunpowder": (winner, HD),
    }
