"""Replay PHH hands through our hand engine (:mod:`engine.betting.hand`) and judge them.

A hand is checked against what it records:

* every action is legal for our engine at that point (the engine's own ``verify_*``);
* the chips balance (sum of finishing stacks = sum of starting stacks);
* where ``winnings`` are recorded (not all zero) the same players win; the amounts must
  be equal where no rake can have been taken (no flop dealt: "no flop, no drop"),
  otherwise the recorded amounts may be lower by the rake, which is reported;
* where ``finishing_stacks`` are recorded they must equal ours exactly.

Decisions, each named in the result's ``reason`` when it applies:

* **Seats.**  PHH p1..pN map to the file's ``seats`` when those go clockwise in p1..pN
  order (p1 small blind, p2 big blind, pN button; heads-up p1 big blind, p2 button);
  otherwise to seats 1..N (the action order of the file is the truth).
* **Unknown stacks** (``inf``, iPoker files) are played as :data:`UNKNOWN_STACK` file
  units each; finishing stacks are then relative to that.
* **Unknown cards** (``????``) are filled with cards that appear nowhere in the hand, in
  card-id order; a contested showdown that involves one is *skipped* (cannot be judged).
* **Burns.**  PHH records no burn cards: the replay deals the board without burns
  (``HandConfig(burn_cards=False)``).  :func:`deal_sequence` gives the physical order
  with burn placeholders for a shoe.
* **Big-blind ante** is dead money in the main pot (TDA 2024 Rule 3 / Recommended
  Procedure, "BB ante"), whatever ``ante_trimming_status`` says.
* **Negative blinds** are live posts (``HandConfig.posts``); a single positive blind on p1
  is a big blind with no small blind.
* A show after an uncontested win (``sm`` once everyone else folded) is not an engine
  action; it is noted, not played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from engine.cards import Card
from engine.errors import PokerTableError
from engine.history.phh import PhhAction, PhhHand
from engine.history.phh_plan import (
    UNKNOWN_STACK,
    DealStep,
    ReplayPlan,
    ReplaySetupError,
    cards_text,
    deal_sequence,
    plan,
    players_text,
)

__all__ = ["MISMATCH", "OK", "SKIPPED", "UNKNOWN_STACK", "DealStep", "ReplayPlan",
           "ReplayResult", "ReplaySetupError", "deal_sequence", "plan", "replay_hand",
           "replay_hands", "script"]

OK, MISMATCH, SKIPPED = "ok", "mismatch", "skipped"


@dataclass(frozen=True)
class ReplayResult:
    """Outcome of replaying one hand.

    Attributes:
        status: ``"ok"``, ``"mismatch"`` or ``"skipped"``.
        reason: what was checked, or what failed / why it was skipped.
        finishing_stacks: our finishing stacks in chips, by PHH player p1..pN (``None``
            when the hand could not be played to its end or its result cannot be judged).
        awarded: chips won from the pots, by player (``None`` as above).
        seats: our seat of each PHH player p1..pN.
        chips_per_unit: chips per file unit (to convert back).
        notes: the individual notes joined in ``reason``.
        hand: the engine :class:`engine.betting.hand.Hand` as played (None if not played through).
    """

    status: str
    reason: str
    finishing_stacks: tuple[int, ...] | None
    awarded: tuple[int, ...] | None
    seats: tuple[int, ...]
    chips_per_unit: int = 1
    notes: tuple[str, ...] = ()
    hand: Any = field(default=None, compare=False, repr=False)  # the engine Hand, if played

    def finishing_units(self) -> list[int | float] | None:
        """Finishing stacks in the file's units, as JSON numbers."""
        if self.finishing_stacks is None:
            return None
        out: list[int | float] = []
        for c in self.finishing_stacks:
            d = Decimal(c) / self.chips_per_unit
            out.append(int(d) if d == d.to_integral_value() else float(d))
        return out


# --------------------------------------------------------------------------- replay

class _Stop(Exception):
    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass
