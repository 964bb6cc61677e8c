"""What follows from the rules alone in one hand of No-Limit Hold'em: :class:`HandFlow`,
between :class:`engine.betting.hand_state.HandState` (the state and its reading API) and
:class:`engine.betting.hand.Hand` (the inputs: cards dealt, actions, shows and mucks).

After each input the flow finds the seat to act next or ends the betting round: the
uncalled bet goes back, the bets go into the pot, the next street's cards are due, the
showdown starts (every hand tabled when someone is all-in, TDA 16) and the pots are
awarded (:mod:`engine.betting.showdown`), or the last player left wins the pot.

The seat to act next is kept, not searched for: :attr:`HandState._to_act` lists the
players still to act this round (not folded, chips behind, and not acted since the
round opened or facing more than they put in), the one to act last first.  It is filled
when a round opens and on every bet or raise (from :attr:`HandState._active`, the
players not folded with chips behind), and popped as each player acts.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from operator import add

from engine.betting.hand_state import COMPLETE, PREFLOP, RIVER, SHOWDOWN, HandState
from engine.betting.operations import AwardPot, ReturnUncalled, ShowHand
from engine.betting.pots import uncalled
from engine.betting.showdown import award_pots, showdown_order

_BURN_DUE: tuple[str, int | None] = ("burn", None)
#: the board cards due on each street (none preflop, three on the flop, one on the turn
#: and river), as :meth:`HandState.next_deal` gives them
_BOARDS_DUE: tuple[tuple[tuple[str, int | None], ...], ...] = tuple(
    (("board", None),) * k for k in (0, 3, 1, 1))


class HandFlow(HandState):
    """The transitions of a hand that follow from the rules; see the module docstring.
    Its methods are called by :class:`engine.betting.hand.Hand`'s inputs."""

    __slots__ = ()

    def _after_card(self) -> None:
        """The last card due is dealt: the betting opens, or the round ends (chips move);
        then the chips are checked (:meth:`_check`; inline while the hand goes on)."""
        self._begin_betting()
        if self._street == COMPLETE or self._behind + self._in_bets + self._pot_total \
                + self._voided_bonus != self._total:
            self._check()

    def _begin_betting(self) -> None:
        """Open a betting round: every player not folded with chips behind is to act, in
        order from the round's first position (preflop: :attr:`preflop_first_seat`)."""
        a = self._active
        if self._street == PREFLOP:
            k = bisect_left(a, self._preflop_start)
            t = a[k:] + a[:k]
            t.reverse()
        else:  # from the first position left of the button: the last to act first
            t = a[::-1]
        self._to_act = t
        if t and len(a) >= 2:
            self._actor = t[-1]
        else:
            self._next_actor()

    def _next_actor(self) -> None:
        """The seat to act is the next of :attr:`_to_act` (the players still to act this
        round: not folded, chips behind, and not acted since the last bet or raise or
        facing more than they put in), else the round ends.  With fewer than two players
        holding chips behind (then at most one is still to act), that player acts only
        facing a bet it can call more of: when every opponent is all-in for no more than
        it has in (e.g. a short big blind heads-up against a bigger small blind), there
        is nothing to call and nobody to raise."""
        t = self._to_act
        if t:
            j = t[-1]
            if len(self._active) >= 2:
                self._actor = j
                return
            bet = self._bet
            if bet[j] < self._cur and bet[j] < max(
                    (bet[x] for x in range(self._n) if x != j and not self._folded[x]),
                    default=0):
                self._actor = j
                return
        self._end_round()

    def _advance(self) -> None:
        """After an action (its player popped from :attr:`_to_act`, or the list rebuilt
        on a raise): the next seat to act, or the round or the hand ends; then the chips
        are checked."""
        t = self._to_act
        if t and self._n_live > 1 and len(self._active) >= 2:
            self._actor = t[-1]
            if self._behind + self._in_bets + self._pot_total + self._voided_bonus == self._total:
                return  # the chips add up (:meth:`_check`, here inline: the hand goes on)
        elif self._n_live == 1:
            self._end_by_folds()
        else:
            self._next_actor()
        self._check()

    def _collect(self) -> None:
        bet = self._bet
        total = sum(bet)
        if not total:  # no bet this round: nothing to return or collect
            return
        ret = uncalled(bet)
        if ret is not None:
            i, amt = ret
            total -= amt
            bet[i] -= amt
            self._stack[i] += amt
            self._in_bets -= amt
            self._behind += amt
            if self._stack[i] == amt and not self._folded[i]:
                insort(self._active, i)
            self._ops.append((ReturnUncalled, self._seats[i], amt))
        if total:
            self._committed = list(map(add, self._committed, bet))
            self._bet = [0] * self._n
            self._in_bets -= total
            self._pot_total += total

    def _end_round(self) -> None:
        self._actor = None
        self._collect()
        if self._street == RIVER:
            self._start_showdown()
            return
        self._street += 1
        n = self._n
        self._cur = 0
        self._min_inc = self._min_bet
        self._acted = [False] * n
        self._faced = [0] * n
        self._aggressor = None
        q = self._queue
        if self.config.burn_cards:
            q.append(_BURN_DUE)
        q += _BOARDS_DUE[self._street]

    def _end_by_folds(self) -> None:
        self._actor = None
        self._collect()
        w = self._folded.index(False)
        amount = self._pot_total
        self._stack[w] += amount
        self._behind += amount
        self._pot_total = 0
        self._awards.append((amount, [w], [(w, amount)]))
        self._ops.append((AwardPot, 0, self._seats[w], amount))
        self._street = COMPLETE
        self.is_complete = True

    # ------------------------------------------------------------------ showdown
    def _start_showdown(self) -> None:
        self._street = SHOWDOWN
        start = self._aggressor if self._aggressor is not None else 0
        order = self._sd_order = showdown_order(start, self._folded)
        self._sd_pending = len(order)
        stack = self._stack
        if 0 in [stack[j] for j in order]:  # all-in: every hand is tabled (TDA 16)
            for j in order:
                self._shown[j] = True
                self._ops.append((ShowHand, self._seats[j], self._hole[j], True))
            self._award()

    def _maybe_award(self) -> None:
        shown, mucked = self._shown, self._mucked
        left = pending = 0  # the hands not mucked, and those of them not shown yet
        for j in self._sd_order:
            if not mucked[j]:
                left += 1
                if not shown[j]:
                    pending += 1
        if left == 1 or not pending:
            self._award()

    def _award(self) -> None:
        live = [not (f or m) for f, m in zip(self._folded, self._mucked, strict=True)]
        seats = self._seats
        for p, award in enumerate(award_pots(self._committed, live, self._dead, self._hole_ids,
                                             self._board_ids, self.config.odd_chip)):
            for w, chips in award[2]:
                self._stack[w] += chips
                self._behind += chips
                self._ops.append((AwardPot, p, seats[w], chips))
            self._awards.append(award)
        self._pot_total = 0
        self._street = COMPLETE
        self.is_complete = True
