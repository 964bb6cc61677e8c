"""What one hand of No-Limit Hold'em is now: :class:`HandState`, its state and its public
reading API.  :class:`engine.betting.hand.Hand` adds the operations that change it.

The state is kept by position: an index into the seating order, clockwise from the first
dealt-in seat left of the button (index 0; :func:`engine.betting.forced_bets.seating_order`).
The reading API speaks in 1-based seat numbers and chips.  A hand opens with its forced
bets posted (:mod:`engine.betting.forced_bets`) and the hole cards due.

>>> h = HandState(HandConfig(stacks={1: 1000, 3: 800, 4: 1200}, button=4,
...                          small_blind=10, big_blind=20))
>>> h.bets, h.next_deal(), h.total_chips()
({1: 10, 3: 20, 4: 0}, ('hole', 1), 3000)
"""

from __future__ import annotations

from typing import Self

from engine.betting.forced_bets import blind_positions, post_forced, preflop_start, seating_order
from engine.betting.hand_config import NO_ACTIONS, ChipConservationError, HandConfig
from engine.betting.operations import Operation, RawOperation, build_records
from engine.betting.pots import Pot, build_pots
from engine.betting.showdown import Award
from engine.cards import Card
from engine.errors import IllegalActionError
from engine.views import STREETS, LegalActions

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN, COMPLETE = range(6)
#: what a hand never changes after it is set up: :meth:`HandState.copy` shares it
FIXED = frozenset({"config", "_seats", "_index", "_start"})
#: a hole card due to each seat (1..10), as :meth:`HandState.next_deal` gives it
_HOLE_DUE: tuple[tuple[str, int | None], ...] = tuple(("hole", s) for s in range(11))