class _Run:
    h: PhhHand
    pl: ReplayPlan
    hand: Any
    notes: list[str] = field(default_factory=list)
    board_queue: list[int] = field(default_factory=list)  # indexes into pl.board
    board_next: int = 0
    hole_next: dict[int, int] = field(default_factory=dict)
    burns: Iterator[Card] = field(default_factory=lambda: iter(()))

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return f"p{self.pl.player_of(seat)} (seat {seat})"

    def deal_due(self) -> None:
        """Deal every card the engine wants now that the record has made available."""
        while True:
            due = self.hand.next_deal()
            if due is None:
                return
            kind, seat = due
            if kind == "hole":
                p = self.pl.player_of(seat)
                i = self.hole_next.get(p, 0)
                if i > 1:
                    raise _Stop(MISMATCH, f"our engine wants a third hole card for p{p}")
                self.hole_next[p] = i + 1
                self._do("deal_hole", seat, self.pl.hole[p][i])
            elif kind == "board":
                if not self.board_queue:
                    return  # the record has not dealt it yet
                self._do("deal_board", None, self.pl.board[self.board_queue.pop(0)])
            elif kind == "burn":
                if not self.hand.config.burn_cards:
                    raise _Stop(MISMATCH, "our engine asks for a burn card though "
                                "burn_cards=False")
                if not self.board_queue:
                    return  # burn only once the record deals the street
                self._do("burn", None, next(self.burns))
            else:  # pragma: no cover - contract
                raise _Stop(MISMATCH, f"unexpected deal request {due!r}")

    def _do(self, name: str, *args: Any) -> None:
        verify = getattr(self.hand, f"verify_{name}")
        act = getattr(self.hand, name)
        call_args = [a for a in args if a is not None] if name != "deal_hole" else list(args)
        try:
            verify(*call_args)
        except PokerTableError as exc:
            raise _Stop(MISMATCH, f"{name.replace('_', ' ')} rejected by our engine: {exc}") \
                from None
        act(*call_args)


def _contested_unknown(run: _Run) -> list[int]:
    """Players still in at a showdown whose cards (or the board) were not recorded."""
    live = _live_players(run)
    if len(live) < 2:
        return []
    bad = [p for p in live if not run.pl.hole_known[p]]
    dealt = sum(1 for op in run.hand.operations if getattr(op, "OP", "") == "deal_board")
    if not all(run.pl.board_known[:dealt]) and not bad:
        bad = live
    return bad


def _live_players(run: _Run) -> list[int]:
    folded = {op.seat for op in run.hand.operations if getattr(op, "OP", "") in ("fold", "muck")}
    return [run.pl.player_of(s) for s in run.pl.seats if s not in folded]


def _implied_action(run: _Run, a: PhhAction) -> None:
    """The record skips players our engine has to act before ``a``'s player.  A skipped
    player facing a bet who never acts again in the record has folded; one facing no bet
    has checked (PokerKit's HandHistory fills the same steps silently).  Each is played
    and named in the notes; anything else stays a mismatch."""
    hand = run.hand
    later = run.h.actions[run.h.actions.index(a):]
    target = run.pl.seats[(a.player or 1) - 1]
    while hand.actor is not None and hand.actor != target:
        seat = hand.actor
        p = run.pl.player_of(seat)
        legal = hand.legal_actions()
        acts_later = any(x.player == p and x.kind in ("fold", "check_or_call", "bet_or_raise_to")
                         for x in later)
        street = hand.street
        if legal.can_check:
            hand.check_or_call()
            run.notes.append(f"the record omits p{p}'s action on the {street} before '{a}'; "
                             "played as a check (no bet to face)")
        elif not acts_later and legal.can_fold:
            hand.fold()
            run.notes.append(f"the record omits p{p}'s action on the {street} before '{a}' "
                             f"and p{p} never acts again: played as a fold")
        else:
            return


