"""The console's commands: what each checks and what it does (:data:`COMMANDS`).

Each command is a :class:`Spec`, a pair in PokerKit's verify/do style: ``verify(core,
args, t)`` raises, changing and copying nothing, exactly when applying the command would
refuse it and in the same words (the console's precheck asks it); applying the command
(:func:`engine.table.console.apply_command`) calls ``verify`` and then ``do(core, args, t)
-> (effects, detail)`` (``detail``: the audit's line).
Chips are ints, seats 1-based, times in seconds.  The commands on players are in
:mod:`engine.table.console_players`, the clock's in :mod:`engine.table.console_clock`;
here the hand's (a pot awarded by hand is split as at showdown, odd chips first to the
left of the button: TDA 20-A).  Dispatch and audit: :mod:`engine.table.console`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import parse_cards
from engine.effects import Effect, Notice
from engine.events import CardDrawn, DealerButton, Declaration, PlayerAction
from engine.table import console_players as players
from engine.table.console_args import need_between_hands, no_args, seat_number, table_seats, whole
from engine.table.console_args import text as _text
from engine.table.console_award import award_by_hand, verify_award_by_hand
from engine.table.console_base import ConsoleCommandError, ConsoleRefused
from engine.table.console_clock import (
    add_time,
    clock_command,
    jump_level,
    level_length,
    remove_time,
)
from engine.table.console_core import ConsoleCore
from engine.table.verify import verify_next_hand as verify_dealer_next_hand
from engine.table.verify import verify_player_action, verify_shoe_event
from engine.table.verify import verify_undo as verify_table_undo

Result = tuple[list[Effect], str]
Check = Callable[[ConsoleCore, dict[str, Any], float], None]
Run = Callable[[ConsoleCore, dict[str, Any], float], Result]
DECLARED = ("boxed_card", "wrong_seat", "seat_skipped", "button_out_of_position",
            "exposed_card")


@dataclass(frozen=True)
class Spec:
    """A command: its check and its deed, who may send it besides the director, and
    ``secret``: arguments the audit never shows (a keyed hole card)."""

    verify: Check
    do: Run
    roles: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()

    def public_args(self, args: dict[str, Any]) -> dict[str, Any]:
        return {k: ("(hidden)" if k in self.secret else v) for k, v in args.items()}


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


# --- chips ------------------------------------------------------------------------------
def verify_bet(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    seat = _actor(core, args)
    amount = whole(args, "amount", 1, 10**12)
    verify_player_action(core, PlayerAction(t=t, seat=seat, action="bet_or_raise_to",
                                            amount=amount))


def bet(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    seat, amount = args["seat"], args["amount"]
    effects = core._player_action(PlayerAction(t=t, seat=seat, action="bet_or_raise_to",
                                               amount=amount))
    return effects, f"seat {seat} bets or raises to {amount}"


def _all_in_action(core: ConsoleCore, seat: int, t: float) -> PlayerAction:
    """All-in: a raise to the seat's whole stack when it may raise, else a call."""
    hand = core.hand
    if hand is None:  # pragma: no cover - _actor found the hand
        raise ConsoleRefused("no hand is being played")
    top = hand.legal_actions().max_raise_to
    if top is not None:
        return PlayerAction(t=t, seat=seat, action="bet_or_raise_to", amount=top)
    return PlayerAction(t=t, seat=seat, action="check_or_call")


