"""A table in venue mode: the director's commands applied at hand boundaries (pure).

The table plays its hands as ever; the director of the venue (docs/design/venue-topics.md)
owns who sits where, the level, the places and when the next hand is dealt.  Here:

* :func:`run` wraps every input the core applies: NEXT HAND (the dealer box's or the
  console's) deals only a hand the director has said ``go`` for (and never at a broken
  table), the first one starting the table's tournament with its clock paused; the
  console's ``start``, ``register``, ``seat_draw`` and ``late_entry`` are refused (the
  director starts the venue and enters the players); a hand dealt is reported
  (``hand_started``), a hand ended is reported (``hand_finished``: chips by player, the
  players busted with their chips at the start of the hand, the table-clock milliseconds
  it took) and the commands held for its end are applied; a table has no winner and no
  places of its own (the director's); the chips are checked after every input; the
  service's ``restarted`` command is reported ``resumed`` (with the table's last hand).
* :func:`apply_command` applies one :class:`engine.events.VenueCommand`: ``seat`` (a
  player comes with chips; a newcomer between the button and the small blind waits for the
  button to pass, TDA 10, :func:`engine.table.positions.waiting_seats`), ``move`` (a
  player leaves with their chips: report ``moved``), ``signal`` ``break`` (everyone
  leaves, the table stops), ``hold`` (deal no more until ``go``), ``pause``/``resume``,
  ``level`` (blinds up next hand) and ``go``; ``join`` (seq 0) journals the night the table
  joined, ``over`` (seq 0) that the director said its winner, and a command of another
  night is refused.  A well-formed command that does not fit the
  table (a stale hand, a taken seat, a player not here) is answered ``refused`` with the
  reason and changes nothing else; a malformed, forged or replayed one raises
  :class:`engine.table.venue_state.VenueCommandError` and changes nothing at all.

Every command's ``(sender, seq)`` is in the journaled event, and the table's ``mark`` is the
highest ``seq`` applied, so a restarted table knows which commands it has applied.  The
table's own blind clock never runs in venue mode (it is paused as it starts); the level
comes from the director's ``level`` commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.effects import Effect, LogLine, Notice, VenueReport
from engine.errors import IllegalActionError
from engine.events import (
    ConsoleCommand,
    DealerButton,
    DealerCommand,
    Event,
    VenueCommand,
    event_from_dict,
    event_to_dict,
)
from engine.table.venue_state import (
    AT_BOUNDARY,
    VenueChipError,
    VenueCommandError,
    VenueState,
    check_body,
)
from engine.text import name_key
from engine.tournament.entrant import Entrant

MAX_MS = 24 * 3600 * 1000
#: console commands that start a table's own tournament: the director's at a venue table
LOCAL_STARTS = ("start", "start_round")
#: console commands that enter players at the table: the director's at a venue table (a
#: player seated here by hand would be outside the venue's count of players and chips)
LOCAL_ENTRIES = ("register", "seat_draw", "late_entry")


class VenueRefusal(IllegalActionError):
    """A director's command that does not fit the table now (answered ``refused``)."""


class VenueWaitError(IllegalActionError):
    """NEXT HAND at a venue table before the director's ``go`` (or at a broken table)."""


def _venue(core: Any) -> VenueState:
    if core.venue is None:
        raise VenueCommandError("this table is not in venue mode")
    v: VenueState = core.venue
    return v


def run(core: Any, event: Event, apply: Callable[[], list[Effect]]) -> list[Effect]:
    """Apply ``event`` to ``core`` with ``apply`` (the core's own dispatch), as a table in
    venue mode does (see the module docstring); the core's venue state is replaced only
    once everything succeeded."""
    v = _venue(core)
    if isinstance(event, ConsoleCommand):
        verify_console(core, event.command)
    dealing = _next_hand(event) and not core.in_hand and not (
        core.proc is not None and core.proc.stopped)
    if dealing and isinstance(event, DealerButton):
        verify_deal(core)  # the console's NEXT HAND says so in its own verify, in order
    if dealing and not core.tournament.clock.started and len(core.tournament.active()) >= 2 \
            and not v.broken and v.go_hand > core.hand_number:
        effects = _start_clock(core, event.t)
        return effects + run(core, event, apply)
    hand_before, was_in_hand = core.hand_number, core.in_hand
    bonus = core.proc.hand.config.bonus if was_in_hand and core.proc is not None else 0
    effects = apply()
    if isinstance(event, (VenueCommand, DealerCommand)) or \
            core.hand_number != hand_before or (was_in_hand and _hand_ended(core)):
        new = core.venue.copy()
        core.venue, saved = new, v
        try:
            effects = _after(core, new, event, hand_before, was_in_hand, bonus, effects)
        except Exception:
            core.venue = saved
            raise
    _check_chips(core)
    return effects


