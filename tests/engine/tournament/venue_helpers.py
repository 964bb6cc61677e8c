"""Helpers for the venue seating tests: play hand boundaries at the tables and check the
invariants every step must keep.  The button and blinds come from the table's own
dead-button rule (engine/table/positions.py), so balancing is checked against the rule the
tables deal by, not against the seating module's reading of it."""

from __future__ import annotations

import random

from engine.table.positions import Positions, next_positions
from engine.tournament.breaking import hand_finished, hand_started
from engine.tournament.seating import Move, TableSeats, VenueSeating


def table_positions(table: TableSeats) -> Positions:
    """The table's latest positions as the table module's value."""
    pos = table.positions
    return Positions() if pos is None else Positions(pos.button, pos.small_blind,
                                                      pos.big_blind)


def start_hand(state: VenueSeating, number: int, rng: random.Random) -> VenueSeating:
    """Table ``number`` starts its next hand at the positions the table would deal."""
    table = state.table(number)
    pos = next_positions(table_positions(table), sorted(table.players), rng)
    assert pos.button is not None and pos.small_blind is not None and pos.big_blind
    return hand_started(state, number, pos.button, pos.small_blind, pos.big_blind)


def play_boundary(state: VenueSeating, number: int, busts: int,
                  rng: random.Random) -> tuple[VenueSeating, list[Move]]:
    """Table ``number`` plays one hand in which ``busts`` of its players (at most all but
    one, chosen by ``rng``) are eliminated."""
    state = start_hand(state, number, rng)
    players = sorted(state.table(number).players.values())
    busted = rng.sample(players, min(busts, len(players) - 1))
    return hand_finished(state, number, busted, rng)


def playable(state: VenueSeating) -> list[int]:
    """Tables that can deal a hand now: open, not held, two players or more."""
    return [t.number for t in state.open_tables() if not t.held and t.count >= 2]


def between(button: int, small_blind: int, seat: int, seats: int) -> bool:
    """Whether ``seat`` is strictly between ``button`` and ``small_blind`` clockwise
    (heads-up the button is the small blind: nothing is between)."""
    if button == small_blind:
        return False
    k = (button % seats) + 1
    while k != small_blind:
        if k == seat:
            return True
        k = (k % seats) + 1
    return False


def check_landing(state: VenueSeating, move: Move) -> None:
    """A player moved to balance lands neither in the next hand's small blind nor between
    its button and small blind, by the table's own dead-button rule."""
    table = state.table(move.to_table)
    if table.positions is None:
        return
    nxt = next_positions(table_positions(table), sorted(table.players), None)
    assert nxt.small_blind is not None and nxt.button is not None
    assert move.to_seat != nxt.small_blind, (move, table)
    assert not between(nxt.button, nxt.small_blind, move.to_seat, table.seats), (move, table)


def check_invariants(before: VenueSeating, after: VenueSeating, moves: list[Move],
                     registered: set[str]) -> None:
    """What every step keeps: nobody seated twice, each seat one player, everyone
    registered seated or out (not both), moves that say where players really went, and
    tables broken in the house's order."""
    occupants = [p for t in after.tables for p in t.occupants if p is not None]
    assert len(occupants) == len(set(occupants)), "a player is seated twice"
    for t in after.tables:
        assert len(t.occupants) == before.table(t.number).seats
        if t.status != "open":
            assert t.count == 0, f"table {t.number} is {t.status} but has players"
    seated = set(after.seated())
    assert seated | set(after.out) == registered
    assert not seated & set(after.out)
    assert len(after.out) == len(set(after.out))
    for m in moves:
        assert after.location(m.player) == (m.to_table, m.to_seat)
        if m.from_table is not None:
            assert before.location(m.player) == (m.from_table, m.from_seat)
    order = list(after.break_order)
    broken = [order.index(t.number) for t in after.tables if t.status == "broken"]
    opened = [order.index(t.number) for t in after.tables if t.status == "open"]
    assert not broken or not opened or max(broken) < min(opened), "break order not kept"