def _act(run: _Run, a: PhhAction) -> None:
    hand = run.hand
    seat = run.pl.seats[(a.player or 1) - 1]
    run.deal_due()
    if a.kind in ("fold", "check_or_call", "bet_or_raise_to"):
        if hand.is_complete:
            raise _Stop(MISMATCH, f"p{a.player} {a} after our engine ended the hand")
        if hand.next_deal() is not None:
            raise _Stop(MISMATCH, f"'{a}' while our engine waits for a card "
                        f"({hand.next_deal()[0]}): the betting round should have closed")
        if hand.actor != seat:
            _implied_action(run, a)
        if hand.actor != seat:
            raise _Stop(MISMATCH, f"'{a}': our engine has {run.who(hand.actor)} to act")
        if a.kind == "bet_or_raise_to":
            run._do("bet_or_raise_to", a.amount)
        else:
            run._do(a.kind)
        return
    if a.kind == "show_or_muck":
        shown = {op.seat for op in hand.operations if getattr(op, "OP", "") in ("show", "muck")}
        if seat in shown:
            return  # already tabled (all-in runout: one sm before every board card)
        if hand.is_complete:
            what = cards_text(a.cards) if a.cards else "cards"
            run.notes.append(f"p{a.player} showed {what} after the hand was over "
                             "(a voluntary show, not an engine action)")
            return
        order = list(getattr(hand, "showdown_order", ()) or ())
        if seat not in order:
            if hand.next_deal() is not None:
                return  # all-in runout: our engine tables all-in hands by itself
            raise _Stop(MISMATCH, f"'{a}': our engine does not expect p{a.player} to show "
                        f"or muck now (showdown order {[run.who(s) for s in order]})")
        unknown = _contested_unknown(run)
        if unknown:
            raise _Stop(SKIPPED, f"contested showdown with unrecorded hole cards "
                        f"({players_text(unknown)}): the winner cannot be judged; every action "
                        "up to the showdown was legal for our engine")
        if a.show:
            run._do("show", seat)
        else:
            run._do("muck", seat)


def _play(h: PhhHand, pl: ReplayPlan, config_overrides: dict[str, Any] | None = None) -> _Run:
    from engine.betting.hand import Hand, HandConfig  # late: engine.betting.hand imports much

    kw = dict(pl.config_kwargs)
    kw.update(config_overrides or {})
    try:
        hand = Hand(HandConfig(**kw))
    except PokerTableError as exc:
        raise _Stop(MISMATCH, f"our engine rejects the forced bets / stacks: {exc}") from None
    run = _Run(h, pl, hand, burns=iter(pl.fillers))
    for a in h.actions:
        if a.kind == "deal_hole":
            continue  # dealt when the engine asks, in its own order
        if a.kind == "deal_board":
            run.deal_due()
            start = run.board_next
            run.board_next += len(a.cards)
            run.board_queue.extend(range(start, run.board_next))
            run.deal_due()
            if run.board_queue:
                raise _Stop(MISMATCH, f"'{a}': our engine does not deal a board card now "
                            f"({run.who(hand.actor)} to act)")
            continue
        _act(run, a)
    run.deal_due()
    if not hand.is_complete:
        order = list(getattr(hand, "showdown_order", ()) or ())
        if hand.actor is not None:
            raise _Stop(SKIPPED, f"the record ends with betting open ({run.who(hand.actor)} to "
                        f"act on the {hand.street}): the hand is incomplete, no result")
        if hand.next_deal() is not None:
            raise _Stop(SKIPPED, f"the record ends before the board is complete "
                        f"({hand.street}): the hand is incomplete, no result")
        unknown = _contested_unknown(run)
        if unknown:
            raise _Stop(SKIPPED, f"contested showdown with unrecorded hole cards "
                        f"({players_text(unknown)}): the winner cannot be judged; every action "
                        "up to the showdown was legal for our engine")
        raise _Stop(MISMATCH, f"the record ends at the showdown but our engine still waits "
                    f"for {[run.who(s) for s in order]} to show or muck")
    return run


def _awarded(run: _Run) -> tuple[int, ...]:
    won: Counter[int] = Counter()
    for op in run.hand.operations:
        if getattr(op, "OP", "") == "award_pot":
            won[op.seat] += op.amount
    return tuple(won[s] for s in run.pl.seats)


def _finishing(run: _Run) -> tuple[int, ...]:
    stacks = run.hand.stacks
    return tuple(stacks[s] for s in run.pl.seats)


def _fmt(h: PhhHand, chips: int) -> str:
    return str(h.to_units(chips))


