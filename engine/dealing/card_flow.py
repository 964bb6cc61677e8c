"""Cards from the shoe: where each drawn card goes, the hand fed in order, the stub and
the reload after a misdeal.

A mixin of :class:`engine.dealing.procedure.DealingProcedure` (which holds the dealing state
``self.s``, the registry and the ruling helpers).  A card that fits the expected sequence
(:mod:`engine.dealing.sequence`) is assigned here; one that does not goes to
:mod:`engine.dealing.detection`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.betting.hand import Hand
from engine.cards import Card
from engine.dealing.irregularities import describe_expect
from engine.dealing.outcomes import (
    Assigned,
    ExpectedNextChanged,
    HandComplete,
    HandRedealt,
    Note,
    Outcome,
    PotAwarded,
    ReaderRepeat,
)
from engine.dealing.sequence import (
    BOARD,
    BURN,
    DEAD,
    HOLE,
    RESHUFFLE,
    SET_ASIDE,
    STUB,
    Draw,
    make_record,
    street_of_board,
)
from engine.errors import IllegalActionError
from engine.events import CardDrawn, ShoeReloaded, StubReshuffled
from engine.text import check_uid, is_uid
from engine.wording import counted

if TYPE_CHECKING:  # pragma: no cover
    from engine.dealing.deal_state import DealState
    from engine.dealing.detection import Detection
    from engine.dealing.irregularities import Ruling
    from engine.dealing.registry import DeckRegistry


class CardFlow:
    """Card and shoe handlers (mixed into DealingProcedure)."""

    s: DealState
    registry: DeckRegistry
    known_tags: Mapping[str, Card]
    seed: int
    repeats: int
    redeals: int
    _pending: Any
    book: Any
    _ruling: Callable[..., list[Outcome]]
    _misdeal: Callable[..., list[Outcome]]
    _confirm: Callable[..., list[Outcome]]
    pending_ruling: Callable[[], Ruling | None]
    detection: Callable[[], Detection]
    _new_state: Callable[..., DealState]
    _apply_held: Callable[..., list[Outcome]]
    expected_next: Callable[..., list[str]]

    # ------------------------------------------------------------------ cards
    def _record(self, ev: CardDrawn, card: Card | None, dest: str, *, seat: int | None = None,
                street: str | None = None, exposed: bool = False) -> Draw:
        s = self.s
        d = make_record(Draw, len(s.draws) + 1, ev.draw, ev.uid.upper(), card, dest, seat,
                        street, exposed)
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
        return make_record(Assigned, d.n, d.shoe_draw, d.destination, d.card, d.seat,
                           d.street, d.exposed)

    def card_fits(self, ev: CardDrawn) -> bool:
        """Whether ``ev`` is the card the sequence expects now, taken without a ruling and
        without any error: a reader repeat, or a registered card not out yet, drawn into a
        hole, burn or board slot the hand can take, with no ruling, stop or reshuffle in the
        way.  Changes nothing; :meth:`_on_card` of such a card can then neither raise nor
        rule, so the procedure applies it without a copy to roll back to."""
        return self._fit(ev) is not None

    def _fit(self, ev: CardDrawn) -> tuple[str, Card | None] | None:
        """:meth:`card_fits` of ``ev``, told as what :meth:`_on_card` would look up again:
        the card's UID and its registered card (None for a reader repeat, which looks up
        no card), or None when it does not fit."""
        s = self.s
        uid = ev.uid.strip().upper() if isinstance(ev.uid, str) else None
        if uid is None or not is_uid(uid):
            return None
        if uid == s.last_uid:
            return uid, None  # a reader repeat: counted, nothing else changes
        card = self.registry.card(uid)
        if card is None or card.id in s.seen or s.stopped or not s.due:
            return None
        h = s.hand
        if h.is_complete:
            return None
        slot = s.due[0]
        if slot == BURN:
            return uid, card
        if slot == BOARD:
            return (uid, card) if h.can_deal_board(card) else None
        if slot.startswith("hole:"):
            seat = int(slot[5:])
            # a card for a seat the hand does not want yet waits in the seat's buffer
            fits = h.next_deal() != ("hole", seat) or h.can_deal_hole(seat, card)
            return (uid, card) if fits else None
        return None  # a replacement card rebuilds the hand: the careful path

    def _on_card(self, ev: CardDrawn,
                 fit: tuple[str, Card | None] | None = None) -> list[Outcome]:
        """Take the card ``ev`` (``fit``: :meth:`_fit`'s answer for it, when asked just
        before: its UID and card are not looked up again)."""
        s = self.s
        uid = check_uid(ev.uid.strip().upper(), "the drawn card's UID") if fit is None \
            else fit[0]
        if uid == s.last_uid:
            self.repeats += 1
            return [ReaderRepeat(uid, self.repeats)]
        s.last_uid = uid
        card = self.registry.card(uid) if fit is None else fit[1]
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
                    else "a second copy of a card already out face down")
            return self._misdeal(
                "D12", "TDA 35-E",
                f"Fouled deck: {what} came out of the shoe (tag {uid[-4:]}).",
                ev.t, draw=len(s.draws), code="FOULED_DECK")
        if foreign:
            return self.detection().foreign(ev, card, uid)
        outs: list[Outcome] = []
        if s.due and s.due[0] == RESHUFFLE:
            s.due.pop(0)
            self._release_set_aside()
            outs.append(Note("a card was drawn before the reshuffle was reported; "
                             "the stub is taken as reshuffled"))
        assert card is not None  # a foreign tag was ruled on above
        if s.due:
            return outs + self._assign(s.due.pop(0), ev, card)
        return outs + self.detection().unexpected(ev, card)

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
        return [self._assigned(d)] + self._apply_held() + self._completion()

    def _feed_holes(self) -> None:
        s = self.s
        h = s.hand
        while True:
            nd = h.next_deal()
            seat = nd[1] if nd and nd[0] == "hole" else None
            if seat is None or not s.hole_buf.get(seat):
                return
            h.deal_hole(seat, s.hole_buf[seat].pop(0))

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

    def _choose(self, cards: Sequence[Card], n: int) -> int:
        """The index of the card picked at random by the table (TDA 39-A/39-B), or of the
        floor's pick when one was made (``s.floor_pick``, consumed).

        Raises:
            IllegalActionError: the floor's pick is not one of ``cards``.
        """
        s = self.s
        if s.floor_pick is not None:
            want = Card.parse(s.floor_pick)
            s.floor_pick = None
            if want not in cards:
                raise IllegalActionError(
                    f"the floor's pick {want} is not one of {', '.join(map(str, cards))}")
            return list(cards).index(want)
        return self._rng(n).randrange(len(cards))

    def _rng(self, n: int) -> random.Random:
        return random.Random(f"{self.seed}:{self.s.cfg.hand_number}:{self.redeals}:{n}")

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
            "STUB_RESHUFFLED", f"The stub was reshuffled face down; {counted(n, 'returned card')} "
            f"{'is' if n == 1 else 'are'} live again." + ("" if due else " (No reshuffle was due.)"),
            "Go on dealing as expected.", ev.t)

    def _on_reload(self, ev: ShoeReloaded) -> list[Outcome]:
        s = self.s
        if not s.stopped:
            s.last_uid = None
            if s.draws and not s.hand.is_complete:
                return [Note("shoe reloaded during a hand")]
            return []
        outs: list[Outcome] = []
        r = self.pending_ruling()
        if r is not None and r.misdeal:
            # the dealer reloading the shoe acts on the proposed misdeal
            outs += self._confirm(r, "the shoe was reloaded", ev.t)
        cfg = s.cfg
        self.redeals += 1
        self.s = self._new_state(cfg)
        self.s.first_ruling = self.book.next_id()
        self._pending = None
        exp = tuple(self.expected_next())
        return outs + [HandRedealt(cfg.button, tuple(sorted(cfg.stacks.items())), self.redeals),
                       ExpectedNextChanged(exp, describe_expect(exp))]
