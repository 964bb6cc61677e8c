"""Player actions through the dealing procedure: applied when the betting is open, held
while cards are still due (and applied, in order, once they are in).  A button that acts
while it is short its second card has a dead hand (TDA 37, :meth:`PlayerActions._button_dead`).

A mixin of :class:`engine.dealing.procedure.DealingProcedure`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.betting.hand import Hand
from engine.cards import ALL_CARDS
from engine.dealing.outcomes import ActionApplied, ActionHeld, Note, Outcome
from engine.errors import IllegalActionError
from engine.events import ACTIONS, PlayerAction, event_from_dict, event_to_dict

if TYPE_CHECKING:  # pragma: no cover
    from engine.dealing.deal_state import DealState
    from engine.dealing.detection import Detection



class PlayerActions:
    """Action handlers (mixed into DealingProcedure)."""

    s: DealState
    _sync: Callable[[], None]
    _ruling: Callable[..., list[Outcome]]
    _completion: Callable[..., list[Outcome]]
    detection: Callable[[], Detection]

    # ------------------------------------------------------------------ actions
    def verify_action(self, ev: PlayerAction) -> None:
        """Refuse an action before anything changes (PokerKit's verify-then-do): an unknown
        action, play stopped, the hand over, or, with the betting open and no action held,
        one the hand does not allow now (not the seat's turn, a bet or raise out of its
        range: TDA 40-43).  An action pressed while cards are still due is judged when it
        is taken (:meth:`_on_action`).

        Raises:
            IllegalActionError: the action is refused; the message says what is legal.
        """
        s = self.s
        h = s.hand
        if ev.action not in ACTIONS:
            raise IllegalActionError(f"unknown action {ev.action!r}; expected one of "
                                     f"{', '.join(ACTIONS)}")
        if s.stopped:
            raise IllegalActionError(f"play is stopped ({s.stopped.lower()}): the floor "
                                     "decides the misdeal, then reload the shoe")
        if h.is_complete:
            raise IllegalActionError("the hand is over")
        if not (s.due or s.held or h.next_deal() is not None):
            _verify_on(h, ev, ev.action)

    def betting_open(self) -> bool:
        """Whether an action now is judged whole by :meth:`verify_action` and taken as it
        is: play not stopped, the hand not over, no card due and no action held."""
        s = self.s
        h = s.hand
        return not (s.stopped or s.due or s.held or h.is_complete) and h.next_deal() is None

    def _on_action(self, ev: PlayerAction) -> list[Outcome]:
        """Take an action :meth:`verify_action` let through (the procedure's ``apply``)."""
        s = self.s
        h = s.hand
        act = ev.action
        if s.due or h.next_deal() is not None or s.held:
            self._probe(ev, act)  # refused here if it could never be legal
            if self._button_acts_short(ev, act):
                return self._button_dead(ev, act)
            outs: list[Outcome] = self.detection().action_while_dealing(ev, act)
            if any(isinstance(o, ActionHeld) for o in outs) or s.stopped:
                if not s.stopped:
                    s.held.append(event_to_dict(ev))
                return outs
            return outs + self._apply_now(ev, act)
        return self._apply_now(ev, act)

    def _button_acts_short(self, ev: PlayerAction, act: str) -> bool:
        """The button bets, calls, checks or folds while its second card is the only hole
        card still due (D10)."""
        s = self.s
        holes = [x for x in s.due if x.startswith(("hole:", "replace:"))]
        return (act in ("fold", "check_or_call", "bet_or_raise_to") and ev.seat == s.cfg.button
                and holes == [f"hole:{s.cfg.button}"] and not s.hole_buf.get(ev.seat))

    def _button_dead(self, ev: PlayerAction, act: str) -> list[Outcome]:
        """D10 after the button acted (TDA 37): a button that acts with too few cards has a
        dead hand.  Its action is recorded (a ruling and a note say what it was), its card
        goes to the muck, the actions held before it are applied in order and play goes on;
        nothing already recorded is dropped."""
        s = self.s
        b = s.cfg.button
        s.due.remove(f"hole:{b}")
        s.hand.dead_hand(b)
        said = {"fold": "folded", "check_or_call": "checked or called",
                "bet_or_raise_to": f"bet or raised to {ev.amount}"}[act]
        outs = self._ruling(
            "BUTTON_DEAD", f"The button (seat {b}) {said} with only one card.",
            "The button's hand is dead (TDA 37): muck its card and deal it no other. The "
            "actions already taken stand and the action continues.", ev.t)
        outs.append(Note(f"seat {b} {act}: the hand is dead, the action does not play"))
        self._sync()
        return outs + self._apply_held() + self._completion()

    def _apply_now(self, ev: PlayerAction, act: str, verified: bool = False) -> list[Outcome]:
        """Apply ``act`` to the hand now (``verified``: :meth:`verify_action` judged it
        whole with the betting open, and nothing changed since)."""
        s = self.s
        street = s.hand.street
        if _act_on(s.hand, ev, act, verified):
            s.street_actions[street] = s.street_actions.get(street, 0) + 1
        outs: list[Outcome] = [ActionApplied(ev.seat, act, ev.amount)]
        self._sync()
        return outs + self._completion()

    def _apply_held(self) -> list[Outcome]:
        """Apply the held actions, in the order they were pressed, once the betting is open
        (no card due).  None is ever dropped: one that no longer applies is reported."""
        s = self.s
        outs: list[Outcome] = []
        while s.held and not s.stopped and not s.due and s.hand.next_deal() is None \
                and not s.hand.is_complete:
            ev = event_from_dict(s.held.pop(0))
            assert isinstance(ev, PlayerAction)
            act = ev.action
            try:
                outs += self._apply_now(ev, act)
            except IllegalActionError as exc:
                outs.append(Note(f"the held action of seat {ev.seat} ({act}) no longer "
                                 f"applies: {exc}"))
        return outs

    def probe_hand(self, extra: PlayerAction | None = None) -> Hand:
        """A copy of the hand with every card still due filled in (placeholders) and the
        held actions (then ``extra``) applied: what the betting will be once the cards are
        in.  Raises ``IllegalActionError`` if an action could not be applied."""
        s = self.s
        h = s.hand.copy()
        used = set(s.seen) | {c.id for cs in s.hole_buf.values() for c in cs}
        used |= {c.id for c in h.board}
        filler = (c for c in ALL_CARDS if c.id not in used)
        while not h.is_complete:
            nd = h.next_deal()
            if nd is None:
                break
            if nd[0] == "hole" and nd[1] is not None:
                h.deal_hole(nd[1], next(filler))
            elif nd[0] == "burn":
                h.burn(next(filler))
            else:
                h.deal_board(next(filler))
        for d in s.held + ([event_to_dict(extra)] if extra is not None else []):
            ev = event_from_dict(d)
            assert isinstance(ev, PlayerAction)
            _act_on(h, ev, ev.action)
        return h

    def _probe(self, ev: PlayerAction, act: str) -> None:
        if act in ("fold", "check_or_call", "bet_or_raise_to"):
            self.probe_hand(ev)


def _verify_on(h: Hand, ev: PlayerAction, act: str) -> None:
    """Raise ``IllegalActionError`` unless ``act`` by ``ev.seat`` is legal on ``h`` now
    (naming the seat to act when it is another seat's turn); changes nothing."""
    if act == "show":
        h.verify_show(ev.seat)
    elif act == "muck":
        h.verify_muck(ev.seat)
    elif h.actor != ev.seat:
        who = f"seat {h.actor} is" if h.actor is not None else "no seat is"
        raise IllegalActionError(f"seat {ev.seat} is not to act; {who}")
    elif act == "fold":
        h.verify_fold()
    elif act == "check_or_call":
        h.verify_check_or_call()
    elif ev.amount is None:
        raise IllegalActionError("bet_or_raise_to needs an amount (the raise-to total)")
    else:
        h.verify_bet_or_raise_to(int(ev.amount))


def _act_on(h: Hand, ev: PlayerAction, act: str, verified: bool = False) -> bool:
    """Apply ``act`` to ``h`` for ``ev.seat`` once :func:`_verify_on` allows it (asked here
    unless ``verified``: it just did); True for a betting action (not show/muck).  Raises
    ``IllegalActionError`` when it does not."""
    if not verified:
        _verify_on(h, ev, act)
    if act == "show":
        h.show(ev.seat)
        return False
    if act == "muck":
        h.muck(ev.seat)
        return False
    if act == "fold":
        h.fold()
    elif act == "check_or_call":
        h.check_or_call()
    else:
        h.bet_or_raise_to(int(ev.amount))  # type: ignore[arg-type]  # verified: not None
    return True
