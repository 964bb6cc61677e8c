"""The console's commands on players: register, the seat draw, start, late entry, away and
back, remove, eliminate and its undo, a stack corrected.

Each command is a pair (:class:`engine.table.console_commands.Spec`): ``verify_X(core,
args, t)`` raises, changing and copying nothing, exactly when applying it would refuse it
and in the same words; ``X(core, args, t) -> (effects, detail)`` does it once verified
(``detail``: the audit's line).  Chips are ints, seats 1-based, times in seconds.  Rules:
an absent player is dealt in and their hand is killed when action reaches them (TDA 30);
stacks are corrected between hands only.
"""

from __future__ import annotations

import random
from typing import Any

from engine.effects import Effect, Notice
from engine.events import DealerCommand, PlayerAction
from engine.table.console_args import (
    hand_refusal,
    need_between_hands,
    no_args,
    player_seat,
    table_seats,
    whole,
)
from engine.table.console_args import text as _text
from engine.table.console_base import ConsoleCommandError, ConsoleRefused, check_name
from engine.table.console_core import ConsoleCore
from engine.table.dealer_commands import verify_dealer_command
from engine.table.verify import verify_player_action
from engine.text import name_key
from engine.tournament.eliminations import verify_eliminate as verify_out

Result = tuple[list[Effect], str]


def name_of(core: ConsoleCore, seat: int) -> str:
    """The name of the player in ``seat`` (``"seat N"`` for an empty one)."""
    return str(core.names().get(seat, f"seat {seat}"))


def _all_names(core: ConsoleCore) -> set[str]:
    tour = core.tournament
    return {name_key(e.name) for e in tour.entrants if e.round == _next_round(core)
            and e.active} | {name_key(n) for n in core.console.waiting}


def _next_round(core: ConsoleCore) -> int:
    """The round a registration now is for (0 without qualifiers)."""
    tour = core.tournament
    if tour.structure.qualifiers is None:
        return 0
    return int(tour.round + 1 if (tour.round_over or not tour.clock.started) else tour.round)


def _free_seats(core: ConsoleCore) -> list[int]:
    tour = core.tournament
    rnd = _next_round(core)
    taken = {e.seat for e in tour.entrants if e.active and e.round == rnd}
    return [s for s in table_seats(core) if s not in taken]


def _rng(core: ConsoleCore, purpose: str) -> random.Random:
    return random.Random(f"{core.settings.seed}:{purpose}:{len(core.tournament.entrants)}")


def seats_drawn(core: ConsoleCore) -> bool:
    """Whether the seats of the round registrations are for have been drawn."""
    rnd = _next_round(core)
    return any(e.round == rnd for e in core.tournament.entrants)


def _seat_for(core: ConsoleCore) -> int:
    """The seat a player registered now is drawn to (the same draw for the check and the
    registration: seeded by the table and the count of entries)."""
    free = _free_seats(core)
    if not free:
        raise ConsoleRefused("every seat is taken")
    return _rng(core, "seat").choice(free)


# --- registration -----------------------------------------------------------------------
def registration_refusal(core: ConsoleCore) -> str | None:
    """Why no player may be registered by name now (None: they may): after the start only
    a late entry joins (:func:`late_entry`), and with qualifiers a round being played
    takes no one until it is over.  The console shows its Register form only when None."""
    tour = core.tournament
    if core.console.ended:
        return "the tournament has ended: a new one is being set up"
    if tour.clock.started and tour.structure.qualifiers is None:
        return "the tournament has started: make a late entry"
    if not tour.registration_open():
        return "registration is closed until this round is over"
    return None


