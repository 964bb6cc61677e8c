"""The dealing procedure: one hand plus the card shoe stream, with automatic rulings.

API (for the service loop)::

    from engine.dealing.procedure import DealingProcedure
    proc = DealingProcedure(HandConfig(...), registry, profile="tda2024", seed=0)
    outcomes = proc.apply(event)   # CardDrawn, Declaration, ShoeReloaded, StubReshuffled,
                                   # PlayerAction (action: fold | check_or_call | bet_or_raise_to
                                   # (amount = raise-to total) | show | muck)
    proc.expected_next()           # slots the shoe must deliver next (engine.dealing.sequence)
    proc.pending_ruling()          # the latest advisory Ruling, or None
    proc.ruling_view()             # engine.views.RulingView for the TV banner, or None
    proc.public_view()             # engine.views.TablePublicView (never an unrevealed card)
    proc.seat_view(seat)           # engine.views.SeatDisplayView (that seat only)
    proc.hand                      # the engine.betting.hand.Hand being played (read it, do not drive it)
    proc.deck_check(stub_uids=None)  # engine.dealing.registry.DeckCheck over all 52 cards
    d = proc.to_dict(); DealingProcedure.from_dict(d)   # exact, JSON-able, PRIVATE (journal)

``apply`` returns a list of :mod:`engine.dealing.outcomes` records: ``Assigned`` (where a card
went), ``ReaderRepeat``, ``RulingIssued``, ``RulingDecided``, ``HandVoided``,
``HandRedealt``, ``ActionApplied``, ``ActionHeld``, ``PotAwarded``, ``HandComplete``,
``ExpectedNextChanged``, ``Note``.  Each has ``to_dict(private=False)`` safe for the TV
and INFO logs.  Other event types are ignored (empty list).

Errors: ``IllegalActionError`` for an action the hand does not allow (wrong seat, bad
amount, play stopped); ``InvalidInputError`` subclasses for a declaration that refers to
nothing (no such draw, no ruling to confirm).  A rejected input changes nothing.

Rulings are advisory (TDA 1).  ``Declaration(kind="confirm_ruling")`` confirms the
latest advisory ruling; ``override_ruling`` records the override and restores the state
from before the event that triggered the ruling, then re-applies the events that came
after it; the triggering card (if any) is set aside as dead, a triggering declaration or
action is dropped.  A misdeal or fouled deck voids the hand at once (every chip back,
TDA 35-C/35-E) and waits for ``ShoeReloaded``; the hand is then dealt again with the same
button, players and limits (TDA 35-C).  Rows, rules and patterns: docs/irregularities.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.betting.hand import Hand, HandConfig
from engine.cards import Card
from engine.dealing.card_flow import CardFlow
from engine.dealing.deal_state import DealState
from engine.dealing.declarations import Declarations
from engine.dealing.detection import Detection
from engine.dealing.floor import FloorDecisions, NoPendingRulingError
from engine.dealing.irregularities import (
    HouseProfile,
    Ruling,
    RulingBook,
    describe_expect,
    make_profile,
    substantial_action,
)
from engine.dealing.outcomes import ExpectedNextChanged, Outcome, RulingIssued
from engine.dealing.play import PlayerActions
from engine.dealing.registry import DeckCheck, DeckRegistry
from engine.dealing.sequence import (
    BETTING,
    BOARD,
    BOARD_COUNT,
    DEAD,
    HOLE,
    STUB,
    Draw,
    hole_order,
    hole_slots,
    street_of_board,
)
from engine.errors import InvalidInputError
from engine.events import (
    ACTIONS,
    CardDrawn,
    Declaration,
    Event,
    PlayerAction,
    ShoeReloaded,
    StubReshuffled,
    event_from_dict,
    event_to_dict,
)
from engine.text import check_uid
from engine.views import RulingView, SeatDisplayView, TablePublicView

__all__ = ["ACTIONS", "DealingProcedure", "NoPendingRulingError"]


class DealingProcedure(PlayerActions, FloorDecisions, CardFlow, Declarations):
    """A hand of Hold'em driven by the shoe stream, with rulings; see the module docstring.

    Args:
        config: the hand (seats, stacks, button, blinds); ``burn_cards`` is ignored
            (burns are tracked by the procedure).
        registry: the deck registered for this shoe.
        profile: a :class:`HouseProfile` or a profile name (``tda2024``, ``rrop``,
            ``gunpowder``, ``mini``).
        seed: seeds the table's random choices (TDA 39-A/39-B scramble picks), so a
            replay is exact.
        known_tags: UIDs of other registered decks -> card (a stray card from another
            deck is foreign, but its rank and suit still count for a fouled deck).
    """

    def __init__(self, config: HandConfig, registry: DeckRegistry,
                 profile: HouseProfile | str = "tda2024", *, seed: int = 0,
                 known_tags: Mapping[str, Card] | None = None) -> None:
        self.profile = profile if isinstance(profile, HouseProfile) else make_profile(profile)
        self.registry = registry
        self.known_tags = {u.upper(): c for u, c in (known_tags or {}).items()}
        self.seed = seed
        self.book = RulingBook()
        self.repeats = 0
        self.redeals = 0
        self._pending: tuple[int, DealState, Event, list[Event]] | None = None
        self.s = self._new_state(config)
        self.state_before: DealState | None = None
        #: events this procedure has applied (accepted or not): a mark that nothing has
        #: reached it since (the table's UNDO, :mod:`engine.table.undo`); not its state
        self.applied = 0

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def _new_state(config: HandConfig) -> DealState:
        # a config made for the procedure already says so (the table's): taken as it is
        cfg = dataclasses.replace(config, burn_cards=False) if config.burn_cards else config
        order = hole_order(cfg.stacks, cfg.button, cfg.big_blind_seat
                           if cfg.big_blind_seat in cfg.stacks else None)
        hand = Hand(cfg)
        if len(cfg.stacks) == 2 and hand.big_blind_seat is not None:
            order = hole_order(cfg.stacks, cfg.button, hand.big_blind_seat)
        return DealState.fresh(cfg, hole_slots(order), hand)

    def start_hand(self, config: HandConfig) -> list[Outcome]:
        """Begin the next hand (the service calls this with the next hand's config)."""
        self.s = self._new_state(config)
        self.s.first_ruling = self.book.next_id()
        self._pending = None
        return [ExpectedNextChanged(tuple(self.expected_next()),
                                    describe_expect(self.expected_next()))]

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand:
        return self.s.hand

    @property
    def draws(self) -> tuple[Draw, ...]:
        return tuple(self.s.draws)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return tuple(self.book.rulings)

    @property
    def stopped(self) -> str | None:
        """``"MISDEAL"`` / ``"FOULED_DECK"`` while waiting for the shoe to be reloaded."""
        return self.s.stopped

    def substantial_action(self) -> bool:
        """TDA 36 (or the RRoP gate, knob ``misdeal_gate``) from the hand's action log."""
        h = self.probe_hand() if self.s.held else self.s.hand
        return substantial_action(h.actions_in_turn(), self.profile.misdeal_gate)

    def detection(self) -> Detection:
        """The irregularity rulings, working on this procedure through its desk."""
        return Detection(_Desk(self))

    def expected_next(self, full: bool = False) -> list[str]:
        """What the shoe must deliver next: the slots due now, then (while betting is
        open) ``"betting"`` and the next street's draws; ``full``: up to the river."""
        s = self.s
        if s.stopped:
            return ["shoe_reloaded"]
        h = s.hand
        if h.is_complete:
            return []
        out = list(s.due)
        if h.street == "showdown":
            return out
        nb = len(h.board) + sum(1 for x in s.due if x == BOARD)
        while True:
            nxt = street_of_board(nb)
            if nxt is None or nxt == s.loaded_street and s.due:
                break
            if nxt == s.loaded_street:
                break
            out += [BETTING] + list(s.plans[nxt])
            nb += BOARD_COUNT[nxt]
            if not full:
                break
        return out

    def ruling_view(self) -> RulingView | None:
        r = self.pending_ruling()
        return r.view() if r else None

    def public_view(self, names: Mapping[int, str] | None = None) -> TablePublicView:
        """The hand's public view; a hole card exposed by the dealer that plays is shown
        among that seat's ``shown_cards``.  A pending ruling is not in it: it is
        :meth:`ruling_view` (the TV's banner)."""
        v = self.s.hand.public_view(names)
        exposed_playing = self._exposed_playing()
        if exposed_playing:
            seats = tuple(
                dataclasses.replace(sp, shown_cards=tuple(dict.fromkeys(
                    sp.shown_cards + tuple(exposed_playing.get(sp.seat, ())))))
                if sp.seat in exposed_playing else sp for sp in v.seats)
            v = dataclasses.replace(v, seats=seats)
        return v

    def seat_view(self, seat: int) -> SeatDisplayView:
        return self.s.hand.seat_view(seat)

    def _exposed_playing(self) -> dict[int, list[Card]]:
        out: dict[int, list[Card]] = {}
        for d in self.s.draws:
            if d.destination == HOLE and d.exposed and d.card is not None:
                out.setdefault(d.seat, []).append(d.card)  # type: ignore[arg-type]
        return out

    def deck_check(self, stub_uids: Sequence[str] | None = None) -> DeckCheck:
        """Account for all 52 cards: hole (live), mucked (folded seats), burn, board,
        scrap/set aside, and the stub (the cards not out; or, when ``stub_uids`` is given,
        the UIDs the dealer ran through the shoe from the stub)."""
        h = self.s.hand
        groups: dict[str, list[Card]] = {"hole": [], "mucked": [], "burn": [], "board": [],
                                          "set_aside": [], "scrap": []}
        out: set[Card] = set()
        for d in self.s.draws:
            if d.card is None or d.destination in (STUB, DEAD, "repeat"):
                continue
            if d.uid not in self.registry:
                continue  # foreign tag: not one of this deck's 52
            if d.destination == HOLE:
                folded = d.seat in h.stacks and h.status(d.seat) == "folded"
                groups["mucked" if folded else "hole"].append(d.card)
            else:
                groups.setdefault(d.destination, []).append(d.card)
            out.add(d.card)
        for d in self.s.draws:
            if d.destination == DEAD and d.card is not None and d.uid in self.registry:
                groups.setdefault("dead", []).append(d.card)
                out.add(d.card)
        if stub_uids is None:
            stub: list[Any] = [c for c in (self.registry.card(u) for u in self.registry.uids())
                               if c not in out]
        else:
            stub = list(stub_uids)
        return self.registry.check(**groups, stub=stub)

    # ------------------------------------------------------------------ apply
    def verify(self, event: Event) -> None:
        """Raises as :meth:`apply` of ``event`` would refuse it; changes nothing and copies
        no deal state (PokerKit's verify twin): a player action as :meth:`verify_action`
        (one pressed while cards are due is tried on a copy of the hand alone, as
        :meth:`apply` judges it), a confirm or override with no ruling waiting
        (:meth:`verify_decision`), a declaration as :meth:`verify_declaration`, a drawn card
        with a malformed UID.  Any other input is taken (a card out of sequence gets a
        ruling, not a refusal)."""
        if isinstance(event, Declaration) and event.kind in ("confirm_ruling", "override_ruling"):
            self.verify_decision()
        elif isinstance(event, Declaration):
            self.verify_declaration(event)
        elif isinstance(event, PlayerAction):
            self.verify_action(event)
            if self.s.due or self.s.hand.next_deal() is not None or self.s.held:
                self._probe(event, event.action)
        elif isinstance(event, CardDrawn) and not self.card_fits(event):
            check_uid(event.uid.strip().upper(), "the drawn card's UID")

    def apply(self, event: Event) -> list[Outcome]:
        """Apply one input event; returns what happened (see the module docstring).

        Verify, then do: a card the sequence expects (:meth:`card_fits`) is taken with no
        copy; a player action is verified first (:meth:`verify_action`): with the betting
        open (:meth:`betting_open`) it is taken with no copy, otherwise an accepted one
        keeps the deal state from before it (:attr:`state_before`, for the table's UNDO);
        any other input keeps a copy, to roll back to when it is refused and
        for the floor's override of a ruling it causes.  A refused input changes nothing.
        """
        self.applied += 1
        if isinstance(event, Declaration) and event.kind in ("confirm_ruling", "override_ruling"):
            return self._decide(event)
        fit = self._fit(event) if isinstance(event, CardDrawn) else None
        if fit is not None:
            # verified first (PokerKit's verify-then-do, card_fits): it can neither fail
            # nor rule, so no copy is kept to roll back to, and no UNDO reaches back past
            # a card; its UID and card are not looked up again
            assert isinstance(event, CardDrawn)  # only a card fits
            outs = self._on_card(event, fit)
            self.state_before = None
            if self._pending is not None:
                self._pending[3].append(event)
            return outs
        if isinstance(event, PlayerAction):
            self.verify_action(event)  # refused here, before anything is copied
            if self.betting_open():
                # verified whole: it can neither fail nor rule, so no copy is kept (the
                # table's UNDO keeps its own record: engine.table.undo)
                outs = self._apply_now(event, event.action, verified=True)
                self.state_before = None
                if self._pending is not None:
                    self._pending[3].append(event)
                return outs
        snap = self.s.copy()
        repeats, n_rulings = self.repeats, len(self.book.rulings)
        try:
            outs = self._dispatch(event)
        except Exception:
            self.s = snap
            self.repeats = repeats
            del self.book.rulings[n_rulings:]
            raise
        self.state_before = snap  # the deal state before this event (the table's UNDO)
        new = [o for o in outs if isinstance(o, RulingIssued)]
        if new:
            self._pending = (new[-1].ruling.id, snap, event, [])
        elif self._pending is not None:
            self._pending[3].append(event)
        return outs

    def _dispatch(self, event: Event) -> list[Outcome]:
        if isinstance(event, CardDrawn):
            return self._on_card(event)
        if isinstance(event, PlayerAction):
            return self._on_action(event)
        if isinstance(event, Declaration):
            return self._on_declaration(event)
        if isinstance(event, StubReshuffled):
            return self._on_reshuffle(event)
        if isinstance(event, ShoeReloaded):
            return self._on_reload(event)
        return []

    # ------------------------------------------------------------------ journal
    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-able snapshot (PRIVATE: contains hole cards; journal only)."""
        pend = None
        if self._pending is not None:
            rid, snap, trig, later = self._pending
            pend = {"ruling": rid, "state": snap.to_dict(), "trigger": event_to_dict(trig),
                    "later": [event_to_dict(e) for e in later]}
        return {"profile": self.profile.to_dict(), "registry": self.registry.to_dict(),
                "known_tags": {u: str(c) for u, c in self.known_tags.items()},
                "seed": self.seed, "book": self.book.to_dict(), "repeats": self.repeats,
                "redeals": self.redeals, "state": self.s.to_dict(), "pending": pend}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DealingProcedure:
        try:
            st = DealState.from_dict(d["state"])
            p = cls(st.cfg, DeckRegistry.from_dict(d["registry"]),
                    HouseProfile.from_dict(d["profile"]), seed=d["seed"],
                    known_tags={u: Card.parse(c) for u, c in d["known_tags"].items()})
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"bad dealing snapshot: {exc}") from None
        p.s = st
        p.book = RulingBook.from_dict(d["book"])
        p.repeats = d["repeats"]
        p.redeals = d["redeals"]
        if d.get("pending"):
            pd = d["pending"]
            p._pending = (pd["ruling"], DealState.from_dict(pd["state"]),
                          event_from_dict(pd["trigger"]),
                          [event_from_dict(e) for e in pd["later"]])
        return p


class _Desk:
    """A :class:`engine.dealing.detection.DealingDesk` over a procedure: the deal's state,
    profile and deck, and the procedure's own bookkeeping, each passed straight through."""

    def __init__(self, proc: DealingProcedure) -> None:
        self._proc = proc

    @property
    def state(self) -> DealState:
        return self._proc.s

    @property
    def profile(self) -> HouseProfile:
        return self._proc.profile

    @property
    def registry(self) -> DeckRegistry:
        return self._proc.registry

    def ruling(self, code: str, words: str, instruction: str, t: float, *,
               row: str | None = None, rule: str | None = None,
               draw: int | None = None) -> list[Outcome]:
        return self._proc._ruling(code, words, instruction, t, row=row, rule=rule, draw=draw)

    def misdeal(self, row: str, rule: str, words: str, t: float,
                draw: int | None = None) -> list[Outcome]:
        return self._proc._misdeal(row, rule, words, t, draw=draw)

    def record(self, ev: CardDrawn, card: Card | None, dest: str, *,
               seat: int | None = None, street: str | None = None,
               exposed: bool = False) -> Draw:
        return self._proc._record(ev, card, dest, seat=seat, street=street, exposed=exposed)

    def set_draw(self, n: int, **changes: Any) -> Draw:
        return self._proc._set_draw(n, **changes)

    def rebuild(self, *, board: Sequence[Card]) -> None:
        self._proc._rebuild(board=board)

    def choose(self, cards: Sequence[Card], n: int) -> int:
        return self._proc._choose(cards, n)

    def substantial_action(self) -> bool:
        return self._proc.substantial_action()
