"""The views of the whole table: what the TV, each seat's display and a run summary show.

Derived on demand, never stored, from a :class:`TableReading`: the public reading side of
:class:`engine.table.core.TableCore`.  The TV's view is
public (never an unrevealed hole card: :meth:`engine.dealing.procedure.DealingProcedure.public_view`
guarantees it for the hand; the all-in odds hold the live hands' cards only once no player
can act, when TDA 16 tables them: :mod:`engine.betting.odds_view`); a seat's view holds that
seat's own cards only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Set
from typing import Any, Protocol

from engine.betting.hand import Hand
from engine.betting.odds_view import OddsProvider, odds_view
from engine.betting.seat_input import IDLE, SeatInput
from engine.dealing.procedure import DealingProcedure
from engine.tournament.tournament import Tournament
from engine.views import ScreenState, SeatDisplayView, SeatPublic, TablePublicView


class _Layout(Protocol):
    @property
    def layout(self) -> str: ...


class TableReading(Protocol):
    """What the table views read of the table core (seats are 1-based; ``last_t`` is table
    time in seconds; ``offline`` holds device names such as ``"shoe"``, ``"display:3"``)."""

    @property
    def proc(self) -> DealingProcedure | None: ...
    @property
    def hand(self) -> Hand | None: ...
    @property
    def tournament(self) -> Tournament: ...
    @property
    def settings(self) -> _Layout: ...
    @property
    def seat_inputs(self) -> Mapping[int, SeatInput]: ...
    @property
    def results(self) -> Mapping[int, int]: ...
    @property
    def offline(self) -> Set[str]: ...
    @property
    def free_hand(self) -> bool: ...
    @property
    def in_hand(self) -> bool: ...
    @property
    def history_digest(self) -> str: ...
    @property
    def last_t(self) -> float: ...

    def names(self) -> dict[int, str]: ...

WHEEL_SECONDS = 15.0  #: how long the bonus wheel stays on the TV after it starts to spin


SHOE_OFFLINE_ALARM = "Card shoe offline: deal by hand, the dealer keys in cards"


def screen_state(core: TableReading, alarms: tuple[str, ...] = (),
                 odds_provider: OddsProvider | None = None) -> ScreenState:
    """What the TV shows (public; never an unrevealed hole card).  ``alarms``: the
    service's own alarms (the journal), shown before the table's (the shoe offline);
    ``odds_provider``: who works out the all-in odds (default: synchronously,
    :func:`engine.betting.odds_view.spot_odds`)."""
    t = core.last_t
    table = None
    if core.proc is not None:
        names = core.names()
        table = core.proc.public_view(names)
        online = {s: f"display:{s}" not in core.offline for s in range(1, 11)}
        chips = _between_hands_stacks(core)
        seats = tuple(_seat_now(sp, online.get(sp.seat, True), chips.get(sp.seat, sp.stack))
                      for sp in table.seats)
        if seats != table.seats:
            table = dataclasses.replace(table, seats=seats)
        table = _without_newcomers(table, _newcomers(core, names))
    ruling = core.proc.ruling_view() if core.proc is not None else None
    if "shoe" in core.offline:
        alarms = (*alarms, SHOE_OFFLINE_ALARM)
    wheel = core.tournament.wheel_view()
    if wheel is not None and t - wheel.started_at > WHEEL_SECONDS:
        wheel = None
    odds = None
    if core.proc is not None and core.hand is not None:
        odds = odds_view(core.hand, core.names(), provider=odds_provider)
    return ScreenState(clock=core.tournament.clock_view(t), table=table, ruling=ruling,
                       wheel=wheel, odds=odds,
                       offline=tuple(sorted(core.offline)), alarms=alarms,
                       layout=core.settings.layout, now=t,
                       room=core.tournament.room_view())


def _seat_now(sp: SeatPublic, online: bool, stack: int) -> SeatPublic:
    """``sp`` with its display's state and its stack now (``sp`` itself when both are
    as it says: a copy costs more than the comparison, on every event)."""
    if sp.display_online == online and sp.stack == stack:
        return sp
    return dataclasses.replace(sp, display_online=online, stack=stack)


def _newcomers(core: TableReading, names: Mapping[int, str]) -> frozenset[int]:
    """The seats whose player (``names``: seat -> player now) changed since the hand on
    screen was dealt (a player moved in between hands at a venue table, a new seat
    draw): that hand's cards, bet, status, result and winnings there were another
    player's."""
    hand = core.hand
    if core.in_hand or hand is None:
        return frozenset()
    dealt = hand.config.names
    return frozenset(seat for seat, name in names.items()
                     if name and dealt.get(seat, "") not in ("", name))


