"""The dealing procedure: one hand plus the card shoe stream, with automatic rulings.

API (for the service loop)::

    from engine.dealing.procedure import DealingProcedure
    proc = DealingProcedure(HandConfig(...), registry, profile="tda2024", seed=0)
    outcomes = proc.apply(event)   # CardDrawn, Declaration, ShoeReloaded, StubReshuffled,
                                   # PlayerAction (action: fold | check_call | bet_raise
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
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.betting.hand import Hand, HandConfig
from engine.cards import Card
from engine.dealing.deal_state import DealState
from engine.dealing.detection import Detection
from engine.dealing.irregularities import (
    CATALOGUE,
    HouseProfile,
    Ruling,
    RulingBook,
    describe_expect,
    make_profile,
    substantial_action,
)
from engine.dealing.outcomes import (
    ActionApplied,
    Assigned,
    ExpectedNextChanged,
    HandComplete,
    HandRedealt,
    HandVoided,
    Note,
    Outcome,
    PotAwarded,
    ReaderRepeat,
    RulingDecided,
    RulingIssued,
)
from engine.dealing.registry import DeckCheck, DeckRegistry
from engine.dealing.sequence import (
    BETTING,
    BOARD,
    BOARD_COUNT,
    BURN,
    DEAD,
    HOLE,
    RESHUFFLE,
    SET_ASIDE,
    STUB,
    Draw,
    hole_order,
    hole_slots,
    street_of_board,
)
from engine.errors import IllegalActionError, InvalidInputError
from engine.events import (
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

ACTIONS = ("fold", "check_call", "bet_raise", "show", "muck")
_ACTION_ALIASES = {"check": "check_call", "call": "check_call", "bet": "bet_raise",
                   "raise": "bet_raise"}


class NoPendingRulingError(InvalidInputError):
    """A confirm/override with no advisory ruling waiting."""


class DealingProcedure(Detection):
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

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def _new_state(config: HandConfig) -> DealState:
        cfg = dataclasses.replace(config, burn_cards=False)
        order = hole_order(cfg.stacks, cfg.button, cfg.big_blind_seat
                           if cfg.big_blind_seat in cfg.stacks else None)
        probe = Hand(cfg)
        if len(cfg.stacks) == 2 and probe.big_blind_seat is not None:
            order = hole_order(cfg.stacks, cfg.button, probe.big_blind_seat)
        st = DealState.fresh(cfg, hole_slots(order))
        st.hand = probe
        return st

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
        return substantial_action(self.s.hand.actions_in_turn(), self.profile.misdeal_gate)

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

    def pending_ruling(self) -> Ruling | None:
        """The latest advisory ruling of the current deal (None if there is none)."""
        for r in reversed(self.book.rulings):
            if r.id < self.s.first_ruling:
                break
            if r.status == "advisory":
                return r
        return None

    def ruling_view(self) -> RulingView | None:
        r = self.pending_ruling()
        return r.view() if r else None

    def public_view(self, names: Mapping[int, str] | None = None) -> TablePublicView:
        """The hand's public view; a hole card exposed by the dealer that plays is shown
        among that seat's ``shown_cards``; the pending ruling's words go in ``message``."""
        v = self.s.hand.public_view(names)
        exposed_playing = self._exposed_playing()
        if exposed_playing:
            seats = tuple(
                dataclasses.replace(sp, shown_cards=tuple(dict.fromkeys(
                    sp.shown_cards + tuple(exposed_playing.get(sp.seat, ())))))
                if sp.seat in exposed_playing else sp for sp in v.seats)
            v = dataclasses.replace(v, seats=seats)
        r = self.pending_ruling()
        if r is not None:
            v = dataclasses.replace(v, message=f"{r.words} {r.instruction}".strip())
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
    def apply(self, event: Event) -> list[Outcome]:
        """Apply one input event; returns what happened (see the module docstring)."""
        if isinstance(event, Declaration) and event.kind in ("confirm_ruling", "override_ruling"):
            return self._decide(event)
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

    # ------------------------------------------------------------------ rulings
    def _ruling(self, code: str, words: str, instruction: str, t: float, *, row: str | None = None,
                rule: str | None = None, draw: int | None = None,
                misdeal: bool = False) -> list[Outcome]:
        crow, crule, _ = CATALOGUE[code]
        exp = tuple(self.expected_next(full=True))
        r = self.book.add(Ruling(
            id=self.book.next_id(), code=code, row=row or crow, rule=rule or crule, words=words,
            instruction=instruction, profile=self.profile.name, expect_next=exp, draw=draw,
            misdeal=misdeal, t=t))
        return [RulingIssued(r), ExpectedNextChanged(exp, describe_expect(exp))]

    def _misdeal(self, row: str, rule: str, words: str, t: float, draw: int | None = None,
                 code: str = "MISDEAL") -> list[Outcome]:
        s = self.s
        if not s.hand.is_complete:
            s.hand.void(f"{code.lower()}: {rule}")
        s.stopped = code
        s.due = []
        if code == "FOULED_DECK":
            instr = ("Stop play. Every bet is returned. Check the deck, reload the shoe and "
                     "deal again with the same button.")
        else:
            instr = ("Every chip put in is returned. Reshuffle, reload the shoe and deal again: "
                     "same button, same players, same limits (TDA 35-C).")
        outs = self._ruling(code, words, instr, t, row=row, rule=rule, draw=draw, misdeal=True)
        outs.insert(1, HandVoided(words, rule, tuple(sorted(s.hand.stacks.items()))))
        return outs

    def _decide(self, ev: Declaration) -> list[Outcome]:
        r = self.pending_ruling()
        if r is None:
            raise NoPendingRulingError("no advisory ruling is waiting for the floor")
        if ev.kind == "confirm_ruling":
            r2 = self.book.set_status(r.id, "confirmed", ev.note, ev.t)
            if self._pending and self._pending[0] == r.id:
                self._pending = None
            return [RulingDecided(r2)]
        r2 = self.book.set_status(r.id, "overridden", ev.note, ev.t)
        outs: list[Outcome] = [RulingDecided(r2)]
        if self._pending and self._pending[0] == r.id:
            _, snap, trigger, later = self._pending
            self._pending = None
            self.s = snap
            if isinstance(trigger, CardDrawn):
                n = len(self.s.draws) + 1
                card = self.registry.card(trigger.uid.upper())
                self.s.draws.append(Draw(n, trigger.draw, trigger.uid.upper(), card, DEAD))
                self.s.last_uid = trigger.uid.upper()
                if card is not None:
                    self.s.seen[card.id] = n
                outs.append(Note(f"draw {n} set aside by the floor"))
            for e in later:
                try:
                    outs += self.apply(e)
                except (IllegalActionError, InvalidInputError) as exc:
                    outs.append(Note(f"after the override, an input no longer applies: {exc}"))
        exp = tuple(self.expected_next(full=True))
        outs.append(ExpectedNextChanged(exp, describe_expect(exp)))
        return outs

    # ------------------------------------------------------------------ cards
    def _record(self, ev: CardDrawn, card: Card | None, dest: str, *, seat: int | None = None,
                street: str | None = None, exposed: bool = False) -> Draw:
        s = self.s
        d = Draw(len(s.draws) + 1, ev.draw, ev.uid.upper(), card, dest, seat, street, exposed)
        s.draws.append(d)
        if card is not None and dest not in (STUB, "repeat"):
            s.seen[card.id] = d.n
        if exposed and card is not None:
            s.exposed.append(card.id)
        return d

    def _set_draw(self, n: int, **changes: Any) -> Draw:
        s = self.s
        d = dataclasses.replace(s.draws[n - 1], **changes)
        s.draws[n - 1] = d
        if d.card is not None:
            if d.destination == STUB:
                s.seen.pop(d.card.id, None)
            else:
                s.seen[d.card.id] = n
            if d.exposed and d.card.id not in s.exposed:
                s.exposed.append(d.card.id)
        return d

    @staticmethod
    def _assigned(d: Draw) -> Assigned:
        return Assigned(d.n, d.shoe_draw, d.destination, d.card, d.seat, d.street, d.exposed)

    def _on_card(self, ev: CardDrawn) -> list[Outcome]:
        s = self.s
        uid = check_uid(ev.uid.strip().upper(), "the drawn card's UID")
        if uid == s.last_uid:
            self.repeats += 1
            return [ReaderRepeat(uid, self.repeats)]
        s.last_uid = uid
        card = self.registry.card(uid)
        foreign = card is None
        if foreign:
            card = self.known_tags.get(uid)
        if s.stopped or s.hand.is_complete:
            d = self._record(ev, card, DEAD)
            return [self._assigned(d)]
        if card is not None and card.id in s.seen:
            earlier = s.draws[s.seen[card.id] - 1]
            self._record(ev, card, DEAD)
            # name the card only if its first copy is public (a hole card stays private)
            what = (f"a second {card.name}" if earlier.destination == BOARD or earlier.exposed
                    else f"a second copy of draw {earlier.n}'s card")
            return self._misdeal(
                "D12", "TDA 35-E",
                f"Fouled deck: {what} came out of the shoe (tag {uid[-4:]}).",
                ev.t, draw=len(s.draws), code="FOULED_DECK")
        if foreign:
            return self._foreign(ev, card, uid)
        outs: list[Outcome] = []
        if s.due and s.due[0] == RESHUFFLE:
            s.due.pop(0)
            self._release_set_aside()
            outs.append(Note("a card was drawn before the reshuffle was reported; "
                             "the stub is taken as reshuffled"))
        if s.due:
            return outs + self._assign(s.due.pop(0), ev, card)  # type: ignore[arg-type]
        return outs + self._unexpected(ev, card)  # type: ignore[arg-type]

    def _assign(self, slot: str, ev: CardDrawn, card: Card) -> list[Outcome]:
        s = self.s
        h = s.hand
        if slot.startswith("hole:"):
            seat = int(slot[5:])
            s.hole_count += 1
            d = self._record(ev, card, HOLE, seat=seat)
            s.hole_buf.setdefault(seat, []).append(card)
            self._feed_holes()
        elif slot.startswith("replace:"):
            d = self._replace_hole(int(slot[8:]), ev, card)
        elif slot == BURN:
            d = self._record(ev, card, BURN, street=s.loaded_street)
            s.street_drawn += 1
        else:
            d = self._record(ev, card, BOARD, street=s.loaded_street)
            h.deal_board(card)
            s.street_drawn += 1
        self._sync()
        return [self._assigned(d)] + self._completion()

    def _feed_holes(self) -> None:
        s = self.s
        h = s.hand
        while True:
            nd = h.next_deal()
            if not nd or nd[0] != "hole" or not s.hole_buf.get(nd[1]):  # type: ignore[arg-type]
                return
            h.deal_hole(nd[1], s.hole_buf[nd[1]].pop(0))  # type: ignore[index,arg-type]

    def _sync(self) -> None:
        """Load the next street's planned draws once the hand wants board cards."""
        s = self.s
        if s.stopped or s.due:
            return
        nd = s.hand.next_deal()
        if nd and nd[0] == "board":
            street = street_of_board(len(s.hand.board))
            if street is not None and s.loaded_street != street:
                s.due = list(s.plans[street])
                s.loaded_street = street
                s.street_drawn = 0
                s.plan_burn = bool(s.due) and s.due[0] == BURN
                s.prem_round = None
                s.prem_burn = False
                s.prem_board = 0

    def _completion(self) -> list[Outcome]:
        s = self.s
        h = s.hand
        if not h.is_complete or s.reported_complete or h.is_void:
            return []
        s.reported_complete = True
        outs: list[Outcome] = []
        for k, (amount, _elig, won) in enumerate(h.awards):
            outs.append(PotAwarded(amount, tuple((int(a), int(b)) for a, b in won),
                                   "Main pot" if k == 0 else f"Side pot {k}"))
        outs.append(HandComplete(tuple(sorted(h.stacks.items()))))
        return outs

    def _rebuild(self, *, replace_hole: tuple[int, Card, Card] | None = None,
                 board: Sequence[Card] | None = None) -> None:
        """Re-create the hand from its inputs with a hole card swapped, or with ``board``
        as the cards of the street being dealt (no action has happened on it yet)."""
        s = self.s
        d = s.hand.to_dict()
        inputs = d["inputs"]
        if replace_hole is not None:
            seat, old, new = replace_hole
            for x in inputs:
                if x[0] == "hole" and int(x[1]) == seat and x[2] == str(old):
                    x[2] = str(new)
                    break
        if board is not None:
            base = {"flop": 0, "turn": 3, "river": 4}[s.loaded_street or "flop"]
            drop = len(s.hand.board) - base
            for j in range(len(inputs) - 1, -1, -1):
                if drop <= 0:
                    break
                if inputs[j][0] == "board":
                    del inputs[j]
                    drop -= 1
            inputs = inputs + [["board", str(c)] for c in board]
        s.hand = Hand.from_dict({"config": d["config"], "inputs": inputs})

    def _replace_hole(self, seat: int, ev: CardDrawn, card: Card) -> Draw:
        """D2: the replacement for seat ``seat``'s exposed card; the exposed card becomes
        the flop burn (seeds 000, 004)."""
        s = self.s
        n_old, becomes = s.replacing[seat].pop(0)
        if not s.replacing[seat]:
            del s.replacing[seat]
        old_d = s.draws[n_old - 1]
        old = old_d.card
        assert old is not None
        buf = s.hole_buf.get(seat, [])
        if old in buf:
            buf[buf.index(old)] = card
        else:
            self._rebuild(replace_hole=(seat, old, card))
        self._set_draw(old_d.n, destination=becomes,
                       street="flop" if becomes == BURN else None, seat=None)
        d = self._record(ev, card, HOLE, seat=seat)
        self._feed_holes()
        return d

    def _release_set_aside(self) -> int:
        n = 0
        for d in list(self.s.draws):
            if d.destination in (SET_ASIDE, STUB):
                if d.destination == SET_ASIDE:
                    self._set_draw(d.n, destination=STUB)
                n += 1
        return n

    def _rng(self, n: int) -> random.Random:
        return random.Random(f"{self.seed}:{self.s.cfg.hand_number}:{self.redeals}:{n}")

    # ------------------------------------------------------------------ actions
    def _on_action(self, ev: PlayerAction) -> list[Outcome]:
        s = self.s
        h = s.hand
        act = _ACTION_ALIASES.get(ev.action, ev.action)
        if act not in ACTIONS:
            raise IllegalActionError(f"unknown action {ev.action!r}; expected one of "
                                     f"{', '.join(ACTIONS)}")
        if s.stopped:
            raise IllegalActionError(f"play is stopped ({s.stopped.lower()}): reload the shoe")
        if h.is_complete:
            raise IllegalActionError("the hand is over")
        if s.due or h.next_deal() is not None:
            return self._action_while_dealing(ev, act)
        street = h.street
        if act == "show":
            h.show(ev.seat)
        elif act == "muck":
            h.muck(ev.seat)
        else:
            if h.actor != ev.seat:
                raise IllegalActionError(f"seat {ev.seat} is not to act; seat {h.actor} is")
            if act == "fold":
                h.fold()
            elif act == "check_call":
                h.check_or_call()
            else:
                if ev.amount is None:
                    raise IllegalActionError("bet_raise needs an amount (the raise-to total)")
                h.bet_or_raise_to(int(ev.amount))
            s.street_actions[street] = s.street_actions.get(street, 0) + 1
        outs: list[Outcome] = [ActionApplied(ev.seat, act, ev.amount)]
        self._sync()
        return outs + self._completion()

    # ------------------------------------------------------------------ stub and shoe
    def _on_reshuffle(self, ev: StubReshuffled) -> list[Outcome]:
        s = self.s
        if s.stopped or s.hand.is_complete:
            return [Note("stub reshuffled outside a hand")]
        s.last_uid = None
        due = False
        if RESHUFFLE in s.due:
            s.due.remove(RESHUFFLE)
            due = True
        else:
            for st in ("flop", "turn", "river"):
                if RESHUFFLE in s.plans[st]:
                    s.plans[st].remove(RESHUFFLE)
                    due = True
                    break
        n = self._release_set_aside()
        return self._ruling(
            "STUB_RESHUFFLED", f"The stub was reshuffled face down; {n} returned card(s) are "
            "live again." + ("" if due else " (No reshuffle was due.)"),
            "Go on dealing as expected.", ev.t)

    def _on_reload(self, ev: ShoeReloaded) -> list[Outcome]:
        s = self.s
        if not s.stopped:
            s.last_uid = None
            if s.draws and not s.hand.is_complete:
                return [Note("shoe reloaded during a hand")]
            return []
        cfg = s.cfg
        self.redeals += 1
        self.s = self._new_state(cfg)
        self.s.first_ruling = self.book.next_id()
        self._pending = None
        exp = tuple(self.expected_next())
        return [HandRedealt(cfg.button, tuple(sorted(cfg.stacks.items())), self.redeals),
                ExpectedNextChanged(exp, describe_expect(exp))]

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