def verify_console(core: Any, command: str) -> None:
    """Raises VenueWaitError for a console command a venue table does not take: a local
    start (the director starts the venue and its clock), a local registration, seat draw
    or late entry (the director's); nothing outside venue mode."""
    if core.venue is not None and command in LOCAL_STARTS:
        raise VenueWaitError("the venue's director starts the tournament and its clock: "
                             "NEXT HAND deals once the director says go")
    if core.venue is not None and command in LOCAL_ENTRIES:
        raise VenueWaitError("the venue's director registers the players and seats them "
                             "at the tables: register them on the venue's console")


def verify_deal(core: Any) -> None:
    """Raises VenueWaitError unless a venue table may deal its next hand now: not broken,
    and the director's ``go`` given for it; nothing at a table outside venue mode."""
    v = core.venue
    if v is None:
        return
    if v.broken:
        raise VenueWaitError("this table is broken: its players have moved")
    if core.hand_number + 1 > v.go_hand:
        raise VenueWaitError(f"waiting for the director's go for hand {core.hand_number + 1}")


def _next_hand(event: Event) -> bool:
    """NEXT HAND: the dealer box's key, or the console's (``pokertable ctl next-hand``)."""
    return (isinstance(event, DealerButton) and event.button == "next_hand") or (
        isinstance(event, ConsoleCommand) and event.command == "next_hand")


def _start_clock(core: Any, t: float) -> list[Effect]:
    """The tournament starts at the first deal, its clock paused at once (the director's
    clock is the table's); the extras that change the chips in play are the director's (a
    bounty chip, the bonus wheel, the color-ups: chips of their own would not be in the
    venue's count), so none is done here."""
    tour = core.tournament
    effects: list[Effect] = core._clock_effects(tour.start(t))
    tour.bonus_hand = None
    tour.colored_up = [lv.index for lv in tour.clock.structure.levels if lv.color_up]
    for e in tour.active():
        if e.bounty and tour.structure.bounty is not None:
            e.chips -= tour.structure.bounty.chips
            e.bounty = False
    tour.pause(t)
    return effects


def _hand_ended(core: Any) -> bool:
    return (core.proc is not None and core.proc.hand.is_complete
            and not core.proc.stopped and not core.free_hand)


def _after(core: Any, v: VenueState, event: Event, hand_before: int, was_in_hand: bool,
           bonus: int, effects: list[Effect]) -> list[Effect]:
    t = event.t
    if isinstance(event, DealerCommand) and event.command == "restarted":
        effects.append(_report(v, "resumed", core.hand_number, {"hand": core.hand_number}))
    if core.hand_number != hand_before and not core.free_hand:
        pos = core.pos
        v.fresh = []
        effects.append(_report(v, "hand_started", core.hand_number, {
            "hand": core.hand_number, "button": pos.button,
            "small_blind": pos.small_blind or pos.button, "big_blind": pos.big_blind}))
    if was_in_hand and _hand_ended(core):
        effects = _strip_places(core, effects)
        v.ledger += bonus
        effects.append(_report(v, "hand_finished", core.hand_number, _finished_body(core, t)))
        held, v.pending = v.pending, []
        for d in held:
            ev = event_from_dict(d)
            assert isinstance(ev, VenueCommand)
            effects += _carry_out(core, v, ev, check_body(ev.kind, ev.body))
    return effects


def _finished_body(core: Any, t: float) -> dict[str, Any]:
    tour = core.tournament
    before = tour.hand_start_chips
    out = sorted((e for e in tour.entrants if e.out_at == t and e.out_order is not None
                  and e.seat in before), key=lambda e: (e.out_order, e.seat))
    started = tour.hand_started_at if tour.hand_started_at is not None else t
    return {"hand": core.hand_number,
            "chips": [[e.name, e.chips] for e in tour.active()],
            "busted": [[e.name, before[e.seat]] for e in out],
            "elapsed_ms": min(MAX_MS, max(0, round((t - started) * 1000)))}


def _strip_places(core: Any, effects: list[Effect]) -> list[Effect]:
    """No table winner and no places: the director owns them (a busted player is out)."""
    core.tournament.finished = False
    out: list[Effect] = []
    for e in effects:
        text = getattr(e, "text", "")
        if isinstance(e, (Notice, LogLine)) and ("tournament_over" in text or
                                                 text.endswith(" wins")):
            continue
        if isinstance(e, (Notice, LogLine)) and " finishes " in text:
            head = text.split(" finishes ")[0]
            e = Notice(f"{head} is out") if isinstance(e, Notice) else LogLine(e.level, head)
        out.append(e)
    return out


def _report(v: VenueState, kind: str, for_hand: int, body: dict[str, Any]) -> VenueReport:
    rep = v.report(kind, for_hand, body)
    return VenueReport(rep["seq"], kind, for_hand, rep["body"])


