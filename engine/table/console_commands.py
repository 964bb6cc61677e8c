"""The console's commands, one function each: ``run(core, args, t) -> (effects, detail)``.

Each checks its arguments and the table's state and raises (changing nothing) when the
command does not fit; ``detail`` is the one line the audit list shows.  Chips are ints,
seats 1-based, times in seconds.  Rules: an absent player is dealt in and their hand is
killed when action reaches them (TDA 30); stacks are corrected between hands only; a
pot awarded by hand is split as at showdown, odd chips first to the left of the button
(TDA 20-A).  Dispatch and audit: :mod:`engine.table.console`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import parse_cards
from engine.effects import Effect, Notice
from engine.events import CardDrawn, DealerButton, DealerCommand, Declaration, PlayerAction
from engine.table.console_args import (
    hand_refusal,
    need_between_hands,
    no_args,
    player_seat,
    seat_number,
    table_seats,
    whole,
)
from engine.table.console_args import text as _text
from engine.table.console_base import ConsoleCommandError, ConsoleRefused, check_name
from engine.table.console_clock import (
    add_time,
    clock_command,
    jump_level,
    level_length,
    remove_time,
)
from engine.table.console_core import ConsoleCore

Result = tuple[list[Effect], str]
DECLARED = ("boxed_card", "wrong_seat", "seat_skipped", "button_out_of_position",
            "exposed_card")



@dataclass(frozen=True)
class Spec:
    """A command: who may send it besides the director, and what it does.  ``secret``
    names arguments the audit never shows (a keyed hole card)."""

    run: Callable[[ConsoleCore, dict[str, Any], float], Result]
    roles: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()

    def public_args(self, args: dict[str, Any]) -> dict[str, Any]:
        return {k: ("(hidden)" if k in self.secret else v) for k, v in args.items()}


def _name_of(core: ConsoleCore, seat: int) -> str:
    return str(core.names().get(seat, f"seat {seat}"))


def _all_names(core: ConsoleCore) -> set[str]:
    tour = core.tournament
    return {e.name.casefold() for e in tour.entrants if e.round == _next_round(core)
            and e.active} | {n.casefold() for n in core.console.waiting}


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


# --- players ----------------------------------------------------------------------------
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


def register(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    name = check_name(args.get("name"))
    tour = core.tournament
    refusal = registration_refusal(core)
    if refusal is not None:
        raise ConsoleRefused(refusal)
    if name.casefold() in _all_names(core):
        raise ConsoleRefused(f"{name} is already registered")
    if not _drawn(core):
        if len(core.console.waiting) + 1 > len(_free_seats(core)):
            raise ConsoleRefused("every seat is taken")
        core.console.waiting.append(name)
        return [Notice(f"{name} registered")], f"{name} waits for the seat draw"
    seat = _draw_one(core)
    e = tour.register(name, seat, now=t)
    return [Notice(f"{e.name}: seat {seat}")], f"{e.name} drawn to seat {seat}"


def _drawn(core: ConsoleCore) -> bool:
    rnd = _next_round(core)
    return any(e.round == rnd for e in core.tournament.entrants)


def _draw_one(core: ConsoleCore) -> int:
    free = _free_seats(core)
    if not free:
        raise ConsoleRefused("every seat is taken")
    return _rng(core, "seat").choice(free)


def seat_draw(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    waiting = core.console.waiting
    if not waiting:
        raise ConsoleRefused("nobody is waiting for a seat: register players first")
    free = _free_seats(core)
    rng = _rng(core, "draw")
    seats = rng.sample(free, len(waiting))
    pairs = sorted(zip(seats, waiting, strict=True))
    for seat, name in pairs:
        core.tournament.register(name, seat, now=t)
    core.console.waiting = []
    words = ", ".join(f"{seat} {name}" for seat, name in pairs)
    core.tournament.notices = [f"Seat draw: {words}"]
    return [Notice(f"Seat draw: {words}")], f"seat draw: {words}"


def start(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    tour = core.tournament
    if core.console.waiting:
        raise ConsoleRefused(f"draw the seats first: {len(core.console.waiting)} "
                             "players are waiting")
    if tour.structure.qualifiers is not None and tour.clock.started and not tour.round_over:
        raise ConsoleRefused(f"round {tour.round} is still being played")
    if tour.structure.qualifiers is None and tour.clock.started:
        raise ConsoleRefused("the tournament has started")
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


def start_round(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    if core.tournament.structure.qualifiers is None:
        raise ConsoleRefused("this structure has no qualifiers: use start")
    return start(core, args, t)


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


def late_entry(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    name = check_name(args.get("name"))
    preview = late_entry_preview(core)
    tour = core.tournament
    if preview["reason"] is not None:
        raise ConsoleRefused(preview["reason"])
    if "chips" in args and whole(args, "chips", 0, 10**12) != preview["chips"]:
        raise ConsoleRefused(f"the late-entry stack is now {preview['chips']} (level "
                             f"{preview['level']}, deduction {preview['deduction']}): "
                             "confirm again")
    if name.casefold() in _all_names(core):
        raise ConsoleRefused(f"{name} is already registered")
    seat = _draw_one(core)
    e = tour.register(name, seat, now=t)
    return ([Notice(f"{e.name} joins in seat {seat} with {e.chips}")],
            f"{e.name} late entry at level {e.level_number}, seat {seat}: {e.chips} chips "
            f"(deduction {e.deduction})")


def away(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = player_seat(core, args)
    if seat in core.console.away:
        raise ConsoleRefused(f"seat {seat} is already away")
    core.console.away.append(seat)
    return fold_away(core, t), f"seat {seat} {_name_of(core, seat)} away"


def back(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = player_seat(core, args)
    if seat not in core.console.away:
        raise ConsoleRefused(f"seat {seat} is not away")
    core.console.away.remove(seat)
    return [], f"seat {seat} {_name_of(core, seat)} back"


def fold_away(core: ConsoleCore, t: float) -> list[Effect]:
    """Kill the hand of an away player who is to act (check when checking is free)."""
    if not core.console.away:  # the common case, after every event: nothing to look up
        return []
    away = [s for s in core.console.away if s in core.tournament.stacks()]
    core.console.away = away
    effects: list[Effect] = []
    while core.in_hand and core.hand is not None and core.hand.actor in away:
        seat = core.hand.actor
        legal = core.hand.legal_actions()
        action = "check_or_call" if legal.can_check else "fold"
        effects += core._player_action(PlayerAction(t=t, seat=seat, action=action))
    return effects


def remove(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    reason = _text(args, "reason")
    seat = player_seat(core, args)
    need_between_hands(core)
    name, chips = _name_of(core, seat), core.tournament.stacks()[seat]
    effects = core._clock_effects(core.tournament.eliminate(t, seat))
    return effects, f"seat {seat} {name} removed ({reason}); {chips} chips out of play"


def eliminate(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    """A player is out (between hands); ``by``: the seat credited with the knockout."""
    seat = player_seat(core, args)
    need_between_hands(core)
    name, chips = _name_of(core, seat), core.tournament.stacks()[seat]
    cmd = {"seat": seat}
    by_words = ""
    if args.get("by") is not None:
        by = player_seat(core, args, "by")
        if by == seat:
            raise ConsoleCommandError(f"seat {seat} cannot knock themselves out")
        cmd["by"] = by
        by_words = f", knocked out by seat {by} {_name_of(core, by)}"
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


def undo_elimination(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    need_between_hands(core)
    effects = core._command(DealerCommand(t=t, command="undo_elimination"))
    return effects, "; ".join(getattr(e, "text", "") for e in effects
                              if isinstance(e, Notice)) or "elimination undone"


# --- chips ------------------------------------------------------------------------------
def _actor(core: ConsoleCore, args: dict[str, Any]) -> int:
    seat = seat_number(core, args.get("seat"))
    hand = core.hand
    if not core.in_hand or hand is None:
        raise ConsoleRefused("no hand is being played")
    if hand.actor is None:
        raise ConsoleRefused("nobody is to act now (cards are due)")
    if hand.actor != seat:
        raise ConsoleRefused(f"seat {seat} is not to act: seat {hand.actor} is")
    return seat


def bet(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = _actor(core, args)
    amount = whole(args, "amount", 1, 10**12)
    effects = core._player_action(PlayerAction(t=t, seat=seat, action="bet_or_raise_to",
                                               amount=amount))
    return effects, f"seat {seat} bets or raises to {amount}"


def all_in(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat = _actor(core, args)
    hand = core.hand
    if hand is None:  # pragma: no cover - _actor found the hand
        raise ConsoleRefused("no hand is being played")
    legal = hand.legal_actions()
    if legal.max_raise_to is not None:
        amount = legal.max_raise_to
        effects = core._player_action(PlayerAction(t=t, seat=seat, action="bet_or_raise_to",
                                                   amount=amount))
        return effects, f"seat {seat} all-in to {amount}"
    effects = core._player_action(PlayerAction(t=t, seat=seat, action="check_or_call"))
    return effects, f"seat {seat} calls all-in"


def _keyed_action(action: str) -> Callable[[ConsoleCore, dict[str, Any], float], Result]:
    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        seat = _actor(core, args)
        effects = core._player_action(PlayerAction(t=t, seat=seat, action=action))
        return effects, f"seat {seat} {'folds' if action == 'fold' else 'checks or calls'}"
    return run


def _showdown(action: str) -> Callable[[ConsoleCore, dict[str, Any], float], Result]:
    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        seat = seat_number(core, args.get("seat"))
        hand = core.hand
        if hand is None or seat not in hand.showdown_pending:
            raise ConsoleRefused(f"seat {seat} has no hand to {action} now")
        effects = core._player_action(PlayerAction(t=t, seat=seat, action=action))
        return effects, f"seat {seat} {action}s"
    return run


def stack(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    chips = whole(args, "chips", 1, 10**12)
    reason = _text(args, "reason")
    seat = player_seat(core, args)
    need_between_hands(core)
    before = core.tournament.stacks()[seat]
    if chips == before:
        raise ConsoleRefused(f"seat {seat} already has {chips}")
    core.tournament.correct_stacks({seat: chips})
    return ([Notice(f"Seat {seat}: stack corrected to {chips}")],
            f"seat {seat} {_name_of(core, seat)}: {before} -> {chips} ({reason})")


def award(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    from engine.table.console_award import award_by_hand

    seats = args.get("seats")
    count = len(table_seats(core))
    if not isinstance(seats, list) or not seats or len(seats) > count:
        raise ConsoleCommandError(f"seats must be a list of 1..{count} seat numbers")
    winners = [seat_number(core, s) for s in seats]
    if len(set(winners)) != len(winners):
        raise ConsoleCommandError("a seat is named twice")
    return award_by_hand(core, winners, t)


def confirm_color_up(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    if not core.console.color_up_pending:
        raise ConsoleRefused("no color-up is waiting for confirmation")
    core.console.color_up_pending = False
    return [Notice("Color-up confirmed")], "color-up confirmed"


# --- dealing ----------------------------------------------------------------------------
def declare(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    kind = args.get("kind")
    if kind not in DECLARED:
        raise ConsoleCommandError(f"kind must be one of {', '.join(DECLARED)}")
    extra = set(args) - {"kind", "seat", "draw"}
    if extra:
        raise ConsoleCommandError(f"unknown argument {sorted(extra)[0][:20]!r}")
    seat = seat_number(core, args["seat"]) if args.get("seat") is not None else None
    draw = whole(args, "draw", 1, 1000) if args.get("draw") is not None else None
    if kind in ("wrong_seat", "seat_skipped", "button_out_of_position") and seat is None:
        raise ConsoleCommandError(f"{kind} needs a seat")
    effects = core._shoe_event(Declaration(t=t, kind=kind, seat=seat, draw=draw))
    return effects, f"declared {kind.replace('_', ' ')}" + (f" seat {seat}" if seat else "")


def _ruling(kind: str) -> Callable[[ConsoleCore, dict[str, Any], float], Result]:
    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        note = _text(args, "note", required=kind == "override_ruling")
        if core.proc is None or core.proc.pending_ruling is None:
            raise ConsoleRefused("no ruling is waiting")
        effects = core._shoe_event(Declaration(t=t, kind=kind, note=note))
        return effects, f"ruling {'overridden' if kind == 'override_ruling' else 'confirmed'}" \
            + (f" ({note})" if note else "")
    return run


def next_hand_applies(core: ConsoleCore) -> bool:
    """Whether the dealer box's NEXT HAND does something now (the console shows its
    button only then): between hands, once the tournament has started and while it is
    not over; after a misdeal or a fouled deck, the hand dealt again (TDA 35-C); or the
    stub reshuffled that a ruling asks for (``TableCore._dealer_button``).  Never
    while a seat is to act."""
    proc, tour = core.proc, core.tournament
    if core.console.ended or not tour.clock.started:
        return False
    if proc is not None and proc.stopped:
        return True
    if core.in_hand:
        return proc is not None and proc.expected_next()[:1] == ["stub_reshuffled"]
    return not core.finished


def next_hand(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    if not core.tournament.clock.started:
        raise ConsoleRefused("start the tournament first")
    return core._dealer_button(DealerButton(t=t, button="next_hand")), "next hand"


def card(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    text = args.get("card")
    if not isinstance(text, str) or len(text) > 3:
        raise ConsoleCommandError("card must be like \"As\" or \"Td\"")
    cards = parse_cards(text)
    if len(cards) != 1:
        raise ConsoleCommandError("key one card")
    if core.proc is None or not core.in_hand:
        raise ConsoleRefused("no hand is being dealt: next hand first")
    uid = core.registry.uid_of(cards[0])
    effects = core._shoe_event(CardDrawn(t=t, uid=uid, draw=core.shoe_draws + 1))
    core.console.keyed_hand = core.hand_number
    return effects, f"card keyed by hand (draw {core.shoe_draws})"


def undo_applies(core: ConsoleCore) -> bool:
    """Whether UNDO does something now (the console shows **Undo last action** only then):
    the last action of this hand, before the next card is drawn (``TableCore._undo``)."""
    return not core.console.ended and core.undo is not None and core.proc is not None


def undo(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    no_args(args)
    return core._undo(), "last action undone"


def end_tournament(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    """The night is over: the service archives this tournament and starts a new one
    (``structure``: a preset for the new one; default the same)."""
    from engine.tournament.structure_file import preset_names

    structure = args.get("structure")
    if structure is not None and structure not in preset_names():
        raise ConsoleCommandError(f"structure must be one of {', '.join(preset_names())}")
    extra = set(args) - {"structure"}
    if extra:
        raise ConsoleCommandError(f"unknown argument {sorted(extra)[0][:20]!r}")
    need_between_hands(core)
    core.console.ended = True
    tour = core.tournament
    return [Notice("The tournament has ended")], \
        f"tournament ended after {tour.hands_played} hands; {len(tour.active())} still in"


def _token_record(action: str) -> Callable[[ConsoleCore, dict[str, Any], float], Result]:
    """A console token issued or revoked (the token store holds the token; the journal
    and the audit hold who did it and when): ``{"id": ..., "role": ...}``."""
    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        token_id = _text(args, "id")
        role = args.get("role")
        if role not in ("director", "dealer"):
            raise ConsoleCommandError("role must be director or dealer")
        extra = set(args) - {"id", "role"}
        if extra:
            raise ConsoleCommandError(f"unknown argument {sorted(extra)[0][:20]!r}")
        return [], f"{role} token {token_id} {action}"
    return run


DEALER = ("dealer",)
COMMANDS: dict[str, Spec] = {
    "register": Spec(register), "seat_draw": Spec(seat_draw), "start": Spec(start),
    "start_round": Spec(start_round), "late_entry": Spec(late_entry), "away": Spec(away),
    "back": Spec(back), "remove": Spec(remove), "eliminate": Spec(eliminate),
    "undo_elimination": Spec(undo_elimination),
    "bet": Spec(bet, DEALER), "all_in": Spec(all_in, DEALER),
    "fold": Spec(_keyed_action("fold"), DEALER), "call": Spec(_keyed_action("check_or_call"),
                                                              DEALER),
    "show": Spec(_showdown("show"), DEALER), "muck": Spec(_showdown("muck"), DEALER),
    "stack": Spec(stack), "award": Spec(award), "confirm_color_up": Spec(confirm_color_up),
    "pause": Spec(clock_command("pause", "clock paused")),
    "resume": Spec(clock_command("resume", "clock resumed")),
    "add_time": Spec(add_time), "remove_time": Spec(remove_time),
    "jump_level": Spec(jump_level), "level_length": Spec(level_length),
    "declare": Spec(declare, DEALER), "confirm_ruling": Spec(_ruling("confirm_ruling"), DEALER),
    "override_ruling": Spec(_ruling("override_ruling"), DEALER),
    "next_hand": Spec(next_hand, DEALER), "card": Spec(card, DEALER, secret=("card",)),
    "undo": Spec(undo, DEALER), "end_tournament": Spec(end_tournament),
    "token_issued": Spec(_token_record("issued")),
    "token_revoked": Spec(_token_record("revoked")),
}
#: commands the console sends itself (no path of their own under /api/)
RECORDS = ("token_issued", "token_revoked")
