"""What a table is set up with: :class:`TableSettings` (from the table's config file).

>>> s = TableSettings(players={1: "Ann", 2: "Bob"}, seed=3)
>>> TableSettings.from_dict(s.to_dict()) == s
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.dealing.irregularities import HouseProfile, make_profile


@dataclass(frozen=True)
class TableSettings:
    """What a table is set up with (from the table's config file).

    Attributes:
        players: seat (1..10) -> name of the players seated at the start.
        structure: a preset name (``gunpowder``, ``phat-ace``, ``mini``) or a file path.
        profile: the house profile for dealing rulings (``tda2024``, ``rrop``,
            ``gunpowder``, ``mini``).
        house_rules: knobs overriding the profile one by one (``{"one_extra_card":
            "burn"}``; docs/irregularities.md).
        seed: seeds the bounty, the bonus wheel, the first button and scramble picks.
        deck_seed: the registered test deck's seed (a venue registers its real decks).
        layout: TV layout ``clock`` | ``table`` | ``split``.
        name: the table's name.
        new_player: a new player seated between the button and the small blind is dealt
            in once the button has passed (``button_passes``, the standard rule) or
            ``at_once`` (engine.table.positions.waiting_seats).
        heads_up: who posts the small blind when play becomes heads-up: ``button`` (TDA
            34) or ``high_card`` (seed 003; engine.table.positions.next_positions).
        venue_table: 0 for a table of its own; N > 0: table N of a venue, whose director
            (broker user ``venue_director``) seats the players and says when to deal
            (engine.table.venue).
    """

    players: Mapping[int, str]
    structure: str = "gunpowder"
    profile: str = "tda2024"
    seed: int = 0
    deck_seed: int = 0
    layout: str = "split"
    name: str = "table"
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] = ()  # the seats in use (1-based); () = those of ``players``
    new_player: str = "button_passes"
    heads_up: str = "button"
    venue_table: int = 0  # > 0: this table's number in a venue (engine.table.venue)
    venue_director: str = "director"  # the venue director's broker user name

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["players"] = {str(k): v for k, v in self.players.items()}
        d["seats"] = list(self.seats)
        d["house_rules"] = dict(self.house_rules)
        if not self.venue_table:  # a table of its own records what it always did
            del d["venue_table"], d["venue_director"]
        return d

    def house_profile(self) -> HouseProfile:
        """The :class:`engine.dealing.irregularities.HouseProfile`: ``profile`` with the
        ``house_rules`` knobs overriding it."""
        return make_profile(self.profile, **dict(self.house_rules))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableSettings:
        d = dict(d)
        d["players"] = {int(k): v for k, v in d["players"].items()}
        d["seats"] = tuple(d.get("seats", ()))
        return cls(**d)