def _check(h: PhhHand, run: _Run, notes: list[str]) -> tuple[str, list[str]]:
    pl = run.pl
    start = [pl.config_kwargs["stacks"][s] for s in pl.seats]
    fin = _finishing(run)
    won = _awarded(run)
    problems: list[str] = []
    if sum(fin) != sum(start):
        problems.append(f"chips do not balance: {sum(start)} in, {sum(fin)} out")
    else:
        notes.append("every action legal, chips balance")
    if h.winnings is not None and any(h.winnings):
        problems += _check_winnings(h, run, won, notes)
    elif h.winnings is not None:
        notes.append("winnings not recorded (all 0)")
    elif h.finishing_stacks is None:
        notes.append("no winnings recorded")
    if h.finishing_stacks is not None:
        if tuple(h.finishing_stacks) != fin:
            problems.append("finishing stacks differ: " + "; ".join(
                f"p{p} recorded {_fmt(h, r)}, ours {_fmt(h, o)}"
                for p, (r, o) in enumerate(zip(h.finishing_stacks, fin, strict=False), 1) if r != o))
        else:
            notes.append("finishing stacks match the record")
    return (MISMATCH if problems else OK), problems


def _blind_returns(run: _Run) -> dict[int, int]:
    """Chips returned as uncalled to a player whose returned bet was only a forced blind
    or post (no voluntary bet or raise on that street): PHH player -> chips."""
    out: dict[int, int] = {}
    raised: set[int] = set()
    for op in run.hand.operations:
        kind = getattr(op, "OP", "")
        if kind == "deal_board":
            raised = set()
        elif kind == "bet_or_raise_to":
            raised.add(op.seat)
        elif kind == "return_uncalled" and op.seat not in raised:
            p = run.pl.player_of(op.seat)
            out[p] = out.get(p, 0) + op.amount
    return out


def _check_winnings(h: PhhHand, run: _Run, won: tuple[int, ...], notes: list[str]) -> list[str]:
    """Compare recorded ``winnings`` with the chips our engine awarded (see module doc)."""
    rec = tuple(h.winnings or ())
    rec_w = {p for p, w in enumerate(rec, 1) if w > 0}
    our_w = {p for p, w in enumerate(won, 1) if w > 0}
    if rec_w != our_w:
        return [f"winners differ: recorded {players_text(sorted(rec_w))}, ours {players_text(sorted(our_w))}"]
    if rec == won:
        notes.append("winners and amounts match the recorded winnings")
        return []
    blind = _blind_returns(run)
    with_blind = tuple(w + blind.get(p, 0) for p, w in enumerate(won, 1))
    if blind and rec == with_blind:
        notes.append("winners and amounts match; the recorded winnings also count "
                     + ", ".join(f"p{p}'s unmatched blind {_fmt(h, c)}" for p, c in blind.items())
                     + ", which our engine returns as uncalled (same chips)")
        return []
    diff = "; ".join(f"p{p} recorded {_fmt(h, r)}, ours {_fmt(h, o)}"
                     for p, (r, o) in enumerate(zip(rec, won, strict=False), 1) if r != o)
    flop = any(getattr(op, "OP", "") == "deal_board" for op in run.hand.operations)
    pot, total = sum(won), sum(rec)
    if total in (pot, sum(with_blind)):
        # No rake taken: the amounts must agree player by player (e.g. a split pot).
        return [f"recorded winnings split the pot differently: {diff}"]
    if total < pot:
        rake = pot - total
        if all(r <= o for r, o in zip(rec, won, strict=False)) and rake * 100 <= pot * 15:
            notes.append(f"winners match; recorded winnings are net of a rake of "
                         f"{_fmt(h, rake)} ({rake * 100 / pot:.1f}% of the pot {_fmt(h, pot)}"
                         + ("" if flop else ", taken without a flop") + ")")
            return []
        return [f"recorded winnings are not ours net of a plausible rake (0-15%): {diff}"]
    # The record credits more than the pot its own actions build: the file contradicts
    # itself.  The actions (which our engine found legal) are the truth; winners judged.
    returned = sum(getattr(op, "amount", 0) for op in run.hand.operations
                   if getattr(op, "OP", "") == "return_uncalled")
    notes.append(f"winners match; the recorded winnings ({diff}) exceed the pot of "
                 f"{_fmt(h, pot)} that the recorded actions build (uncalled "
                 f"{_fmt(h, returned)} returned): the file contradicts its own actions, "
                 "which are taken as the truth; amounts not compared")
    return []