def _without_newcomers(view: TablePublicView, new: Set[int]) -> TablePublicView:
    """``view`` with none of the finished hand at the ``new`` seats (:func:`_newcomers`):
    not the shown cards, bet or status of the player who left, nor the pots or showdown
    lines naming the seat (the results panel names a seat by its player now: it would
    name the newcomer as the winner)."""
    if not new:
        return view
    return dataclasses.replace(
        view,
        seats=tuple(dataclasses.replace(sp, bet=0, status="active", has_cards=False,
                                        shown_cards=()) if sp.seat in new else sp
                    for sp in view.seats),
        pots=tuple(dataclasses.replace(
            p, winners=tuple(s for s in p.winners if s not in new),
            awarded=tuple((s, c) for s, c in p.awarded if s not in new)) for p in view.pots),
        showdown=tuple(line for line in view.showdown if line.seat not in new))


def _between_hands_stacks(core: TableReading) -> dict[int, int]:
    """Seat -> chips once the hand is over: the tournament's count, which a stack
    correction or a color-up between hands changes (the finished hand keeps its own)."""
    if core.free_hand or core.proc is None or not core.proc.hand.is_complete:
        return {}
    return core.tournament.stacks()


def seat_views(core: TableReading) -> dict[int, SeatDisplayView]:
    """Seat -> what that seat's display shows (its own cards only)."""
    out: dict[int, SeatDisplayView] = {}
    names = core.names()
    hand = core.hand
    stacks = hand.stacks if core.free_hand and hand is not None else core.tournament.stacks()
    between = _between_hands_stacks(core)
    new = _newcomers(core, names)  # the hand's cards and result there were another player's
    for seat in sorted(set(stacks) | (set(hand.seats) if hand is not None else set())):
        if hand is not None and seat in hand.seats and seat not in new:
            v = core.proc.seat_view(seat)  # type: ignore[union-attr]
            pending = core.seat_inputs.get(seat, IDLE)
            v = dataclasses.replace(
                v, name=names.get(seat, v.name), pending_raise_to=pending.pending_raise_to,
                message=pending.note or v.message,
                result=core.results.get(seat) if hand.is_complete else None,
                stack=between.get(seat, v.stack))
        else:  # a newcomer waits for the next hand with no cards, as on the TV
            v = SeatDisplayView(seat=seat, name=names.get(seat, ""),
                                stack=stacks.get(seat, 0),
                                status="active" if seat in new else "out")
        out[seat] = v
    if not core.free_hand:  # a player knocked out: the display says so, and where
        for place, e in core.tournament.standings():
            if (not e.active and e.seat is not None and e.seat not in out
                    and e.round == core.tournament.round and place is not None):
                out[e.seat] = SeatDisplayView(seat=e.seat, name=e.name, status="out",
                                              message=f"OUT - {ordinal(place)}")
    return out

def summary(core: TableReading) -> dict[str, Any]:
    """``hands_played``, ``final_stacks`` (seat -> chips), ``places`` (seat -> place
    where decided), ``history_sha256`` (chain digest of the private hand histories)."""
    tour = core.tournament
    places: dict[str, int] = {}
    for place, e in tour.standings():
        if place is not None and e.seat is not None and (not e.active or tour.finished):
            places[str(e.seat)] = place
    hand = core.hand
    stacks = (hand.stacks if hand is not None and (core.in_hand or core.free_hand)
              else tour.stacks())
    if not stacks and tour.finished:  # a timed final: the stacks when the time ran out
        stacks = {e.seat: e.chips_at_out for e in tour.entrants
                  if e.round == tour.round and e.seat is not None and e.chips_at_out}
    return {
        "hands_played": tour.hands_played,
        "final_stacks": {str(s): c for s, c in sorted(stacks.items())},
        "places": dict(sorted(places.items(), key=lambda kv: kv[1])),
        "history_sha256": core.history_digest,
        "finished": tour.finished,
    }


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
