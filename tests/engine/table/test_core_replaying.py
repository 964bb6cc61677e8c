"""A table told it replays a journal (``TableCore.replaying``) leaves out the effects the
replay drops (the log line of each outcome, the clock's sounds, notices and log lines):
it makes a part of the live effects, in their order, with every hand history, and no log
line for a card, a seat key or a player action; and it ends as the live table:
the same refusals, the same snapshot, the same hand histories, over a simulated table's
real play with random inputs mixed in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.effects import HandHistory, LogLine
from engine.errors import PokerTableError
from engine.events import CardDrawn, PlayerAction, SeatButton
from engine.table.core import TableCore
from tests.engine.table.inputs import inputs, table_settings


def _in_order(part: list, whole: list) -> bool:
    rest = iter(whole)
    return all(any(e == w and type(e) is type(w) for w in rest) for e in part)


@settings(max_examples=8, deadline=None)
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 2**16),
       events=st.integers(30, 200))
def test_a_replaying_table_makes_only_the_hand_histories_and_ends_as_the_live_one(
        data, players, seed, events):
    table = table_settings(players, seed)
    live, quiet = TableCore.new(table), TableCore.new(table)
    quiet.replaying = True
    for ev in inputs(data, live, seed, events):
        try:
            want = live.apply(ev)
        except PokerTableError as exc:
            with pytest.raises(type(exc)):
                quiet.apply(ev)
            continue
        got = quiet.apply(ev)
        histories = [e for e in want if isinstance(e, HandHistory)]
        assert [e for e in got if isinstance(e, HandHistory)] == histories, ev
        assert [e.phh for e in got if isinstance(e, HandHistory)] == \
            [e.phh for e in histories]
        assert _in_order(got, want), ev
        if isinstance(ev, (CardDrawn, SeatButton, PlayerAction)):
            assert not any(isinstance(e, LogLine) for e in got), ev
    assert quiet.snapshot() == live.snapshot()


def test_the_order_check_tells_a_part_from_a_reordering() -> None:
    assert _in_order([1, 3], [1, 2, 3]) and not _in_order([3, 1], [1, 2, 3])
