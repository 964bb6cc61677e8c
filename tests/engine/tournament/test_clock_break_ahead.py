"""What the structure's tables made once give: the seconds to the next break
(Structure.seconds_to_next_break) and the estimated end (Structure.entry_rows) are the
same floats as walking the entries one by one, for any mix of timed levels, hand-based
levels and breaks; the denominations in play are those no color-up so far removed."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.clock import Clock
from engine.tournament.report import DEFAULT_SECONDS_PER_HAND, END_BIG_BLINDS
from engine.tournament.structure import Level, Structure
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament

ENTRY = st.one_of(
    st.tuples(st.just("level"), st.floats(0.5, 90.0, allow_nan=False)),
    st.tuples(st.just("hands"), st.integers(1, 30)),
    st.tuples(st.just("break"), st.floats(1.0, 20.0, allow_nan=False)),
)


def _levels(entries: list[tuple[str, float]]) -> tuple[Level, ...]:
    out, number = [], 0
    for i, (kind, size) in enumerate(entries):
        if kind == "break":
            out.append(Level(index=i, number=number, minutes=size, is_break=True))
            continue
        number += 1
        timed = {"minutes": size} if kind == "level" else {"hands": int(size)}
        out.append(Level(index=i, number=number, small_blind=100 * number,
                         big_blind=200 * number, **timed))
    return tuple(out)


def _walked(clock: Clock, now: float) -> float | None:
    """The entries after the clock's walked one by one (the rule the table must keep)."""
    if clock.level.is_break:
        return 0.0
    total = clock.remaining(now)
    if total is None:
        return None
    for lv in clock.structure.levels[clock.index + 1:]:
        if lv.is_break:
            return total
        if lv.seconds is None:
            return None
        total += lv.seconds
    return None


def _structure(entries) -> Structure:
    """The gunpowder structure with ``entries`` as its levels (a first break made a level)."""
    first = entries[0] if entries[0][0] != "break" else ("level", 20.0)
    return dataclasses.replace(load_structure("gunpowder"),
                               levels=_levels([first, *entries[1:]]))


@settings(max_examples=100, deadline=None)
@given(entries=st.lists(ENTRY, min_size=1, max_size=12), data=st.data())
def test_the_table_gives_the_walked_seconds_to_the_break(entries, data):
    structure = _structure(entries)
    clock = Clock(structure)
    clock.start(0.0)
    index = data.draw(st.integers(0, len(structure.levels) - 1))
    clock.index = index
    now = data.draw(st.floats(0.0, 5000.0, allow_nan=False))
    assert clock.seconds_to_break(now) == _walked(clock, now)
    ahead = structure.seconds_to_next_break
    assert len(ahead) == len(structure.levels)


def test_a_break_ahead_behind_a_hand_based_level_is_not_timed():
    base = load_structure("gunpowder")
    levels = _levels([("level", 20.0), ("hands", 10), ("break", 10.0)])
    structure = dataclasses.replace(base, levels=levels)
    assert structure.seconds_to_next_break == (None, (), None)
    levels = _levels([("level", 20.0), ("level", 15.0), ("break", 10.0), ("level", 20.0)])
    structure = dataclasses.replace(base, levels=levels)
    assert structure.seconds_to_next_break == ((900.0,), (), None, None)


def _estimate_walked(t: Tournament, now: float) -> float | None:
    """The estimate's walk over the entries ahead, one Level at a time (the rule kept)."""
    clock = t.clock
    total = clock.remaining(now)
    if total is None:
        total = (clock.hands_remaining() or 0) * DEFAULT_SECONDS_PER_HAND
    chips = sum(t.stacks().values())
    if clock.playing_level().big_blind * END_BIG_BLINDS >= chips:
        return total
    for lv in clock.structure.levels[clock.index + 1:]:
        if not lv.is_break and lv.big_blind * END_BIG_BLINDS >= chips:
            return total
        total += lv.seconds if lv.seconds is not None else (lv.hands or 0) * \
            DEFAULT_SECONDS_PER_HAND
    return total


@settings(max_examples=100, deadline=None)
@given(entries=st.lists(ENTRY, min_size=1, max_size=30), data=st.data())
def test_the_end_estimate_reads_the_entries_ahead_as_a_walk_would(entries, data):
    structure = _structure(entries)
    t = Tournament(structure, seed=16)
    for seat in range(1, data.draw(st.integers(2, 6)) + 1):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    t.clock.index = data.draw(st.integers(0, len(structure.levels) - 1))
    now = data.draw(st.floats(0.0, 5000.0, allow_nan=False))
    assert t.estimated_seconds_to_end(now) == _estimate_walked(t, now)


@settings(max_examples=50, deadline=None)
@given(ups=st.lists(st.sampled_from([(), (25,), (100,), (25, 100), (500,)]), min_size=1,
                    max_size=15), index=st.integers(-20, 20))
def test_the_denominations_in_play_are_those_no_color_up_so_far_removed(ups, index):
    base = load_structure("gunpowder")
    levels = tuple(dataclasses.replace(lv, color_up=up)
                   for lv, up in zip(_levels([("level", 20.0)] * len(ups)), ups, strict=True))
    structure = dataclasses.replace(base, levels=levels)
    removed = {d for lv in levels[: index + 1] for d in lv.color_up}
    assert structure.denominations_in_play(index) == tuple(
        d for d in structure.denominations if d not in removed)
