"""Color-up: exchanging a removed denomination for the chips still in play, per seat.

Two rules (``[chips] color_up_rule`` of a structure):

* ``"round_up"`` (seed 000): a seat's removed chips are exchanged at value, and a remainder
  that is not a whole smallest remaining chip is rounded *up* to the next remaining chip;
  600 in 100-chips becomes 1,000 once only 500s and 1,000s remain.  Chips in play grow by
  the rounding (reported exactly as ``change``).
* ``"chip_race"`` (Poker TDA chip-race procedure): whole chips are exchanged at value; the
  odd chips of all seats are pooled and converted into ``round(pool / m)`` chips of the
  smallest remaining denomination ``m`` (half rounds up: our choice); each seat with odd
  chips gets one card per odd chip, dealt from seat 1 clockwise; the highest cards (rank,
  then suit spades > hearts > diamonds > clubs) win one chip each, at most one per seat; a
  seat left with no chips at all gets one chip of ``m`` (nobody is raced out).

New chips are given with as few chips as possible (largest denominations first).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.cards import Card, Deck
from engine.errors import InvalidInputError

SUIT_ORDER = {"s": 3, "h": 2, "d": 1, "c": 0}


class ColorUpError(InvalidInputError):
    """Bad color-up input (unknown denomination, negative count)."""


@dataclass(frozen=True)
class SeatColorUp:
    """One seat's exchange.  ``removed``/``new_chips``: denomination -> count;
    ``change`` = ``new_value - removed_value`` (chips added to or taken out of play)."""

    seat: int
    removed: dict[int, int]
    removed_value: int
    new_chips: dict[int, int]
    new_value: int
    change: int
    race_cards: tuple[Card, ...] = ()
    won_race_chip: bool = False
    protected: bool = False


@dataclass(frozen=True)
class ColorUpResult:
    """All seats' exchanges; ``change_in_play`` is the sum of the seats' ``change``."""

    rule: str
    removed_denominations: tuple[int, ...]
    remaining_denominations: tuple[int, ...]
    seats: tuple[SeatColorUp, ...] = ()
    change_in_play: int = 0
    race_chips: int = 0
    notes: tuple[str, ...] = field(default=())

    def by_seat(self) -> dict[int, SeatColorUp]:
        return {s.seat: s for s in self.seats}


def make_chips(value: int, denominations: tuple[int, ...] | list[int]) -> dict[int, int]:
    """``value`` as few chips as possible from ``denominations`` (largest first).

    Raises ColorUpError when the value cannot be made exactly.

    >>> make_chips(1000, (500, 1000))
    {1000: 1}
    >>> make_chips(1500, (500, 1000))
    {1000: 1, 500: 1}
    """
    out: dict[int, int] = {}
    left = value
    for d in sorted(denominations, reverse=True):
        if left >= d:
            out[d], left = divmod(left, d)
    if left:
        raise ColorUpError(f"{value} cannot be made from {sorted(denominations)}")
    return out


def _normalise(removed_by_seat: Mapping[int, Mapping[int, int] | int],
               removed: tuple[int, ...]) -> dict[int, dict[int, int]]:
    """Accept ``{seat: {denomination: count}}`` or ``{seat: value}`` (value in the removed
    denominations, split largest first)."""
    out: dict[int, dict[int, int]] = {}
    for seat, chips in removed_by_seat.items():
        if isinstance(chips, int):
            if chips < 0:
                raise ColorUpError(f"seat {seat}: negative value {chips}")
            out[seat] = make_chips(chips, removed) if chips else {}
            continue
        d: dict[int, int] = {}
        for denom, count in chips.items():
            denom = int(denom)
            if denom not in removed:
                raise ColorUpError(f"seat {seat}: {denom} chips are not being colored up "
                                   f"(removed: {', '.join(map(str, removed))})")
            if not isinstance(count, int) or count < 0:
                raise ColorUpError(f"seat {seat}: bad count {count!r} of {denom} chips")
            if count:
                d[denom] = count
        out[seat] = d
    return out


def round_up(removed_by_seat: Mapping[int, Mapping[int, int] | int], removed: tuple[int, ...],
             remaining: tuple[int, ...]) -> ColorUpResult:
    """Seed-000 rule: each seat's removed value rounded up to a multiple of the smallest
    remaining denomination.

    >>> r = round_up({1: {100: 6}}, (100,), (500, 1000))
    >>> r.seats[0].new_value, r.seats[0].new_chips, r.change_in_play
    (1000, {1000: 1}, 400)
    """
    if not remaining:
        raise ColorUpError("no denomination would remain in play")
    m = min(remaining)
    seats = []
    for seat, chips in sorted(_normalise(removed_by_seat, removed).items()):
        value = sum(d * c for d, c in chips.items())
        new_value = -(-value // m) * m
        seats.append(SeatColorUp(seat, chips, value, make_chips(new_value, remaining),
                                 new_value, new_value - value))
    return ColorUpResult("round_up", tuple(removed), tuple(remaining), tuple(seats),
                         sum(s.change for s in seats))


def _card_key(card: Card) -> tuple[int, int]:
    return (card.rank_value, SUIT_ORDER[card.suit])


def chip_race(removed_by_seat: Mapping[int, Mapping[int, int] | int], removed: tuple[int, ...],
              remaining: tuple[int, ...], rng: random.Random,
              other_value_by_seat: Mapping[int, int] | None = None) -> ColorUpResult:
    """The chip race (module docstring).  ``rng`` shuffles the deck (seeded: reproducible);
    ``other_value_by_seat``: each seat's chips outside the removed denominations (to protect
    a seat from being raced out; missing seats count as 0)."""
    if not remaining:
        raise ColorUpError("no denomination would remain in play")
    m = min(remaining)
    smallest_removed = min(removed)
    norm = _normalise(removed_by_seat, removed)
    other = dict(other_value_by_seat or {})
    values = {s: sum(d * c for d, c in ch.items()) for s, ch in norm.items()}
    odd = {s: v % m for s, v in values.items()}
    pool = sum(odd.values())
    race_chips = (2 * pool + m) // (2 * m)  # nearest whole chip, half up
    deck = iter(Deck.shuffled(rng))
    cards: dict[int, tuple[Card, ...]] = {}
    needed = sum(-(-o // smallest_removed) for o in odd.values())
    if needed > 52:
        raise ColorUpError(f"a chip race needs {needed} cards; color up some seats by hand")
    for seat in sorted(odd):
        if odd[seat]:
            cards[seat] = tuple(next(deck) for _ in range(-(-odd[seat] // smallest_removed)))
    order = sorted(cards, key=lambda s: max(_card_key(c) for c in cards[s]), reverse=True)
    winners = set(order[:race_chips])
    seats = []
    for seat in sorted(norm):
        new_value = values[seat] - odd[seat] + (m if seat in winners else 0)
        protected = False
        if new_value == 0 and other.get(seat, 0) == 0 and values[seat] > 0:
            new_value, protected = m, True
        seats.append(SeatColorUp(seat, norm[seat], values[seat],
                                 make_chips(new_value, remaining), new_value,
                                 new_value - values[seat], cards.get(seat, ()),
                                 seat in winners, protected))
    return ColorUpResult("chip_race", tuple(removed), tuple(remaining), tuple(seats),
                         sum(s.change for s in seats), race_chips)


def color_up(rule: str, removed_by_seat: Mapping[int, Mapping[int, int] | int],
             removed: tuple[int, ...], remaining: tuple[int, ...], *,
             rng: random.Random | None = None,
             other_value_by_seat: Mapping[int, int] | None = None) -> ColorUpResult:
    """Dispatch on ``rule`` (``"round_up"`` or ``"chip_race"``)."""
    if rule == "round_up":
        return round_up(removed_by_seat, removed, remaining)
    if rule == "chip_race":
        return chip_race(removed_by_seat, removed, remaining, rng or random.Random(0),
                         other_value_by_seat)
    raise ColorUpError(f"unknown color-up rule {rule!r}")