def _table_chips(core: Any) -> int:
    """The chips of the players seated (between hands, and during a hand: a hand's result
    reaches the stacks only when it ends)."""
    return sum(e.chips for e in core.tournament.active())


def _check_chips(core: Any) -> None:
    v: VenueState = core.venue
    have = _table_chips(core)
    if have != v.ledger:
        raise VenueChipError(f"table {v.table}: {have} chips seated, {v.ledger} expected "
                             "(chips seated in less chips moved out, plus bonuses)")


# ---------------------------------------------------------------------- the commands
def apply_command(core: Any, ev: VenueCommand) -> list[Effect]:
    """Apply the director's command ``ev`` (see the module docstring).

    Raises:
        VenueCommandError: not in venue mode, not from the director, a replay or a gap in
            ``seq``, a malformed body (nothing changes).
    """
    v = _venue(core)
    if ev.sender != v.director:
        raise VenueCommandError(f"a command from {ev.sender!r:.30}, not from the director")
    if ev.kind == "join":
        return _join(v, check_body("join", ev.body)["night"])
    if ev.kind == "over":
        return _over(v, check_body("over", ev.body)["night"])
    if ev.night and v.night and ev.night != v.night:
        raise VenueCommandError(f"command {ev.seq} is of night {ev.night:.40}, this table "
                                f"is on night {v.night}")
    if ev.seq <= v.mark:
        raise VenueCommandError(f"command {ev.seq} from {ev.sender} was applied already")
    if ev.seq != v.mark + 1:
        raise VenueCommandError(f"command {ev.seq} from {ev.sender} before {v.mark + 1}")
    body = check_body(ev.kind, ev.body)
    v.mark = ev.seq
    v.night = v.night or ev.night
    if ev.kind in AT_BOUNDARY + ("signal",) and ev.for_hand == core.hand_number and (
            core.in_hand or (core.proc is not None and core.proc.stopped)) and \
            body.get("name") not in ("pause", "resume"):
        v.pending.append(event_to_dict(ev))
        return [LogLine("INFO", f"venue command {ev.seq} ({ev.kind}) waits for the end of "
                                f"hand {core.hand_number}")]
    return _carry_out(core, v, ev, body)


def _join(v: VenueState, night: str) -> list[Effect]:
    """The table joins ``night`` (the first director message of a night that runs); once
    joined, it is on that night for good (a new night takes a new journal)."""
    if v.night == night:
        return []
    if v.night:
        raise VenueCommandError(f"this table is on night {v.night}, not {night}: start it "
                                "with a new journal for a new night")
    v.night = night
    return [LogLine("INFO", f"venue: table {v.table} joins night {night}")]


def _over(v: VenueState, night: str) -> list[Effect]:
    """The director said the winner of ``night``, this table's: its night is over."""
    if night != v.night:
        raise VenueCommandError(f"night {night:.40} is not this table's ({v.night or 'none'})")
    if v.over:
        return []
    v.over = True
    return [LogLine("INFO", f"venue: night {night} is over for table {v.table}")]


def _carry_out(core: Any, v: VenueState, ev: VenueCommand,
               body: dict[str, Any]) -> list[Effect]:
    try:
        _check_boundary(core, ev)
        return _DO[ev.kind](core, v, ev, body)
    except VenueRefusal as exc:
        return [_report(v, "refused", core.hand_number, {"command": ev.seq,
                                                         "reason": str(exc)}),
                LogLine("WARNING", f"venue command {ev.seq} ({ev.kind}) refused: {exc}")]


def _check_boundary(core: Any, ev: VenueCommand) -> None:
    if ev.kind not in AT_BOUNDARY and not (ev.kind == "signal" and
                                           ev.body.get("name") in ("break", "hold")):
        return
    if ev.for_hand is None:
        raise VenueRefusal(f"a {ev.kind} command must say which hand it follows")
    if ev.for_hand < core.hand_number:
        raise VenueRefusal(f"stale: for the end of hand {ev.for_hand}, the table has dealt "
                           f"hand {core.hand_number}")
    if ev.for_hand > core.hand_number:
        raise VenueRefusal(f"for the end of hand {ev.for_hand}, the table is at hand "
                           f"{core.hand_number}")


def _applied(v: VenueState, core: Any, ev: VenueCommand, note: str) -> list[Effect]:
    return [_report(v, "applied", core.hand_number, {"command": ev.seq}),
            LogLine("INFO", f"venue command {ev.seq}: {note}")]


