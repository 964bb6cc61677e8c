"""The live director of a venue: each table's hand boundary answered as it arrives (pure).

On a real night the tables do not play in step: a table that has finished its hand gets
its balancing move, its break or its ``go`` at once, without waiting for the slowest table
(docs/design/venue-topics.md, "Live: each table at its own boundary").  The rules are the
rounds' (:mod:`engine.tournament.venue`: the same state, reports and orders); what differs
is when they are decided:

* **A hand's end** (``hand_finished``) is that table's boundary: its busts are placed at
  once (below everyone still in; busted on the same hand: more chips at the start finishes
  higher, equal chips share the better place), then the final table or a break
  (:func:`engine.tournament.breaking.hand_finished`), or the balancing moves this table
  owes.
* **Balancing is decided at the bust** (TDA 11 and 12): after every report the room's
  ``planned`` moves are worked out from the players' counts
  (:func:`engine.tournament.balancing.planned_moves`): which table gives a player to
  which, announced at once; a plan stands until it is carried out or no longer needed.
  The giving table carries it out at its next boundary, where the player who would take
  the big blind next is known: only a table that owes a move gives one.  Among the longest
  tables the plan takes the one at its boundary now, then one in the middle of a hand
  (lowest number first), which reaches its boundary before a table waiting for its ``go``.
* **Seats** of a moved player go out once the giving table has reported them ``moved``:
  to a receiving table at its boundary for the hand it finished, to one in the middle of a
  hand for that hand (the table seats them when it ends, :mod:`engine.table.venue`); a
  table that has its ``go`` but has not reported its hand started yet gets the seat after
  that report.  A seat refused is sent again; the player is pending until it is applied.
* **Late entries** are drawn into a seat at the next report, and seated as a moved
  player is.
* **A go** goes to each open table of two players or more at its boundary once every
  command it was sent is answered and no player is on the way to it.
* **The final table:** once every remaining player fits at the host, a table at its
  boundary is held (no more ``go``); when every open table is held or idle the final
  table is drawn (:func:`engine.tournament.breaking.draw_final_table`).
* **The clock** runs on the director's wall time: :func:`tick` takes the milliseconds
  since the start and sends ``level`` to every open table when a level ends (blinds up
  next hand).  The director journals a tick that changes the level with the reports, so a
  restart replays the same orders with the same ``seq``.  :func:`pause` stops it (the
  tables get ``signal pause``, finish the hands in play and get no ``go`` until
  :func:`resume`); the wall time paused does not count.

>>> from engine.tournament.venue import VenueSetup
>>> setup = VenueSetup((9, 9), (1, 2), levels=((0, 50, 100, 0, 60_000), (1, 100, 200, 0, 0)))
>>> state, orders = start(setup, [f"P{i}" for i in range(1, 13)], 1000, seed=7)
>>> state.phase, tick(state, 30_000)[1]
('live', [])
>>> [(o.table, o.kind, o.args) for o in tick(state, 61_000)[1]]
[(1, 'level', (1, 100, 200, 0)), (2, 'level', (1, 100, 200, 0))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.tournament import balancing, breaking, venue
from engine.tournament.seating import Move
from engine.tournament.venue import Order, VenueSetup, VenueState, VenueStateError
from engine.tournament.venue_clock import rank_busts

__all__ = ["advance", "pause", "resume", "start", "step", "tick"]


def start(setup: VenueSetup, players: Sequence[str], starting_chips: int,
          seed: int | str) -> tuple[VenueState, list[Order]]:
    """The opening draw, as :func:`engine.tournament.venue.start` makes it, for a live
    night (phase ``live``: no rounds).  Raises as that function does."""
    state, orders = venue.start(setup, players, starting_chips, seed)
    state.phase = "live"
    return state, orders


def step(state: VenueState, table: int, seq: int, kind: str,
         args: tuple[Any, ...]) -> tuple[VenueState, list[Order]]:
    """:func:`engine.tournament.venue.step` with the live director's :func:`advance`."""
    return venue.step(state, table, seq, kind, args, advance=advance)


def tick(state: VenueState, elapsed_ms: int) -> tuple[VenueState, list[Order]]:
    """The director's clock at ``elapsed_ms`` milliseconds of wall time since the start
    (it never goes back: an earlier time changes nothing).  Returns the new state and a
    ``level`` for every open table with players when a level ended (none otherwise); the
    state given is left as it was.

    Raises:
        VenueStateError: ``elapsed_ms`` not a whole number >= 0.
    """
    _check_ms(elapsed_ms)
    new = state.clone()
    run = elapsed_ms - new.paused_ms
    if new.paused_at is not None or run <= new.clock_ms or new.phase == "over":
        return new, []
    changed = new.clock.advance(run - new.clock_ms)
    new.clock_ms = run
    if not changed:
        return new, []
    return new, [new.order(t.number, "level", *new.clock.level_args())
                 for t in new.seating.open_tables() if t.count]


def pause(state: VenueState, elapsed_ms: int) -> tuple[VenueState, list[Order]]:
    """The director pauses the clock at ``elapsed_ms`` of wall time since the start: the
    clock is first brought to that moment (:func:`tick`), then stops with the time left
    (the wall time until :func:`resume` does not count); every open table with players
    gets ``signal pause`` (it finishes the hand in play) and no ``go`` while paused.
    Returns the new state and the orders; the state given is left as it was.

    Raises:
        VenueStateError: the clock is paused already, the tournament is over, or
            ``elapsed_ms`` is not a whole number >= 0.
    """
    new, orders = tick(state, elapsed_ms)
    if new.paused_at is not None:
        raise VenueStateError("the clock is paused already")
    if new.phase == "over":
        raise VenueStateError("the tournament is over")
    new.paused_at = max(elapsed_ms, new.clock_ms + new.paused_ms)
    return new, orders + _signal(new, "pause")


