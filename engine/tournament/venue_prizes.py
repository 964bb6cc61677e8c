"""A venue's entries and prizes, by the single-table tournament's rules (pure).

* **Names** (:func:`check_entry_name`): as at one table (1..24 characters, no control or
  bidi characters, no space at either end), and no name entered twice, whatever its case
  (two "ann" at one venue could not be told apart on the TVs).
* **Late entries** (:func:`late_entry_chips`): open until the end of the structure's
  ``[late_registration] last_level``; the stack is the starting stack less the deduction of
  the level being played (``Structure.late_deduction``, as
  :meth:`engine.tournament.tournament.Tournament.register` takes it).
* **Prizes** (:func:`prize_pool`, :func:`payouts`, :func:`prizes`): the pool is every
  entry's buy-in (whole currency units), split by the structure's payout table for the
  number of entries (:func:`engine.tournament.report.payouts_for`, exact: the remainder
  to first place), and tied players share the places they cover
  (:func:`engine.tournament.payouts.share_places`), the remainder one unit each in name
  order (a venue has no single seat order).

>>> from engine.tournament.structure_file import load_structure
>>> s = load_structure("gunpowder")
>>> prize_pool(s, 13), payouts(s, 13)
(130, [(1, 65), (2, 39), (3, 26)])
>>> prizes(s, 13, {"Ann": 1, "Bo": 2, "Cy": 2, "Di": 4})
{'Ann': 65, 'Bo': 33, 'Cy': 32, 'Di': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.errors import IllegalActionError
from engine.text import check_name_text, name_key, shown
from engine.tournament.payouts import share_places
from engine.tournament.report import payouts_for
from engine.tournament.seating import MAX_NAME
from engine.tournament.structure import Structure

__all__ = ["EntryError", "check_entry_name", "late_entry_chips", "payouts", "prize_pool",
           "prizes", "results"]


class EntryError(IllegalActionError):
    """An entry the venue cannot take now (a name already entered, registration closed)."""


def check_entry_name(name: object, taken: Iterable[str]) -> str:
    """``name`` in NFC when it may enter: a safe name (as at one table) that no entered
    player has, compared by :func:`engine.text.name_key` (case, full-width forms and
    composed accents do not make another name).

    Raises:
        engine.text.UnsafeTextError: empty, longer than 24 characters, a control, bidi,
            format or blank filler character, a space at an end.
        EntryError: the name is already entered.
    """
    checked = check_name_text(name, "player name", max_len=MAX_NAME)
    key = name_key(checked)
    if any(key == name_key(t) for t in taken):
        raise EntryError(f"player {shown(checked)} is already entered")
    return checked


def late_entry_chips(structure: Structure, level_index: int) -> int:
    """The stack of a player entering during the blind level whose structure index is
    ``level_index``: the starting stack less that level's deduction.

    Raises:
        EntryError: late registration is closed at that level (or the structure has none).
    """
    level = next((lv for lv in structure.levels if lv.index == level_index), None)
    last = structure.late_registration.last_level
    if level is None or level.number > last:
        raise EntryError(f"registration closed at the end of level {last}" if last
                         else "this structure takes no late entries")
    return structure.starting_stack - structure.late_deduction(level.number)


def prize_pool(structure: Structure, entries: int) -> int:
    """Every entry's buy-in, in whole currency units."""
    return entries * structure.buy_in


def payouts(structure: Structure, entries: int) -> list[tuple[int, int]]:
    """(place, amount) for ``entries`` entries; empty when no bracket of the payout table
    fits."""
    return payouts_for(structure, entries, prize_pool(structure, entries))


def prizes(structure: Structure, entries: int, places: Mapping[str, int]) -> dict[str, int]:
    """player -> prize of every placed player (0 outside the money)."""
    groups: dict[int, list[str]] = {}
    for player, place in sorted(places.items()):
        groups.setdefault(place, []).append(player)
    return share_places(dict(payouts(structure, entries)), groups)


def results(structure: Structure, entries: int,
            places: Mapping[str, int]) -> list[tuple[int, str, int]]:
    """(place, player, prize) of every placed player, best place first, then by name."""
    won = prizes(structure, entries, places)
    return sorted((place, player, won[player]) for player, place in places.items())