class HandState:
    """One hand's state and its reading API; see the module docstring.  Not thread-safe
    (the loop owns it).  Its attributes are slots: a hand has more of them than CPython
    shares between instances' dicts, so in a dict each would be a look-up by name."""

    #: ``_hole_ids``, ``_board_ids``: the ids (``Card.id``, 0..51) of each position's hole
    #: cards and of the board, in the order dealt, kept beside the cards as they are dealt
    #: (``Hand.deal_hole``, ``Hand.deal_board``); the showdown evaluates from them
    #: (:func:`engine.betting.showdown.award_pots`).  ``is_complete``: whether the hand is
    #: over (its street is ``complete``): read it, never set it; the hand sets it as its
    #: street becomes complete.  An attribute, not a property: a driver reads it before
    #: every card and action (``while not hand.is_complete``), and a property's call costs
    #: about six times an attribute's read (CPython 3.11).  ``_sd_pending``: the hands of
    #: ``_sd_order`` neither shown nor mucked yet
    __slots__ = (
        "config", "_seats", "_index", "_n", "_start", "_sb", "_bb", "_stack", "_bet",
        "_committed", "_dead", "_pot_total", "_behind", "_in_bets", "_ops", "_made",
        "_folded", "_mucked", "_shown", "_acted", "_faced", "_hole", "_board", "_burns",
        "_hole_ids", "_board_ids", "_seen", "_voluntary", "_voided_bonus", "_total",
        "_street", "is_complete", "_actor", "_to_act", "_aggressor", "_sd_order",
        "_sd_pending", "_awards", "_void_reason", "_min_bet", "_cur", "_min_inc",
        "_preflop_start", "_n_live", "_active", "_queue")

    def __init__(self, config: HandConfig) -> None:
        cfg = config
        self.config = cfg
        order = seating_order(cfg)
        n = len(order)
        self._seats = order
        self._index = index = {s: i for i, s in enumerate(order)}
        self._n = n
        self._start = start = list(map(cfg.stacks.__getitem__, order))
        self._sb, self._bb = sb, bb = blind_positions(cfg, index)
        forced = post_forced(cfg, order, sb, bb)
        self._stack, self._bet = stack, bet = forced.stack, forced.bet
        self._committed, self._dead, self._pot_total = forced.committed, forced.dead, forced.pot_total
        #: the chips behind and in bets, kept by every chip movement (the check after
        #: each action is O(1); the full recount is made when the hand is complete)
        self._behind = sum(stack)
        self._in_bets = sum(bet)
        #: every operation, as kept until read; :meth:`_records` makes their records
        self._ops: list[RawOperation] = forced.raw
        self._made: list[Operation] = []
        self._folded = [False] * n
        self._mucked = [False] * n
        self._shown = [False] * n
        self._acted = [False] * n
        self._faced = [0] * n
        #: each position's hole cards, in the order dealt
        self._hole: list[tuple[Card, ...]] = [()] * n
        self._board: list[Card] = []
        self._burns: list[Card] = []
        self._hole_ids: list[tuple[int, ...]] = [()] * n
        self._board_ids: tuple[int, ...] = ()
        self._seen: set[int] = set()
        self._voluntary: list[tuple[int, str, int]] = []
        self._voided_bonus = 0
        self._total = sum(start) + cfg.bonus
        self._street = PREFLOP
        self.is_complete = False
        self._actor: int | None = None
        #: the players still to act this round, the one to act last first (see
        #: :meth:`engine.betting.hand.Hand._next_actor`)
        self._to_act: list[int] = []
        self._aggressor: int | None = None
        self._sd_order: tuple[int, ...] = ()
        self._sd_pending = 0
        self._awards: list[Award] = []
        self._void_reason: str | None = None
        bb_chips = cfg.big_blind
        self._min_bet = min_bet = cfg.effective_min_bet
        cur = max(bet)
        if bb is not None and bb_chips > cur:
            cur = bb_chips
        self._cur = cur
        self._min_inc = bb_chips if bb_chips > min_bet else min_bet
        self._preflop_start = preflop_start(cfg, index, sb, bb)
        self._n_live = n
        #: the players not folded with chips behind, in seating order
        self._active = [i for i in range(n) if stack[i]]
        #: the cards due, next first, as :meth:`next_deal` gives them
        self._queue = list(map(_HOLE_DUE.__getitem__, order)) * 2
        self._check()

    # ------------------------------------------------------------------ reading
    @property
    def operations(self) -> tuple[Operation, ...]:
        """Every operation so far, in order (the hand history; includes private cards)."""
        return tuple(self._records())

    def raw_operations(self) -> tuple[RawOperation, ...]:
        """Every operation so far as kept (:data:`engine.betting.operations.RawOperation`:
        the record's class, then its fields in order), no record made."""
        return tuple(self._ops)

    def public_operations(self) -> tuple[Operation, ...]:
        """The hand history without private records (hole cards dealt, burns): what a
        public hand history or an INFO log may show.  Tabled hands appear as ShowHand."""
        return tuple(op for op in self._records() if op.PUBLIC)

    def _records(self) -> list[Operation]:
        """The operation records so far, each made once, when first read."""
        made, ops = self._made, self._ops
        if len(made) < len(ops):
            made += build_records(ops[len(made):])
        return made

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise from the first seat left of the button."""
        return tuple(self._seats)

    @property
    def preflop_first_seat(self) -> int:
        """The seat the preflop betting starts from (it acts first unless all-in)."""
        return self._seats[self._preflop_start]

    @property
    def button(self) -> int:
        return self.config.button

    @property
    def small_blind_seat(self) -> int | None:
        return None if self._sb is None else self._seats[self._sb]

    @property
    def big_blind_seat(self) -> int | None:
        return None if self._bb is None else self._seats[self._bb]

    @property
    def street(self) -> str:
        """One of :data:`engine.views.STREETS`."""
        return STREETS[self._street]

    @property
    def actor(self) -> int | None:
        """Seat to act now, or None (cards due, showdown or hand over)."""
        a = self._actor
        return None if a is None else self._seats[a]

    @property
    def is_void(self) -> bool:
        return self._void_reason is not None

    @property
    def void_reason(self) -> str | None:
        """Why the hand was voided (see :meth:`void`), or None."""
        return self._void_reason

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def stacks(self) -> dict[int, int]:
        """seat -> chips behind now."""
        return dict(zip(self._seats, self._stack, strict=True))

    @property
    def starting_stacks(self) -> dict[int, int]:
        return dict(zip(self._seats, self._start, strict=True))

    @property
    def bets(self) -> dict[int, int]:
        """seat -> chips bet on the current street (not yet in a pot)."""
        return dict(zip(self._seats, self._bet, strict=True))

    @property
    def results(self) -> dict[int, int]:
        """seat -> net chips (stack now minus starting stack; final once complete)."""
        return {s: self._stack[i] - self._start[i] for i, s in enumerate(self._seats)}

    @property
    def current_bet(self) -> int:
        """The bet to match on this street."""
        return self._cur

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Pots on the table now (collected chips, current bets excluded).  Eligible seats in
        TDA 20-A order.  Once the hand is complete: the pots as they were awarded (their
        winners and chips in :attr:`awards`); a voided hand has none."""
        if self._street == COMPLETE:
            seats = self._seats
            return tuple(Pot(a, tuple(seats[i] for i in el)) for a, el, _ in self._awards)
        live = [not (f or m) for f, m in zip(self._folded, self._mucked, strict=True)]
        seats = self._seats
        return tuple(Pot(a, tuple(seats[i] for i in el))
                     for a, el in build_pots(self._committed, live, self._dead))

    @property
    def awards(self) -> tuple[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]], ...]:
        """Once awarded: ``(amount, eligible seats, ((seat, chips), ...))`` per pot."""
        seats = self._seats
        return tuple((a, tuple(seats[i] for i in el), tuple((seats[i], c) for i, c in won))
                     for a, el, won in self._awards)

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Seats in the order they must show or muck (empty before the showdown)."""
        return tuple(self._seats[i] for i in self._sd_order)

    @property
    def showdown_pending(self) -> tuple[int, ...]:
        """Seats that still have to show or muck, in showdown order."""
        if self._street != SHOWDOWN:
            return ()
        seats, shown, mucked = self._seats, self._shown, self._mucked
        return tuple([seats[i] for i in self._sd_order if not shown[i] and not mucked[i]])

    def stack(self, seat: int) -> int:
        """Chips behind of ``seat`` now.  Raises IllegalActionError for a seat not dealt in."""
        return self._stack[self._seat_index(seat)]

    def bet(self, seat: int) -> int:
        """Chips ``seat`` has bet on this street.  Raises IllegalActionError as :meth:`stack`."""
        return self._bet[self._seat_index(seat)]

    def holds_cards(self, seat: int) -> bool:
        """Whether ``seat`` has been dealt any hole card (public: says nothing of which)."""
        return len(self._hole[self._seat_index(seat)]) > 0

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """Private: the hole cards of ``seat`` (for the journal and that seat only)."""
        return tuple(self._hole[self._seat_index(seat)])

    def shown_cards(self, seat: int) -> tuple[Card, ...]:
        """The hole cards of ``seat`` if tabled, else ()."""
        i = self._seat_index(seat)
        return tuple(self._hole[i]) if self._shown[i] else ()

    def status(self, seat: int) -> str:
        """``active``, ``folded`` (or mucked) or ``all_in``."""
        i = self._seat_index(seat)
        if self._folded[i] or self._mucked[i]:
            return "folded"
        if self._stack[i] == 0 and self._void_reason is None:
            return "all_in"
        return "active"

    def total_chips(self) -> int:
        """Stacks + bets + pots (+ a voided hand's bonus, set aside): always the starting
        total plus the bonus."""
        return sum(self._stack) + sum(self._bet) + self._pot_total + self._voided_bonus

    def _check(self) -> None:
        """Chip conservation, after every action and card: the chips behind and in bets as
        kept by each movement, the pot and a voided hand's bonus add up to the starting
        total plus the bonus.  Once the hand is complete every stack and bet is counted
        again (:meth:`_recount`).  Raises ChipConservationError (an internal error)."""
        if self._behind + self._in_bets + self._pot_total + self._voided_bonus != self._total:
            raise ChipConservationError(
                f"chips do not add up: {self._behind} behind, {self._in_bets} in bets, "
                f"{self._pot_total} in the pot, {self._total} expected")
        if self._street == COMPLETE:
            self._recount()

    def _recount(self) -> None:
        """Every stack and bet counted: the totals kept by the movements are the table's."""
        behind, in_bets = sum(self._stack), sum(self._bet)
        if behind != self._behind or in_bets != self._in_bets \
                or behind + in_bets + self._pot_total + self._voided_bonus != self._total:
            raise ChipConservationError(
                f"chips do not add up: {self.total_chips()} on the table, {self._total} "
                f"expected; {self._behind} behind and {self._in_bets} in bets as moved, "
                f"{sum(self._stack)} and {sum(self._bet)} counted")

    def _seat_index(self, seat: int) -> int:
        i = self._index.get(seat)
        if i is None:
            raise IllegalActionError(
                f"seat {seat!r} is not dealt in; seats in this hand: "
                f"{', '.join(map(str, sorted(self._seats)))}")
        return i

    # ------------------------------------------------------------------ legal actions
    def _raise_bounds(self, i: int) -> tuple[int, int] | None:
        stack, bet, cur = self._stack[i], self._bet[i], self._cur
        if stack <= cur - bet or len(self._active) < 2:
            return None
        if self._acted[i] and cur - self._faced[i] < self._min_inc:
            return None  # TDA 47: not reopened for a player who already acted
        # a raise must be callable by somebody: no raise when every opponent is all-in
        # or cannot put in more than the current bet (the excess would only come back);
        # an all-in player has no more than the current bet in
        stacks, bets = self._stack, self._bet
        for j in self._active:
            if j != i and stacks[j] + bets[j] > cur:
                break
        else:
            return None
        lo = cur + self._min_inc
        if self.config.raise_rule == "double" and 2 * cur > lo:
            lo = 2 * cur
        hi = stack + bet
        return (lo if lo < hi else hi), hi

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (all False/None when nobody is to act)."""
        i = self._actor
        if i is None:
            return NO_ACTIONS
        owe = self._cur - self._bet[i]
        rb = self._raise_bounds(i)
        if owe > 0:
            call = min(self._stack[i], owe)
            if rb is None:
                return LegalActions(True, False, True, call, None, None)
            return LegalActions(True, False, True, call, rb[0], rb[1])
        if rb is None:
            return LegalActions(True, True, False, 0, None, None)
        return LegalActions(True, True, False, 0, rb[0], rb[1])

    def legal_words(self) -> str:
        """The legal actions in words, for error messages (\"seat 3 to act; legal: ...\")."""
        la = self.legal_actions()
        if self._actor is None:
            return f"no action is due ({self._state_words()})"
        parts = ["fold"]
        parts.append(f"call {la.call_amount}" if la.can_call else "check")
        if la.min_raise_to is not None:
            verb = "bet" if self._cur == 0 else "raise"
            if la.min_raise_to == la.max_raise_to:
                parts.append(f"{verb} all-in to {la.max_raise_to}")
            else:
                parts.append(f"{verb} to {la.min_raise_to}..{la.max_raise_to}")
        return f"seat {self.actor} to act; legal: " + ", ".join(parts)

    # ------------------------------------------------------------------ cards due
    def next_deal(self) -> tuple[str, int | None] | None:
        """The next card due: ``("hole", seat)``, ``("burn", None)``, ``("board", None)``,
        or None (betting open, showdown or hand over)."""
        q = self._queue
        return q[0] if q else None

    def _state_words(self) -> str:
        if self._street == COMPLETE:
            return "the hand is over"
        if self._queue:
            d = self.next_deal()
            assert d is not None
            return f"a {d[0]} card" + (f" for seat {d[1]}" if d[0] == "hole" else "") + " is due"
        if self._street == SHOWDOWN:
            return "showdown: " + ", ".join(map(str, self.showdown_pending)) + " to show or muck"
        return f"seat {self.actor} to act"

    # ------------------------------------------------------------------ copies
    def copy(self) -> Self:
        """An independent copy: every list and set the hand changes is copied; cards,
        records and what a hand never changes after it is set up (:data:`FIXED`) are
        shared.  About as dear as one betting action (bench/bench_service.py).  Each
        slot is named once here (a slot left out is unset in the copy: its first read
        raises AttributeError)."""
        h = object.__new__(type(self))
        h.config, h._seats, h._index, h._start = self.config, self._seats, self._index, self._start
        h._n, h._sb, h._bb, h._dead, h._total = self._n, self._sb, self._bb, self._dead, self._total
        h._min_bet, h._preflop_start = self._min_bet, self._preflop_start
        h._pot_total, h._behind, h._in_bets = self._pot_total, self._behind, self._in_bets
        h._voided_bonus, h._void_reason = self._voided_bonus, self._void_reason
        h._street, h._actor, h._aggressor = self._street, self._actor, self._aggressor
        h.is_complete = self.is_complete
        h._cur, h._min_inc, h._n_live = self._cur, self._min_inc, self._n_live
        h._sd_order, h._sd_pending = self._sd_order, self._sd_pending
        h._stack = self._stack[:]
        h._bet = self._bet[:]
        h._committed = self._committed[:]
        h._folded = self._folded[:]
        h._mucked = self._mucked[:]
        h._shown = self._shown[:]
        h._acted = self._acted[:]
        h._faced = self._faced[:]
        h._hole = self._hole[:]
        h._board = self._board[:]
        h._burns = self._burns[:]
        h._hole_ids = self._hole_ids[:]
        h._board_ids = self._board_ids
        h._seen = set(self._seen)
        h._ops = self._ops[:]
        h._made = self._made[:]
        h._voluntary = self._voluntary[:]
        h._awards = self._awards[:]
        h._queue = self._queue[:]
        h._to_act = self._to_act[:]
        h._active = self._active[:]
        return h

    def __repr__(self) -> str:
        return (f"Hand(street={self.street!r}, actor={self.actor}, stacks={self.stacks}, "
                f"bets={self.bets}, pots={[p.amount for p in self.pots]})")