def verify_register(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    name = check_name(args.get("name"))
    refusal = registration_refusal(core)
    if refusal is not None:
        raise ConsoleRefused(refusal)
    if name_key(name) in _all_names(core):
        raise ConsoleRefused(f"{name} is already registered")
    if not seats_drawn(core):
        if len(core.console.waiting) + 1 > len(_free_seats(core)):
            raise ConsoleRefused("every seat is taken")
        return
    core.tournament.verify_register(name, _seat_for(core))


def register(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    name = check_name(args.get("name"))
    if not seats_drawn(core):
        core.console.waiting.append(name)
        return [Notice(f"{name} registered")], f"{name} waits for the seat draw"
    seat = _seat_for(core)
    e = core.tournament.register(name, seat, now=t)
    return [Notice(f"{e.name}: seat {seat}")], f"{e.name} drawn to seat {seat}"


def _draw(core: ConsoleCore) -> list[tuple[int, str]]:
    """(seat, name) of the players waiting, as the seat draw seats them, by seat."""
    waiting = core.console.waiting
    seats = _rng(core, "draw").sample(_free_seats(core), len(waiting))
    return sorted(zip(seats, waiting, strict=True))


def verify_seat_draw(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    waiting = core.console.waiting
    if not waiting:
        raise ConsoleRefused("nobody is waiting for a seat: register players first")
    if len(waiting) > len(_free_seats(core)):
        raise ConsoleRefused(f"every seat is taken: {len(waiting)} players wait for "
                             f"{len(_free_seats(core))} seats")
    for seat, name in _draw(core):
        core.tournament.verify_register(name, seat)


def seat_draw(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    pairs = _draw(core)
    for seat, name in pairs:
        core.tournament.register(name, seat, now=t)
    core.console.waiting = []
    words = ", ".join(f"{seat} {name}" for seat, name in pairs)
    core.tournament.notices = [f"Seat draw: {words}"]
    return [Notice(f"Seat draw: {words}")], f"seat draw: {words}"


def verify_start(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    tour = core.tournament
    if core.console.waiting:
        raise ConsoleRefused(f"draw the seats first: {len(core.console.waiting)} "
                             "players are waiting")
    if tour.structure.qualifiers is not None and tour.clock.started and not tour.round_over:
        raise ConsoleRefused(f"round {tour.round} is still being played")
    if tour.structure.qualifiers is None and tour.clock.started:
        raise ConsoleRefused("the tournament has started")
    tour.verify_start()


def start(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    tour = core.tournament
    effects = core._clock_effects(tour.start(t))
    tour.notices = []
    if tour.structure.qualifiers is not None:
        from engine.table.positions import Positions

        core.pos = Positions()  # a new round draws for the button again
        return effects, f"round {tour.round} started with {len(tour.active())} players"
    return effects, f"tournament started with {len(tour.active())} players"


def between_rounds(core: ConsoleCore) -> bool:
    """Whether a structure with qualifiers waits for its next round (or the final) to be
    started: before the first, or once a round is over, and not after the final (the
    console shows its Start the next qualifier button only then; the start itself still
    needs the seats drawn and two players)."""
    tour = core.tournament
    return bool(tour.structure.qualifiers is not None and not core.console.ended
                and (not tour.clock.started or tour.round_over) and not tour.finished)


def verify_start_round(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    if core.tournament.structure.qualifiers is None:
        raise ConsoleRefused("this structure has no qualifiers: use start")
    verify_start(core, args, t)


def late_entry_refusal(core: ConsoleCore) -> str | None:
    """Why no late entry may be made now (None: it may)."""
    tour = core.tournament
    if core.console.ended:
        return "the tournament has ended: a new one is being set up"
    if tour.structure.qualifiers is not None:
        return "this structure's rounds take no late entry: register the player for the " \
            "next round"
    if not tour.clock.started:
        return "the tournament has not started: register the player"
    if tour.finished:
        return "the tournament is over: no late entry"
    if not tour.registration_open():
        return str(tour._closed_reason())
    return None


def late_entry_preview(core: ConsoleCore) -> dict[str, Any]:
    """``{"open": bool, "reason": why not or None, "level": N, "chips": C, "deduction":
    D}``: the stack a late entry gets now (the structure's starting stack less the house's
    deduction for the level being played; docs/tournament.md)."""
    tour = core.tournament
    started = tour.clock.started and tour.structure.qualifiers is None
    level = tour.clock.level.number if started else 0
    deduction = tour.structure.late_deduction(level) if started else 0
    reason = late_entry_refusal(core)
    return {"open": reason is None, "reason": reason, "level": level,
            "chips": tour.structure.starting_stack - deduction, "deduction": deduction}


def verify_late_entry(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    name = check_name(args.get("name"))
    preview = late_entry_preview(core)
    if preview["reason"] is not None:
        raise ConsoleRefused(preview["reason"])
    if "chips" in args and whole(args, "chips", 0, 10**12) != preview["chips"]:
        raise ConsoleRefused(f"the late-entry stack is now {preview['chips']} (level "
                             f"{preview['level']}, deduction {preview['deduction']}): "
                             "confirm again")
    if name_key(name) in _all_names(core):
        raise ConsoleRefused(f"{name} is already registered")
    core.tournament.verify_register(name, _seat_for(core))


def late_entry(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = _seat_for(core)
    e = core.tournament.register(check_name(args.get("name")), seat, now=t)
    return ([Notice(f"{e.name} joins in seat {seat} with {e.chips:,}")],
            f"{e.name} late entry at level {e.level_number}, seat {seat}: {e.chips} chips "
            f"(deduction {e.deduction})")


# --- away and back ----------------------------------------------------------------------
def verify_away(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    seat = player_seat(core, args)
    if seat in core.console.away:
        raise ConsoleRefused(f"seat {seat} is already away")
    verify_fold_away(core, [*core.console.away, seat], t)


def away(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = args["seat"]
    core.console.away.append(seat)
    return fold_away(core, t), f"seat {seat} {name_of(core, seat)} away"


def verify_back(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    seat = player_seat(core, args)
    if seat not in core.console.away:
        raise ConsoleRefused(f"seat {seat} is not away")


def back(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = args["seat"]
    core.console.away.remove(seat)
    return [], f"seat {seat} {name_of(core, seat)} back"


def _away_action(core: ConsoleCore, away: list[int], t: float) -> PlayerAction | None:
    """The action an away player who is to act takes now (check when checking is free,
    else fold), or None."""
    hand = core.hand
    if not core.in_hand or hand is None or hand.actor not in away:
        return None
    action = "check_or_call" if hand.legal_actions().can_check else "fold"
    return PlayerAction(t=t, seat=hand.actor, action=action)


def verify_fold_away(core: ConsoleCore, away: list[int], t: float) -> None:
    """Raises as :func:`fold_away` with ``away`` would for the player to act now."""
    action = _away_action(core, away, t)
    if action is not None:
        verify_player_action(core, action)


def fold_away(core: ConsoleCore, t: float) -> list[Effect]:
    """Kill the hand of an away player who is to act (check when checking is free)."""
    if not core.console.away:  # the common case, after every event: nothing to look up
        return []
    away = [s for s in core.console.away if s in core.tournament.stacks()]
    core.console.away = away
    effects: list[Effect] = []
    while (action := _away_action(core, away, t)) is not None:
        effects += core._player_action(action)
    return effects


# --- out and back in --------------------------------------------------------------------
def verify_remove(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    _text(args, "reason")
    seat = player_seat(core, args)
    need_between_hands(core)
    verify_out(core.tournament, seat)


def remove(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = args["seat"]
    name, chips = name_of(core, seat), core.tournament.stacks()[seat]
    effects = core._clock_effects(core.tournament.eliminate(t, seat))
    return effects, (f"seat {seat} {name} removed ({_text(args, 'reason')}); {chips} chips "
                     "out of play")


def _eliminate_args(core: ConsoleCore, args: dict[str, Any]) -> dict[str, int]:
    seat = player_seat(core, args)
    need_between_hands(core)
    if args.get("by") is None:
        return {"seat": seat}
    by = player_seat(core, args, "by")
    if by == seat:
        raise ConsoleCommandError(f"seat {seat} cannot knock themselves out")
    return {"seat": seat, "by": by}


def verify_eliminate(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    """A player is out (between hands); ``by``: the seat credited with the knockout."""
    cmd = _eliminate_args(core, args)
    verify_dealer_command(core, DealerCommand(t=t, command="eliminate", args=cmd))


def eliminate(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    cmd = _eliminate_args(core, args)
    seat = cmd["seat"]
    name, chips = name_of(core, seat), core.tournament.stacks()[seat]
    by_words = f", knocked out by seat {cmd['by']} {name_of(core, cmd['by'])}" \
        if "by" in cmd else ""
    effects = core._command(DealerCommand(t=t, command="eliminate", args=cmd))
    out = f"; {chips} chips out of play" if chips else ""
    return effects, f"seat {seat} {name} eliminated{by_words}{out}"


def undo_elimination_applies(core: ConsoleCore) -> bool:
    """Whether :func:`undo_elimination` fits now (the console shows its button only then):
    between hands (:func:`engine.table.console_args.hand_refusal`), with an elimination of
    this round to undo whose seat is still free
    (:func:`engine.tournament.eliminations.undo_target`)."""
    from engine.errors import PokerTableError
    from engine.tournament.eliminations import undo_target

    if core.console.ended or hand_refusal(core) is not None:
        return False
    try:
        undo_target(core.tournament)
    except PokerTableError:
        return False
    return True


def verify_undo_elimination(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    need_between_hands(core)
    verify_dealer_command(core, DealerCommand(t=t, command="undo_elimination"))


def undo_elimination(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    effects = core._command(DealerCommand(t=t, command="undo_elimination"))
    return effects, "; ".join(getattr(e, "text", "") for e in effects
                              if isinstance(e, Notice)) or "elimination undone"


# --- chips ------------------------------------------------------------------------------
def verify_stack(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    chips = whole(args, "chips", 1, 10**12)
    _text(args, "reason")
    seat = player_seat(core, args)
    need_between_hands(core)
    if chips == core.tournament.stacks()[seat]:
        raise ConsoleRefused(f"seat {seat} already has {chips}")


def stack(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat, chips = args["seat"], args["chips"]
    before = core.tournament.stacks()[seat]
    core.tournament.correct_stacks({seat: chips})
    return ([Notice(f"Seat {seat}: stack corrected to {chips:,}")],
            f"seat {seat} {name_of(core, seat)}: {before} -> {chips} "
            f"({_text(args, 'reason')})")
