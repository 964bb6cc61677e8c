"""The room's view is reused while its inputs are equal (engine.tournament.room.room_view):
every change of an input gives a new view, equal to one made anew."""

from __future__ import annotations

import dataclasses

from engine.tournament.entrant import Entrant
from engine.tournament.room import build_room_view, room_key
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import league_night


def _t(preset: str, players: int) -> Tournament:
    return league_night(preset, players, seed=16)


def _fresh(t: Tournament) -> None:
    """The view ``t`` gives equals one made anew from ``t`` now."""
    assert t.room_view() == build_room_view(t)


def _other(value: object) -> object:
    """A value of the same kind as ``value`` and not equal to it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, int | float):
        return value + 7
    return 3  # None: an out order, a time, a knocker's id


def test_an_unchanged_tournament_gives_the_same_view_object():
    t = _t("gunpowder", 6)
    t.start(0.0)
    first = t.room_view()
    assert t.room_view() is first
    t.clock_view(30.0)  # a clock read changes nothing of the room
    assert t.room_view() is first


def test_every_field_of_an_entry_is_in_the_key():
    t = _t("phat-ace", 4)
    t.start(0.0)
    e = t.entrants[1]
    for f in dataclasses.fields(Entrant):
        before = room_key(t)
        old = getattr(e, f.name)
        new = _other(old)
        setattr(e, f.name, new)
        assert room_key(t) != before, f.name
        _fresh(t)
        setattr(e, f.name, old)
        assert room_key(t) == before, f.name


def test_each_change_of_a_night_gives_the_view_made_anew():
    t = _t("gunpowder", 5)
    views = [t.room_view()]
    _fresh(t)
    changes = [
        lambda: t.start(0.0),
        lambda: t.next_level(10.0),
        lambda: t.register("Farouk", 6, now=11.0),
        lambda: t.correct_stacks({s: c + (500 if s == 1 else 0) - (500 if s == 2 else 0)
                                  for s, c in t.stacks().items()}),
        lambda: t.eliminate(20.0, 3),
        lambda: t.next_level(30.0),
        lambda: t.next_level(40.0),  # late registration closes
        lambda: t.eliminate(50.0, 4),
        lambda: t.eliminate(60.0, 5),
        lambda: t.eliminate(70.0, 6),
        lambda: t.eliminate(80.0, 2),  # one player left: the end and every place
    ]
    for change in changes:
        change()
        _fresh(t)
        assert t.room_view() != views[-1]
        views.append(t.room_view())
    assert views[-1].finished and views[-1].places


def test_two_tournaments_keep_their_own_views():
    a, b = _t("gunpowder", 3), _t("gunpowder", 4)
    va, vb = a.room_view(), b.room_view()
    assert va != vb
    assert a.room_view() is va and b.room_view() is vb
