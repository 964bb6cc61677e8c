"""A tournament's snapshot for the journal: a JSON-able dict of every field, and its restore.
Functions of a :class:`engine.tournament.tournament.Tournament`, which delegates to them
(pure: ``now`` is monotonic float seconds passed in).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engine.tournament.clock import Clock, SnapshotError
from engine.tournament.entrant import Entrant
from engine.tournament.hands import NextHand
from engine.tournament.structure import Structure

#: the scalar (and list) fields written as they are
FIELDS = ("seed", "name", "round", "round_over", "hands_played", "hand_seconds_total",
          "hand_started_at", "bonus_hand", "bonus_amount", "pending_bonus",
          "wheel_spun_at", "heads_up_hands", "sudden_death", "colored_up", "finished",
          "notices")
_ENTRANT_FIELDS = tuple(f.name for f in dataclasses.fields(Entrant))


class Tournament(Protocol):
    """What these functions read and change of a
    :class:`engine.tournament.tournament.Tournament` (named here, not imported, so that
    the two modules import in one direction only)."""

    structure: Structure
    clock: Clock
    entrants: list[Entrant]
    colored_up: list[int]
    notices: list[str]
    hand_start_chips: dict[int, int]
    current: NextHand | None

    def _round_structure(self) -> Structure: ...


_T = TypeVar("_T", bound=Tournament)


def to_dict(tour: Tournament, now: float) -> dict[str, Any]:
    """JSON-able snapshot at ``now`` (for the journal)."""
    d: dict[str, Any] = {k: getattr(tour, k) for k in FIELDS}
    d["colored_up"] = list(tour.colored_up)  # copies: a snapshot must not change later
    d["notices"] = list(tour.notices)
    # every field of an entry is a scalar: a plain dict, not dataclasses.asdict's deep copy
    d["entrants"] = [{k: getattr(e, k) for k in _ENTRANT_FIELDS} for e in tour.entrants]
    d["hand_start_chips"] = {str(k): v for k, v in tour.hand_start_chips.items()}
    d["current"] = None if tour.current is None else dataclasses.asdict(tour.current)
    d["clock"] = tour.clock.to_dict(now)
    d["structure"] = tour.structure.name
    return d


def from_dict(make: Callable[..., _T], d: dict[str, Any], structure: Structure, *,
              now: float, policy: str = "paused", offline_seconds: float | None = None) -> _T:
    """The tournament ``make(structure, seed=, name=)`` set to the snapshot ``d`` taken of
    ``structure`` (see :meth:`engine.tournament.clock.Clock.from_dict` for the policy).
    Raises SnapshotError for a snapshot of another structure or a malformed one."""
    try:
        if d["structure"] != structure.name:
            raise SnapshotError(f"snapshot of {d['structure']!r} does not fit "
                                f"{structure.name!r}")
        t = make(structure, seed=d["seed"], name=d["name"])
        for k in FIELDS:
            setattr(t, k, d[k])
        t.colored_up = list(d["colored_up"])
        t.notices = list(d["notices"])
        t.entrants = [Entrant(**e) for e in d["entrants"]]
        t.hand_start_chips = {int(k): v for k, v in d["hand_start_chips"].items()}
        t.current = None if d["current"] is None else NextHand(**d["current"])
        t.clock = Clock.from_dict(d["clock"], t._round_structure(), now=now, policy=policy,
                                  offline_seconds=offline_seconds)
    except (KeyError, TypeError) as exc:
        raise SnapshotError(f"malformed tournament snapshot: {exc}") from None
    return t
