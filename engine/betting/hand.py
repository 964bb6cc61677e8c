"""One hand of No-Limit Hold'em for 2 to 10 seats: pure rules, no I/O, no clock.

The API follows docs/design/contracts.md, section "engine/betting/hand.py"::

    hand = Hand(HandConfig(stacks={1: 1000, 3: 800, 4: 1200}, button=4,
                           small_blind=10, big_blind=20))
    hand.deal_from(deck)            # hole cards; stops when betting opens
    hand.legal_actions()            # LegalActions(can_fold, can_check, ..., max_raise_to)
    hand.bet_or_raise_to(60); hand.check_or_call(); hand.fold()
    hand.deal_from(deck)            # burn + flop, ...

Players are kept by index in clockwise order from the first dealt-in seat left of the
button (index 0); this is also the TDA 20-A order for odd chips and the order in which
the hole cards are dealt.  Rules and their sources are listed in docs/rules.md:

* forced bets (:mod:`engine.betting.forced_bets`): antes, blinds, big-blind ante, live
  posts, the bonus; the seat order, the blind positions and the first seat to act.
  Preflop the others must match the full big blind even if the big blind is short.
* betting: bet/raise *to* a total; minimum raise = largest prior full bet or raise this
  street (TDA 43); an all-in below a full raise does not reopen the betting for players
  who already acted unless short all-ins add up to a full raise (TDA 47); no raise when
  every opponent is all-in; house option ``raise_rule="double"``.
* pots: :mod:`engine.betting.pots` (side pots, uncalled bets, odd chip TDA 20-A, merge-down).
* showdown (:mod:`engine.betting.showdown`): all hands tabled when someone is all-in
  (TDA 16); otherwise the last aggressor on the river shows first, else the first seat
  left of the button (TDA 17); others may show or muck; pots are awarded when nothing is
  pending.

The hand's state and its reading API (stacks, bets, pots, legal actions) are in
:mod:`engine.betting.hand_state`; this module holds what changes them.

Errors: :class:`IllegalActionError` (a rejected operation changes nothing; the message
says what is legal), :class:`InvalidHandConfigError` for a bad config,
:class:`ChipConservationError` (an internal error) if the chips ever stop adding up.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from typing import Any

from engine.betting import hand_views
from engine.betting.chip_input import interpret_chips
from engine.betting.hand_config import (
    RAISE_RULES,
    ChipConservationError,
    ChipsInterpretation,
    HandConfig,
    InvalidHandConfigError,
)
from engine.betting.hand_flow import HandFlow
from engine.betting.hand_record import inputs_of, replay_inputs
from engine.betting.hand_state import COMPLETE, FIXED, SHOWDOWN, HandState
from engine.betting.operations import (
    BetOrRaiseTo,
    Burn,
    CheckOrCall,
    DeadHand,
    DealBoard,
    DealHole,
    Fold,
    MuckHand,
    ShowHand,
    VoidHand,
)
from engine.cards import Card
from engine.errors import IllegalActionError, InvalidInputError
from engine.views import LegalActions, SeatDisplayView, TablePublicView

#: each card id (0..51) as a 1-tuple, made once: the hand keeps its dealt ids as tuples
#: (``_hole_ids``, ``_board_ids``) without building a 1-tuple a card, and the first card's
#: ``() + (i,)`` is the shared ``(i,)`` itself
_ID1 = tuple((i,) for i in range(52))

#: a check's and a fold's records by seat (1..10): the operation as the hand keeps it and
#: the voluntary action (:meth:`Hand.actions_in_turn`), the same tuples for every hand
_CHECK_OP = tuple((CheckOrCall, s, 0, False) for s in range(11))
_CHECKED = tuple((s, "check", 0) for s in range(11))
_FOLD_OP = tuple((Fold, s) for s in range(11))
_FOLDED = tuple((s, "fold", 0) for s in range(11))

__all__ = ["FIXED", "RAISE_RULES", "ChipConservationError", "ChipsInterpretation", "Hand",
           "HandConfig", "HandState", "InvalidHandConfigError", "LegalActions"]


class Hand(HandFlow):
    """One hand; see the module docstring.  Its state and reading API are those of
    :class:`engine.betting.hand_state.HandState`; what follows from the rules alone is in
    :class:`engine.betting.hand_flow.HandFlow`; this class adds the inputs that change
    it.  Not thread-safe (the loop owns it)."""

    __slots__ = ()

    # ------------------------------------------------------------------ dealing
    def _card_error(self, kind: str, seat: int | None, card: Any) -> str | None:
        if not isinstance(card, Card):
            return f"{card!r} is not a Card"
        due = self.next_deal()
        if due is None:
            return f"no card is due now ({self._state_words()})"
        if due[0] != kind or (kind == "hole" and due[1] != seat):
            what = f"{kind} card" + (f" for seat {seat}" if kind == "hole" else "")
            exp = due[0] + (f" card for seat {due[1]}" if due[0] == "hole" else " card")
            return f"cannot deal a {what}: the next card due is a {exp}"
        if card.id in self._seen:
            return f"card {card} was already dealt in this hand"
        return None

    def can_deal_hole(self, seat: int, card: Card) -> bool:
        return self._card_error("hole", seat, card) is None

    def verify_deal_hole(self, seat: int, card: Card) -> None:
        """Raises IllegalActionError unless a hole card for ``seat`` is due and ``card`` is new."""
        err = self._card_error("hole", seat, card)
        if err:
            raise IllegalActionError(err)

    def deal_hole(self, seat: int, card: Card) -> None:
        """Deal ``card`` face down to ``seat`` (clockwise from left of the button, two rounds)."""
        q = self._queue
        seen = self._seen
        if not (q and (due := q[0])[1] == seat and due[0] == "hole" and card.__class__ is Card
                and (cid := card.id) not in seen):
            self.verify_deal_hole(seat, card)
            cid = card.id
        del q[0]
        i = self._index[seat]
        self._hole[i] += (card,)
        self._hole_ids[i] += _ID1[cid]
        seen.add(cid)
        self._ops.append((DealHole, seat, card))
        if not q:  # the last card due: betting opens, or the round ends (chips move)
            self._after_card()

    def dead_hand(self, seat: int) -> None:
        """TDA 37: ``seat`` (1-based), still due a hole card, acted with too few cards, so its
        hand is dead: the hole cards still due to it are not dealt, it is out of the hand as
        if folded (chips it posted stay in the pot), and the deal or the betting goes on.

        Raises:
            IllegalActionError: no hole card is due to ``seat`` (or it is not dealt in).
        """
        i = self._seat_index(seat)
        due = ("hole", seat)
        if due not in self._queue:
            raise IllegalActionError(f"seat {seat} is due no hole card: only a hand dealt "
                                     "too few cards is dead this way")
        self._queue[:] = [x for x in self._queue if x != due]
        self._folded[i] = True
        self._n_live -= 1
        if self._stack[i] > 0:
            self._active.remove(i)
        self._ops.append((DeadHand, seat))
        if not self._queue:
            if self._n_live == 1:
                self._end_by_folds()
            else:
                self._begin_betting()
        self._check()

    def can_burn(self, card: Card) -> bool:
        return self._card_error("burn", None, card) is None

    def verify_burn(self, card: Card) -> None:
        err = self._card_error("burn", None, card)
        if err:
            raise IllegalActionError(err)

    def burn(self, card: Card) -> None:
        """Burn ``card`` (one before each of flop, turn, river; TDA 38)."""
        q = self._queue
        seen = self._seen
        if not (q and q[0][0] == "burn" and card.__class__ is Card
                and (cid := card.id) not in seen):
            self.verify_burn(card)
            cid = card.id
        del q[0]
        self._burns.append(card)
        seen.add(cid)
        self._ops.append((Burn, card))
        if not q:
            self._after_card()

    def can_deal_board(self, card: Card) -> bool:
        return self._card_error("board", None, card) is None

    def verify_deal_board(self, card: Card) -> None:
        err = self._card_error("board", None, card)
        if err:
            raise IllegalActionError(err)

    def deal_board(self, card: Card) -> None:
        """Turn ``card`` face up on the board."""
        q = self._queue
        seen = self._seen
        if not (q and q[0][0] == "board" and card.__class__ is Card
                and (cid := card.id) not in seen):
            self.verify_deal_board(card)
            cid = card.id
        del q[0]
        self._board.append(card)
        self._board_ids += _ID1[cid]
        seen.add(cid)
        self._ops.append((DealBoard, card))
        if not q:
            self._after_card()

    def deal_from(self, cards: Iterable[Card]) -> int:
        """Deal every card due now from ``cards`` (top first), skipping cards already used
        in this hand, so the same deck can be passed street after street.  Returns the
        number of cards dealt.  Raises IllegalActionError if ``cards`` runs out."""
        it = iter(cards)
        dealt = 0
        seen = self._seen
        while self._queue:
            kind, seat = self._queue[0]
            for card in it:
                if card.id not in seen:
                    break
            else:
                raise IllegalActionError("ran out of cards while dealing")
            if kind == "hole":
                self.deal_hole(seat, card)  # type: ignore[arg-type]
            elif kind == "burn":
                self.burn(card)
            else:
                self.deal_board(card)
            dealt += 1
        return dealt

    # ------------------------------------------------------------------ actions
    def can_fold(self) -> bool:
        return self._actor is not None

    def verify_fold(self) -> None:
        if self._actor is None:
            raise IllegalActionError(f"cannot fold: {self.legal_words()}")

    def _named(self, seat: int | None) -> None:
        """Refuse an action that names a seat other than the seat to act."""
        if seat is not None and (self._actor is None or self._seats[self._actor] != seat):
            who = (f"seat {self._seats[self._actor]} is" if self._actor is not None
                   else "no seat is")
            raise IllegalActionError(f"seat {seat} is not to act; {who}")

    def fold(self, seat: int | None = None) -> None:
        """The seat to act folds (allowed even when a check is possible; it binds).
        ``seat`` (1-based), when given, must be the seat to act (IllegalActionError)."""
        if seat is not None:
            self._named(seat)
        i = self._actor
        if i is None:
            raise IllegalActionError(f"cannot fold: {self.legal_words()}")
        self._folded[i] = True
        self._n_live -= 1
        self._active.remove(i)
        seat = self._seats[i]
        self._ops.append(_FOLD_OP[seat])
        self._voluntary.append(_FOLDED[seat])
        self._to_act.pop()
        self._advance()

    def can_check_or_call(self) -> bool:
        return self._actor is not None

    def verify_check_or_call(self) -> None:
        if self._actor is None:
            raise IllegalActionError(f"cannot check or call: {self.legal_words()}")

    def check_or_call(self, seat: int | None = None) -> None:
        """The seat to act checks, or calls (all-in if the stack is short).  ``seat``, when
        given, must be the seat to act (IllegalActionError)."""
        if seat is not None:
            self._named(seat)
        i = self._actor
        if i is None:
            raise IllegalActionError(f"cannot check or call: {self.legal_words()}")
        cur = self._cur
        self._acted[i] = True
        self._faced[i] = cur
        seat = self._seats[i]
        bet = self._bet
        amt = cur - bet[i]
        if amt > 0:  # a call (all-in when the stack is short)
            st = self._stack[i]
            all_in = amt >= st
            if all_in:
                amt = st
                self._active.remove(i)
            self._stack[i] = st - amt
            bet[i] += amt
            self._behind -= amt
            self._in_bets += amt
            self._voluntary.append((seat, "call", amt))
            self._ops.append((CheckOrCall, seat, amt, all_in))
        else:  # a check: the same records for every check by this seat, made once
            self._voluntary.append(_CHECKED[seat])
            self._ops.append(_CHECK_OP[seat])
        self._to_act.pop()
        self._advance()

    def _raise_error(self, amount: Any) -> str | None:
        i = self._actor
        if i is None:
            return f"cannot bet or raise: {self.legal_words()}"
        if not isinstance(amount, int) or isinstance(amount, bool):
            return f"bet or raise amount {amount!r} must be an int; {self.legal_words()}"
        rb = self._raise_bounds(i)
        if rb is None:
            return f"seat {self._seats[i]} may not bet or raise now; {self.legal_words()}"
        if not rb[0] <= amount <= rb[1]:
            return f"seat {self._seats[i]} cannot bet or raise to {amount}; {self.legal_words()}"
        return None

    def can_bet_or_raise_to(self, amount: int) -> bool:
        return self._raise_error(amount) is None

    def verify_bet_or_raise_to(self, amount: int) -> None:
        """Raises IllegalActionError naming the legal range unless ``amount`` is legal."""
        err = self._raise_error(amount)
        if err:
            raise IllegalActionError(err)

    def all_in(self, seat: int | None = None) -> None:
        """The seat to act puts its whole stack in: a bet or raise to everything it has
        when that is allowed, else a call (all-in when short).  ``seat``, when given, must
        be the seat to act (IllegalActionError)."""
        self._named(seat)
        la = self.legal_actions()
        if la.max_raise_to is not None:
            self.bet_or_raise_to(la.max_raise_to)
        else:
            self.check_or_call()

    def bet_or_raise_to(self, amount: int, seat: int | None = None) -> None:
        """The seat to act bets or raises *to* ``amount`` (its total bet this street).
        ``seat``, when given, must be the seat to act (IllegalActionError)."""
        if seat is not None:
            self._named(seat)
        i = self._actor
        rb = None if i is None or amount.__class__ is not int else self._raise_bounds(i)
        if rb is None or not rb[0] <= amount <= rb[1]:  # not a plain legal int: the full check
            err = self._raise_error(amount)
            if err:
                raise IllegalActionError(err)
        assert i is not None
        cur = self._cur
        added = amount - self._bet[i]
        left = self._stack[i] - added
        self._stack[i] = left
        self._bet[i] = amount
        self._behind -= added
        self._in_bets += added
        inc = amount - cur
        full = inc >= self._min_inc
        if full:
            self._min_inc = inc
        self._cur = amount
        self._acted[i] = True
        self._faced[i] = amount
        self._aggressor = i
        a = self._active
        all_in = left == 0
        if all_in:
            a.remove(i)
        seat = self._seats[i]
        self._ops.append((BetOrRaiseTo, seat, amount, added, all_in, full))
        self._voluntary.append((seat, "bet" if cur == 0 else "raise", added))
        # everyone else with chips behind now faces more than they put in: to act again,
        # in order from the raiser's left (the one to act last first)
        k = bisect_right(a, i)
        t = a[k:] + a[:k]
        if t and t[-1] == i:
            t.pop()
        t.reverse()
        self._to_act = t
        self._advance()

    def actions_in_turn(self) -> tuple[tuple[int, str, int], ...]:
        """Voluntary actions so far: ``(seat, kind, chips_added)``, kind in ``fold``,
        ``check``, ``call``, ``bet``, ``raise`` (blinds and antes excluded)."""
        return tuple(self._voluntary)

    # ------------------------------------------------------------------ input helpers
    def interpret_chips(self, seat: int, amount: int, *, declared: Any = None,
                        chip_count: int = 1) -> ChipsInterpretation:
        """What ``amount`` chips pushed forward by ``seat`` (the seat to act) mean: the
        one-chip rule and binding verbal declarations.  See
        :func:`engine.betting.chip_input.interpret_chips` (nothing is applied)."""
        return interpret_chips(self, seat, amount, declared=declared, chip_count=chip_count)

    # ------------------------------------------------------------------ showdown
    def _showdown_error(self, seat: int, what: str) -> str | None:
        if self._street != SHOWDOWN:
            return f"cannot {what} seat {seat}: no showdown now ({self._state_words()})"
        i = self._index.get(seat)
        if i is None or i not in self._sd_order or self._shown[i] or self._mucked[i]:
            pend = ", ".join(map(str, self.showdown_pending))
            return f"cannot {what} seat {seat}: seats still to show or muck: {pend}"
        return None

    def can_show(self, seat: int) -> bool:
        return self._showdown_error(seat, "show") is None

    def verify_show(self, seat: int) -> None:
        err = self._showdown_error(seat, "show")
        if err:
            raise IllegalActionError(err)

    def show(self, seat: int) -> None:
        """``seat`` tables its hand at showdown."""
        i = self._index.get(seat)
        if i is None or self._shown[i] or self._mucked[i] or self._street != SHOWDOWN \
                or i not in self._sd_order:
            self.verify_show(seat)  # raises IllegalActionError, saying why
            i = self._index[seat]
        self._shown[i] = True
        self._ops.append((ShowHand, seat, self._hole[i], False))
        self._sd_pending -= 1
        if not self._sd_pending:  # the last hand to show or muck: the pots are awarded
            self._award()  # (a show leaves as many hands not mucked: at least two)
        self._check()

    def can_muck(self, seat: int) -> bool:
        return self._showdown_error(seat, "muck") is None

    def verify_muck(self, seat: int) -> None:
        err = self._showdown_error(seat, "muck")
        if err:
            raise IllegalActionError(err)

    def muck(self, seat: int) -> None:
        """``seat`` mucks at showdown and gives up its claim to every pot."""
        self.verify_muck(seat)
        i = self._index[seat]
        self._mucked[i] = True
        self._ops.append((MuckHand, seat))
        self._sd_pending -= 1
        self._maybe_award()
        self._check()

    # ------------------------------------------------------------------ void
    def void(self, reason: str) -> None:
        """Void the hand (misdeal, fouled deck; TDA 35-C/35-E): every chip put in goes back;
        the hand is then complete with everyone's starting stack.  The bonus is set aside
        (counted by :meth:`total_chips`).  Raises IllegalActionError if already complete."""
        if self._street == COMPLETE:
            raise IllegalActionError("cannot void: the hand is already complete")
        self._stack = list(self._start)
        self._bet = [0] * self._n
        self._behind = sum(self._stack)
        self._in_bets = 0
        self._pot_total = 0
        self._voided_bonus = self.config.bonus
        self._actor = None
        self._queue = []
        self._void_reason = str(reason)
        self._street = COMPLETE
        self.is_complete = True
        self._ops.append((VoidHand, str(reason)))
        self._check()

    # ------------------------------------------------------------------ journal
    def to_dict(self) -> dict[str, Any]:
        """JSON-able snapshot ``{"config": ..., "inputs": [...]}`` (includes private cards:
        for the journal only; :mod:`engine.betting.hand_record`)."""
        return {"config": self.config.to_dict(), "inputs": inputs_of(self._records())}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Hand:
        """Rebuild a hand from :meth:`to_dict` by replaying its inputs.

        Raises:
            InvalidInputError: malformed snapshot; IllegalActionError: an input no longer legal.
        """
        try:
            hand = cls(HandConfig.from_dict(d["config"]))
            inputs = list(d["inputs"])
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"bad hand snapshot: {exc}") from None
        replay_inputs(hand, inputs)
        return hand

    # ------------------------------------------------------------------ views
    def public_view(self, names: Mapping[int, str] | None = None) -> TablePublicView:
        """The table as the room sees it (:class:`engine.views.TablePublicView`); never an
        unrevealed hole card."""
        return hand_views.public_view(self, names)

    def seat_view(self, seat: int) -> SeatDisplayView:
        """What ``seat``'s own display shows (:class:`engine.views.SeatDisplayView`)."""
        return hand_views.seat_view(self, seat)