def resume(state: VenueState, elapsed_ms: int) -> tuple[VenueState, list[Order]]:
    """The director's clock runs again at ``elapsed_ms`` of wall time since the start,
    from the time left when it was paused; every open table with players gets ``signal
    resume``, then its ``go`` as usual.  The state given is left as it was.

    Raises:
        VenueStateError: the clock is not paused, or ``elapsed_ms`` is not a whole
            number >= 0.
    """
    _check_ms(elapsed_ms)
    if state.paused_at is None:
        raise VenueStateError("the clock is not paused")
    new = state.clone()
    new.paused_ms += max(0, elapsed_ms - state.paused_at)
    new.paused_at = None
    orders = _signal(new, "resume")
    return new, orders + advance(new)


def _signal(s: VenueState, name: str) -> list[Order]:
    return [s.order(t.number, "signal", name) for t in s.seating.open_tables() if t.count]


def _check_ms(elapsed_ms: int) -> None:
    if isinstance(elapsed_ms, bool) or not isinstance(elapsed_ms, int) or elapsed_ms < 0:
        raise VenueStateError(f"the clock's time must be whole milliseconds >= 0, got "
                              f"{elapsed_ms!r}")


def advance(s: VenueState) -> list[Order]:
    """The orders due now on a live night: each table's boundary that has come in, the
    seats that can go, the ``go`` of each table ready for its next hand."""
    orders: list[Order] = []
    for t in sorted(s.tables.values(), key=lambda t: t.number):
        if t.report is not None:
            orders += _boundary(s, t.number)
            if s.phase == "over":
                s.planned = ()
                return orders
    if s.entering:
        venue.seat_entries(s, live=True)
    orders += _seats(s)
    if s.paused_at is None:
        orders += _deal(s)
    _plan(s)
    return orders


def _plan(s: VenueState) -> None:
    """The balancing moves announced now (:func:`balancing.planned_moves`): none once the
    final table is due or drawn; those planned before stand."""
    if s.phase == "over" or breaking.final_table_due(s.seating):
        s.planned = ()
        return
    playing = [n for n, t in sorted(s.tables.items()) if t.playing]
    s.planned = balancing.planned_moves(s.seating, s.planned, playing)


def _balance(s: VenueState, number: int) -> list[Move]:
    """The balancing moves table ``number`` owes at its boundary (the plan decided at the
    bust, this table first among the longest), its player chosen now (TDA 11 and 12)."""
    table = s.seating.table(number)
    if table.status != "open" or table.held or breaking.final_table_due(s.seating):
        return []
    plan = balancing.planned_moves(s.seating, s.planned, (number,))
    owed = sum(1 for giver, _taker in plan if giver == number)
    if not owed:
        return []
    s.seating, moves = balancing.balance(s.seating, number, most=owed)
    return moves


def _boundary(s: VenueState, number: int) -> list[Order]:
    t = s.tables[number]
    assert t.report is not None
    chips, busted, elapsed = t.report
    s.digest(["hand", number, t.hand, [chips, busted, elapsed]])
    t.playing, t.started, t.report = False, False, None
    for player, place in rank_busts(busted, s.remaining()).items():
        s.places[player] = place
        del s.chips[player]
    out = [p for p, _c in sorted(busted, key=lambda b: (b[1], b[0]))]
    s.seating, moves = breaking.hand_finished(s.seating, number, out, s.rng,
                                              balancing=False)
    if s.remaining() == 1:
        (winner,) = s.chips
        s.places[winner] = 1
        s.phase = "over"
        return []
    return venue.send_moves(s, moves or _balance(s, number))


def _seats(s: VenueState) -> list[Order]:
    """A seat for each player who has left the giving table, at a receiving table that
    knows which hand the seat follows."""
    orders = []
    for player, m in sorted(s.transit.items(), key=lambda kv: (kv[1].to_table,
                                                                 kv[1].to_seat)):
        t = s.tables[m.to_table]
        if not m.left or m.seated or (t.playing and not t.started):
            continue
        o = s.order(m.to_table, "seat", player, m.to_seat, s.chips[player], m.reason,
                    for_hand=t.hand + 1 if t.playing else t.hand)
        s.transit[player] = replace(m, seated=o.seq)
        orders.append(o)
    return orders


def _deal(s: VenueState) -> list[Order]:
    """A ``go`` to each table ready for its next hand; a table at its boundary is held
    once the final table is due, and the final table is drawn when every one is."""
    orders: list[Order] = []
    arriving = {m.to_table for m in s.transit.values()}
    for table in s.seating.open_tables():
        t = s.tables[table.number]
        if t.playing or table.held or table.count < 2 or s.awaiting.get(t.number) \
                or t.number in arriving:
            continue
        if breaking.final_table_due(s.seating):
            drawn = _hold(s, t.number)
            if drawn:  # the final table is drawn: its host waits for its players
                return orders + drawn
            continue
        o = s.order(t.number, "go", t.hand + 1, awaited=False)
        t.playing, t.started, t.go_seq = True, False, o.seq
        s.round += 1
        orders.append(o)
    return orders


def _hold(s: VenueState, number: int) -> list[Order]:
    seating = s.seating.with_table(replace(s.seating.table(number), held=True))
    if not all(t.held or breaking.idle(t) for t in seating.open_tables()):
        s.seating = seating
        return []
    s.seating, moves = breaking.draw_final_table(seating, s.rng)
    return venue.send_moves(s, moves)