def _seat(core: Any, v: VenueState, ev: VenueCommand, body: dict[str, Any]) -> list[Effect]:
    tour, name, seat, chips = core.tournament, body["player"], body["seat"], body["chips"]
    seats = core.settings.seats or tuple(range(1, 11))
    if seat not in seats:
        raise VenueRefusal(f"seat {seat} is not a seat of this table")
    if chips <= 0:
        raise VenueRefusal(f"{name} comes with no chips")
    if any(e.seat == seat for e in tour.active()):
        raise VenueRefusal(f"seat {seat} is taken")
    if any(name_key(e.name) == name_key(name) for e in tour.active()):
        raise VenueRefusal(f"{name} is already seated at this table")
    level = tour.clock.level.number if tour.clock.started else 0
    tour.entrants.append(Entrant(len(tour.entrants) + 1, name, seat, chips, level,
                                 round=tour.round))
    tour.finished = False
    v.ledger += chips
    if core.hand_number > 0:
        v.fresh.append(seat)
    return [Notice(f"{name} takes seat {seat} with {chips:,}")] + _applied(
        v, core, ev, f"{name} seated in seat {seat} with {chips} chips ({body['reason']})")


def _take_out(core: Any, v: VenueState, e: Entrant, command: int) -> list[Effect]:
    chips, seat = e.chips, e.seat
    e.seat, e.chips = None, 0
    v.ledger -= chips
    if seat in v.fresh:
        v.fresh.remove(seat)
    return [_report(v, "moved", core.hand_number, {"command": command, "player": e.name,
                                                   "chips": chips}),
            Notice(f"{e.name} leaves seat {seat} with {chips:,}")]


def _move(core: Any, v: VenueState, ev: VenueCommand, body: dict[str, Any]) -> list[Effect]:
    e = next((x for x in core.tournament.active() if x.name == body["player"]), None)
    if e is None:
        raise VenueRefusal(f"{body['player']} is not seated at this table")
    if e.seat != body["from_seat"]:
        raise VenueRefusal(f"{e.name} is in seat {e.seat}, not {body['from_seat']}")
    return _take_out(core, v, e, ev.seq) + [LogLine(
        "INFO", f"venue command {ev.seq}: {e.name} moves to table {body['to_table']} seat "
                f"{body['to_seat']}")]


def _signal(core: Any, v: VenueState, ev: VenueCommand, body: dict[str, Any]) -> list[Effect]:
    name = body["name"]
    if name == "break":
        effects: list[Effect] = []
        for e in list(core.tournament.active()):
            effects += _take_out(core, v, e, ev.seq)
        v.broken, v.go_hand = True, core.hand_number
        return effects + [Notice("This table is broken")] + _applied(v, core, ev, "broken")
    if name == "hold":
        v.go_hand = core.hand_number
        return [Notice("Hold: the next hand waits for the director")] + _applied(
            v, core, ev, "hold")
    v.paused = name == "pause"
    return [Notice("Clock paused" if v.paused else "Clock running")] + _applied(
        v, core, ev, name)


def _level(core: Any, v: VenueState, ev: VenueCommand, body: dict[str, Any]) -> list[Effect]:
    tour, index = core.tournament, body["index"]
    levels = tour.clock.structure.levels
    if index >= len(levels):
        raise VenueRefusal(f"level {index} is not in the structure (0..{len(levels) - 1})")
    lv = levels[index]
    ours = (lv.small_blind, lv.big_blind, lv.ante)
    theirs = (body["small_blind"], body["big_blind"], body["ante"])
    if not lv.is_break and ours != theirs:
        raise VenueRefusal(f"level {index} is {ours[0]}/{ours[1]} ante {ours[2]} here, not "
                           f"{theirs[0]}/{theirs[1]} ante {theirs[2]}")
    if tour.clock.index != index:
        tour.jump_to_level(ev.t, index)
    words = "a break" if lv.is_break else f"{lv.small_blind}/{lv.big_blind}" + (
        f" ante {lv.ante}" if lv.ante else "")
    shown = "a break" if lv.is_break else f"{lv.small_blind:,}/{lv.big_blind:,}" + (
        f" ante {lv.ante:,}" if lv.ante else "")  # on the TV: chips with separators
    return [Notice(f"Blinds up next hand: {shown}")] + _applied(v, core, ev,
                                                                  f"level {index} ({words})")


def _go(core: Any, v: VenueState, ev: VenueCommand, body: dict[str, Any]) -> list[Effect]:
    if v.broken:
        raise VenueRefusal("this table is broken")
    if body["hand"] != core.hand_number + 1:
        raise VenueRefusal(f"go for hand {body['hand']}, the next hand is "
                           f"{core.hand_number + 1}")
    v.go_hand = body["hand"]
    return _applied(v, core, ev, f"go for hand {body['hand']}")


_DO: dict[str, Callable[[Any, VenueState, VenueCommand, dict[str, Any]], list[Effect]]] = {
    "seat": _seat, "move": _move, "signal": _signal, "level": _level, "go": _go}
