"""The console commands' shared checks: a seat is one of this table's seats (its own range
in the refusal), and "between hands" is one predicate (a hand being played, or a void hand
waiting to be dealt again, is not between hands)."""

from __future__ import annotations

import pytest

from engine.events import DealerButton
from engine.table.console_args import (
    between_hands,
    hand_refusal,
    need_between_hands,
    seat_number,
    table_seats,
)
from engine.table.console_base import ConsoleCommandError, ConsoleRefused
from engine.table.core import TableCore, TableSettings
from tests.pi_app.console.test_engine_commands import Night


@pytest.mark.parametrize("seats,value,words", [
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), 10, "no seat 10 at this 9-seat table (seats 1..9)"),
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), 0, "no seat 0 at this 9-seat table (seats 1..9)"),
    ((5, 1, 3), 2, "no seat 2 at this 3-seat table (seats 1, 3, 5)"),
    ((), 11, "no seat 11 at this 10-seat table (seats 1..10)"),
    ((1, 2), True, "seat must be a whole number"),
    ((1, 2), "1", "seat must be a whole number"),
])
def test_a_seat_is_one_of_this_tables(seats, value, words):
    core = TableCore.new(TableSettings(players={}, seats=seats))
    with pytest.raises(ConsoleCommandError, match=words.replace("(", r"\(").replace(")", r"\)")):
        seat_number(core, value)
    assert seat_number(core, table_seats(core)[-1]) == table_seats(core)[-1]


def test_between_hands_is_false_during_a_hand_and_until_a_void_hand_is_dealt_again():
    n = Night()
    n.seated()
    n.ok("start")
    assert between_hands(n.core) and hand_refusal(n.core) is None
    need_between_hands(n.core)
    n.deal()
    assert hand_refusal(n.core) == "finish the hand first" and not between_hands(n.core)
    n.t += 1.0
    n.core.apply(DealerButton(t=n.t, button="misdeal"))
    assert n.core.proc.stopped  # play stopped: the hand is void
    assert "dealt again" in (hand_refusal(n.core) or "") and not between_hands(n.core)
    with pytest.raises(ConsoleRefused, match="TDA 35-C"):
        need_between_hands(n.core)
