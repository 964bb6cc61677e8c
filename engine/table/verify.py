"""The table core's own steps, verified without changing or copying anything.

Each ``verify_*`` raises what the step of :class:`engine.table.core.TableCore` would raise
for the same input now, in the same words, and changes nothing (PokerKit's verify-then-do):
the console's precheck (:func:`engine.table.console.precheck`) asks them instead of trying
a command on a copy of the table.  The steps call the table-state checks here themselves
(:func:`need_proc`, :func:`check_shoe_event`, :func:`verify_undo`), and the dealing
procedure verifies its own inputs as it applies them
(:meth:`engine.dealing.procedure.DealingProcedure.verify`).  The core hands itself in as
an :class:`engine.table.console_core.ConsoleCore` (it imports this module).
"""

from __future__ import annotations

from engine.dealing.procedure import DealingProcedure
from engine.errors import InvalidInputError
from engine.events import CardDrawn, Declaration, Event, PlayerAction
from engine.table.console_core import ConsoleCore
from engine.table.dealer_commands import TableStateError
from engine.table.venue import verify_deal

DECISIONS = ("confirm_ruling", "override_ruling")


def verify_time(core: ConsoleCore, t: float) -> None:
    """Raises InvalidInputError for an input at ``t`` (seconds) before the last one: the
    table's times are monotonic."""
    if t < core.last_t:
        raise InvalidInputError(f"event time {t} is before the last event ({core.last_t}); "
                                "times are monotonic")


def need_proc(core: ConsoleCore) -> DealingProcedure:
    """The dealing procedure of the hand being dealt (a void hand's too).

    Raises:
        TableStateError: no hand is being dealt.
    """
    proc = core.proc
    if proc is None or proc.hand.is_complete and not proc.stopped:
        raise TableStateError("no hand is being dealt: press NEXT HAND")
    return proc


def verify_player_action(core: ConsoleCore, ev: PlayerAction) -> None:
    """Raises as the core's player action ``ev`` would (:func:`need_proc`, then
    :meth:`DealingProcedure.verify`: not the seat's turn, an amount out of range...)."""
    need_proc(core).verify(ev)


def check_shoe_event(core: ConsoleCore, ev: Event) -> DealingProcedure:
    """The table's own checks of an event for the shoe (a card, a declaration, a reload,
    a reshuffle); returns the procedure that takes it.

    Raises:
        TableStateError: no hand is being dealt, or an irregularity is declared between
            hands or in a void hand (its ruling would name that hand's mucked cards).
    """
    proc = core.proc
    if proc is None:
        if isinstance(ev, CardDrawn):
            raise TableStateError("a card was drawn between hands: press NEXT HAND first")
        raise TableStateError("no hand is being dealt")
    if (isinstance(ev, Declaration) and ev.kind not in DECISIONS
            and (proc.hand.is_complete or proc.stopped)):
        raise TableStateError("no hand is being dealt: a declaration is about the hand "
                              "in play")
    return proc


def verify_shoe_event(core: ConsoleCore, ev: Event) -> None:
    """Raises as the core's shoe event ``ev`` would (:func:`check_shoe_event`, then
    :meth:`DealingProcedure.verify`)."""
    check_shoe_event(core, ev).verify(ev)


def verify_undo(core: ConsoleCore) -> None:
    """Raises TableStateError unless the UNDO of the last action fits now."""
    if core.undo is None or core.proc is None:
        raise TableStateError("nothing to undo (only the last action of this hand, "
                              "before the next card is drawn)")


def verify_next_hand(core: ConsoleCore, t: float) -> None:
    """Raises as the dealer box's NEXT HAND at ``t`` (seconds) would: after a misdeal it
    deals the hand again and mid-hand it reports the stub reshuffled that a ruling asks for
    (both taken); otherwise a new hand needs the last one finished, at a venue table the
    director's go (:func:`engine.table.venue.verify_deal`), the tournament not
    over, two players left when the clock reaches ``t`` (a qualifier whose time is up ends
    first) and no break at ``t`` (:meth:`Tournament.verify_hand_started`).

    Raises:
        TableStateError, ClockError, RegistrationError: in the words of
            ``TableCore._next_hand`` and of the tournament.
    """
    proc, tour = core.proc, core.tournament
    if proc is not None and proc.stopped:
        return
    if core.in_hand and proc is not None and proc.expected_next()[:1] == ["stub_reshuffled"]:
        return
    if core.in_hand:
        raise TableStateError("a hand is in progress: finish it first")
    verify_deal(core)  # at a venue table: the director's go
    if core.finished:
        raise TableStateError("the tournament is over")
    if not tour.clock.started or (tour.round_over and tour.structure.qualifiers is not None):
        tour.verify_start()  # a fresh clock (or round) at its first level: no break yet
        return
    if len(tour.active()) < 2 or _round_ends(core, t):
        raise TableStateError("fewer than two players are left")
    tour.verify_hand_started(t)


def _round_ends(core: ConsoleCore, t: float) -> bool:
    """Whether the clock brought to ``t`` ends the qualifier or final being played (its
    time up; :func:`engine.tournament.house_rounds.check_round_end`): its players are all
    placed then."""
    tour = core.tournament
    return (tour.structure.qualifiers is not None and not tour.round_over
            and tour.current is None and tour.clock.at(t).finished)