def verify_all_in(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    verify_player_action(core, _all_in_action(core, _actor(core, args), t))


def all_in(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    action = _all_in_action(core, args["seat"], t)
    effects = core._player_action(action)
    if action.amount is not None:
        return effects, f"seat {action.seat} all-in to {action.amount}"
    return effects, f"seat {action.seat} calls all-in"


def _keyed_action(action: str) -> tuple[Check, Run]:
    def verify(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
        verify_player_action(core, PlayerAction(t=t, seat=_actor(core, args), action=action))

    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        seat = args["seat"]
        effects = core._player_action(PlayerAction(t=t, seat=seat, action=action))
        return effects, f"seat {seat} {'folds' if action == 'fold' else 'checks or calls'}"
    return verify, run


def _showdown(action: str) -> tuple[Check, Run]:
    def verify(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
        seat = seat_number(core, args.get("seat"))
        hand = core.hand
        if hand is None or seat not in hand.showdown_pending:
            raise ConsoleRefused(f"seat {seat} has no hand to {action} now")
        verify_player_action(core, PlayerAction(t=t, seat=seat, action=action))

    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        seat = args["seat"]
        effects = core._player_action(PlayerAction(t=t, seat=seat, action=action))
        return effects, f"seat {seat} {action}s"
    return verify, run


def _winners(core: ConsoleCore, args: dict[str, Any]) -> list[int]:
    seats = args.get("seats")
    count = len(table_seats(core))
    if not isinstance(seats, list) or not seats or len(seats) > count:
        raise ConsoleCommandError(f"seats must be a list of 1..{count} seat numbers")
    winners = [seat_number(core, s) for s in seats]
    if len(set(winners)) != len(winners):
        raise ConsoleCommandError("a seat is named twice")
    return winners


def verify_award(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    verify_award_by_hand(core, _winners(core, args))


def award(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    return award_by_hand(core, _winners(core, args), t)


def verify_confirm_color_up(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    if not core.console.color_up_pending:
        raise ConsoleRefused("no color-up is waiting for confirmation")


def confirm_color_up(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    core.console.color_up_pending = False
    return [Notice("Color-up confirmed")], "color-up confirmed"


# --- dealing ----------------------------------------------------------------------------
def _declaration(core: ConsoleCore, args: dict[str, Any], t: float) -> Declaration:
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
    return Declaration(t=t, kind=kind, seat=seat, draw=draw)


def verify_declare(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    verify_shoe_event(core, _declaration(core, args, t))


def declare(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    ev = _declaration(core, args, t)
    effects = core._shoe_event(ev)
    return effects, f"declared {ev.kind.replace('_', ' ')}" + \
        (f" seat {ev.seat}" if ev.seat else "")


def _ruling(kind: str) -> tuple[Check, Run]:
    def verify(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
        note = _text(args, "note", required=kind == "override_ruling")
        if core.proc is None or core.proc.pending_ruling() is None:
            raise ConsoleRefused("no ruling is waiting")
        verify_shoe_event(core, Declaration(t=t, kind=kind, note=note))

    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        note = _text(args, "note", required=kind == "override_ruling")
        effects = core._shoe_event(Declaration(t=t, kind=kind, note=note))
        return effects, f"ruling {'overridden' if kind == 'override_ruling' else 'confirmed'}" \
            + (f" ({note})" if note else "")
    return verify, run


def next_hand_applies(core: ConsoleCore) -> bool:
    """Whether the dealer box's NEXT HAND does something now (the console shows its
    button only then): between hands, once the tournament has started and while it is
    not over; after a misdeal or a fouled deck, the hand dealt again (TDA 35-C); or the
    stub reshuffled that a ruling asks for (``TableCore._dealer_button``).  Never
    while a seat is to act.  At a venue table, between hands: once the director's ``go``
    for the next hand has come (engine/table/venue.py)."""
    proc, tour = core.proc, core.tournament
    venue = getattr(core, "venue", None)
    if venue is not None and not core.in_hand and not (proc is not None and proc.stopped):
        return not venue.broken and venue.go_hand > core.hand_number  # the director's go
    if core.console.ended or not tour.clock.started:
        return False
    if proc is not None and proc.stopped:
        return True
    if core.in_hand:
        return proc is not None and proc.expected_next()[:1] == ["stub_reshuffled"]
    return not core.finished


def verify_next_hand(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    # a venue table's first NEXT HAND starts its tournament (engine/table/venue.py)
    if not core.tournament.clock.started and getattr(core, "venue", None) is None:
        raise ConsoleRefused("start the tournament first")
    verify_dealer_next_hand(core, t)


def next_hand(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    return core._dealer_button(DealerButton(t=t, button="next_hand")), "next hand"


def _keyed_card(core: ConsoleCore, args: dict[str, Any], t: float) -> CardDrawn:
    text = args.get("card")
    if not isinstance(text, str) or len(text) > 3:
        raise ConsoleCommandError("card must be like \"As\" or \"Td\"")
    cards = parse_cards(text)
    if len(cards) != 1:
        raise ConsoleCommandError("key one card")
    if core.proc is None or not core.in_hand:
        raise ConsoleRefused("no hand is being dealt: next hand first")
    return CardDrawn(t=t, uid=core.registry.uid_of(cards[0]), draw=core.shoe_draws + 1)


def verify_card(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    verify_shoe_event(core, _keyed_card(core, args, t))


def card(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    effects = core._shoe_event(_keyed_card(core, args, t))
    core.console.keyed_hand = core.hand_number
    return effects, f"card keyed by hand (draw {core.shoe_draws})"


def undo_applies(core: ConsoleCore) -> bool:
    """Whether UNDO does something now (the console shows **Undo last action** only then):
    the last action of this hand, before the next card is drawn (``TableCore._undo``)."""
    return not core.console.ended and core.undo is not None and core.proc is not None


def verify_undo(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    no_args(args)
    verify_table_undo(core)


def undo(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    return core._undo(), "last action undone"


def verify_end_tournament(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
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


def end_tournament(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
    core.console.ended = True
    tour = core.tournament
    return [Notice("The tournament has ended")], \
        f"tournament ended after {tour.hands_played} hands; {len(tour.active())} still in"


def verify_token_record(core: ConsoleCore, args: dict[str, Any], t: float) -> None:
    """A console token issued or revoked (the token store holds the token; the journal
    and the audit hold who did it and when): ``{"id": ..., "role": ...}``."""
    _text(args, "id")
    if args.get("role") not in ("director", "dealer"):
        raise ConsoleCommandError("role must be director or dealer")
    extra = set(args) - {"id", "role"}
    if extra:
        raise ConsoleCommandError(f"unknown argument {sorted(extra)[0][:20]!r}")


def _token_record(action: str) -> Run:
    def run(core: ConsoleCore, args: dict[str, Any], t: float) -> Result:
        return [], f"{args['role']} token {_text(args, 'id')} {action}"
    return run


def _spec(pair: tuple[Check, Run], roles: tuple[str, ...] = ()) -> Spec:
    return Spec(pair[0], pair[1], roles)


DEALER = ("dealer",)
COMMANDS: dict[str, Spec] = {
    "register": Spec(players.verify_register, players.register),
    "seat_draw": Spec(players.verify_seat_draw, players.seat_draw),
    "start": Spec(players.verify_start, players.start),
    "start_round": Spec(players.verify_start_round, players.start),
    "late_entry": Spec(players.verify_late_entry, players.late_entry),
    "away": Spec(players.verify_away, players.away),
    "back": Spec(players.verify_back, players.back),
    "remove": Spec(players.verify_remove, players.remove),
    "eliminate": Spec(players.verify_eliminate, players.eliminate),
    "undo_elimination": Spec(players.verify_undo_elimination, players.undo_elimination),
    "bet": Spec(verify_bet, bet, DEALER), "all_in": Spec(verify_all_in, all_in, DEALER),
    "fold": _spec(_keyed_action("fold"), DEALER),
    "call": _spec(_keyed_action("check_or_call"), DEALER),
    "show": _spec(_showdown("show"), DEALER), "muck": _spec(_showdown("muck"), DEALER),
    "stack": Spec(players.verify_stack, players.stack), "award": Spec(verify_award, award),
    "confirm_color_up": Spec(verify_confirm_color_up, confirm_color_up),
    "pause": _spec(clock_command("pause", "clock paused")),
    "resume": _spec(clock_command("resume", "clock resumed")),
    "add_time": _spec(add_time), "remove_time": _spec(remove_time),
    "jump_level": _spec(jump_level), "level_length": _spec(level_length),
    "declare": Spec(verify_declare, declare, DEALER),
    "confirm_ruling": _spec(_ruling("confirm_ruling"), DEALER),
    "override_ruling": _spec(_ruling("override_ruling"), DEALER),
    "next_hand": Spec(verify_next_hand, next_hand, DEALER),
    "card": Spec(verify_card, card, DEALER, secret=("card",)),
    "undo": Spec(verify_undo, undo, DEALER),
    "end_tournament": Spec(verify_end_tournament, end_tournament),
    "token_issued": Spec(verify_token_record, _token_record("issued")),
    "token_revoked": Spec(verify_token_record, _token_record("revoked")),
}
#: commands the console sends itself (no path of their own under /api/)
RECORDS = ("token_issued", "token_revoked")