def _trimming_note(h: PhhHand, pl: ReplayPlan, ours: tuple[int, ...]) -> str | None:
    """Name the conflict between ``ante_trimming_status = true`` and a BB ante."""
    if not h.ante_trimming_status or pl.bb_ante_player is None:
        return None
    p = pl.bb_ante_player
    ante = pl.config_kwargs["big_blind_ante"]
    try:
        alt = _finishing(_play(h, pl, {"big_blind_ante": 0}))
    except _Stop:
        alt = None
    base = (f"ante_trimming_status = true would hand the big-blind ante "
            f"{_fmt(h, ante)} back to p{p}")
    if alt is not None and alt != ours:
        base += " (finishing " + ", ".join(
            f"p{i} {_fmt(h, a)}" for i, (a, o) in enumerate(zip(alt, ours, strict=False), 1) if a != o) + ")"
    if h.finishing_stacks is not None:
        if tuple(h.finishing_stacks) == ours:
            return (base + "; the recorded finishing_stacks contradict that flag and agree "
                    "with the big-blind ante as dead money in the main pot: the recorded "
                    "stacks are taken as the truth")
        return base + "; the big-blind ante is dead money in the main pot regardless"
    return base + "; flag ignored: the big-blind ante is dead money in the main pot"


def replay_hand(h: PhhHand, *, burns: bool = False) -> ReplayResult:
    """Replay one PHH hand through :class:`engine.betting.hand.Hand` and judge it (see module doc).

    ``burns=True`` plays it with burn cards (``HandConfig(burn_cards=True)``), the burns
    being the fillers of :func:`deal_sequence`: the way a shoe replays it.  The finishing
    stacks are the same either way.

    Never raises for a problem of the hand itself: that is a ``mismatch`` (or ``skipped``
    when it cannot be judged).  Raises only :class:`PhhError` for a malformed record.
    """
    try:
        pl = plan(h)
    except ReplaySetupError as exc:
        n = h.player_count
        return ReplayResult(SKIPPED, str(exc), None, None, tuple(range(1, n + 1)),
                            h.chips_per_unit)
    notes = list(pl.notes)
    if pl.conflicts:
        return ReplayResult(MISMATCH, "; ".join(notes + list(pl.conflicts)), None, None,
                            pl.seats, h.chips_per_unit, tuple(notes))
    try:
        run = _play(h, pl, {"burn_cards": True} if burns else None)
    except _Stop as stop:
        notes.append(stop.reason)
        return ReplayResult(stop.status, "; ".join(notes), None, None, pl.seats,
                            h.chips_per_unit, tuple(notes))
    notes += run.notes
    status, problems = _check(h, run, notes)
    fin = _finishing(run)
    trim = _trimming_note(h, pl, fin)
    if trim:
        notes.append(trim)
    return ReplayResult(status, "; ".join(problems + notes), fin, _awarded(run), pl.seats,
                        h.chips_per_unit, tuple(problems + notes), run.hand)


def replay_hands(hands: list[PhhHand]) -> Iterator[tuple[PhhHand, ReplayResult]]:
    """:func:`replay_hand` over several hands, in order."""
    for h in hands:
        yield h, replay_hand(h)


def script(h: PhhHand, *, burns: bool = True) -> tuple[Any, ...] | None:
    """The hand as our engine's operation records (:mod:`engine.betting.operations`), in order:
    every card with its destination (burns included when ``burns``), every action with its
    seat and amount, implied folds/checks included, shows, mucks and awards.  This is the
    script a shoe-and-buttons replay must follow to reach the same finishing stacks.
    ``None`` when the hand could not be played to its end (skipped or mismatch)."""
    r = replay_hand(h, burns=burns)
    if r.status != OK or r.hand is None:
        return None
    return tuple(r.hand.operations)
