"""Dealer declarations (the dealer button box): exposed, boxed and misdirected cards,
skipped seats, the button out of position, a missed burn.

A mixin of :class:`engine.dealing.procedure.DealingProcedure`: one method per row of the
rules table a declaration can raise (docs/irregularities.md, rows D1-D9, D13, B5-B7).  A
declaration about a card the shoe has already ruled on is reconciled with that ruling
(:meth:`Declarations._already_ruled`), never turned into a different ruling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.betting.hand import Hand
from engine.dealing.outcomes import Note, Outcome
from engine.dealing.sequence import (
    BURN,
    DEAD,
    HOLE,
    SCRAP,
    Draw,
    hole_order,
    hole_slots,
)
from engine.errors import InvalidInputError
from engine.events import Declaration

if TYPE_CHECKING:  # pragma: no cover
    from engine.dealing.deal_state import DealState
    from engine.dealing.detection import Detection
    from engine.dealing.irregularities import HouseProfile, RulingBook

#: Codes the shoe alone rules on: a later declaration about the same card is reconciled.
SHOE_CODES = ("EXTRA_CARD", "FOREIGN_CARD", "FOUR_CARD_FLOP", "DOUBLE_BURN", "PREMATURE_BURN",
              "PREMATURE_BOARD", "FOULED_DECK")


class NoSuchDrawError(InvalidInputError):
    """A declaration names a draw the procedure has not seen."""


class Declarations:
    """Declaration handlers (mixed into DealingProcedure)."""

    s: DealState
    profile: HouseProfile
    book: RulingBook
    _ruling: Callable[..., list[Outcome]]
    _misdeal: Callable[..., list[Outcome]]
    _set_draw: Callable[..., Draw]
    _feed_holes: Callable[[], None]
    detection: Callable[[], Detection]
    substantial_action: Callable[[], bool]

    # ------------------------------------------------------------------ declarations
    def _target(self, ev: Declaration) -> Draw:
        live = [d for d in self.s.draws if d.destination not in (DEAD,)]
        if ev.draw is not None:
            for d in reversed(self.s.draws):
                if d.shoe_draw == ev.draw:
                    return d
            raise NoSuchDrawError(f"no card with draw number {ev.draw} in this hand")
        if not live:
            raise NoSuchDrawError("no card has been drawn in this hand")
        return live[-1]

    def verify_declaration(self, ev: Declaration) -> None:
        """Raises as declaring ``ev`` would be refused, changing nothing: a draw number the
        hand has not seen or no card drawn (for a card's irregularity), a skipped seat not named
        or not dealt in, a missed burn with no street short of its burn.  Play stopped takes any
        declaration as a note."""
        if ev.kind == "floor_misdeal" or self.s.stopped:
            return
        if ev.kind == "missed_burn":
            self.detection().verify_missed_burn()
        elif ev.kind in ("exposed_card", "boxed_card", "wrong_seat"):
            self._target(ev)
        elif ev.kind == "seat_skipped" and ev.seat is None:
            raise InvalidInputError("seat_skipped needs the seat that was skipped")
        elif ev.kind == "seat_skipped" and ev.seat not in self.s.cfg.stacks:
            raise InvalidInputError(f"seat {ev.seat} is not dealt in this hand: it has no "
                                    "cards to skip")

    def _on_declaration(self, ev: Declaration) -> list[Outcome]:
        self.verify_declaration(ev)
        s = self.s
        if ev.kind == "floor_misdeal":
            if s.stopped:
                return [Note("play is already stopped")]
            return self._misdeal("floor", "TDA 1", "The floor called a misdeal." +
                                 (f" {ev.note}" if ev.note else ""), ev.t)
        if s.stopped:
            return [Note(f"play is stopped ({s.stopped.lower()}): declaration ignored")]
        if ev.kind == "missed_burn":
            return self.detection().declared_missed_burn(ev)
        if ev.kind in ("exposed_card", "boxed_card", "wrong_seat"):
            d = self._target(ev)
            known = self._already_ruled(ev, d)
            if known is not None:
                return known
            if ev.kind == "exposed_card":
                return self._exposed(ev, d)
            if ev.kind == "boxed_card":
                return self._boxed(ev, d)
            return self._wrong_seat(ev, d)
        if ev.kind == "seat_skipped":
            return self._seat_skipped(ev)
        if ev.kind == "button_out_of_position":
            return self._button_out(ev)
        return []

    def _already_ruled(self, ev: Declaration, d: Draw) -> list[Outcome] | None:
        """A declaration about a card the shoe has already ruled on (an extra card made the
        burn, a foreign tag, a four-card flop, a premature card, a second burn) does not turn
        that ruling into another one: it is noted, the ruling stands.  Seeing such a card
        face up only adds what a seen burn adds (B7)."""
        ruled = [r for r in self.book.rulings[self.s.first_ruling - 1:]
                 if r.draw == d.n and r.code in SHOE_CODES and r.status != "overridden"]
        if not ruled:
            return None
        if ev.kind == "exposed_card" and d.destination == BURN and not d.exposed:
            return None  # a seen burn: shown and discarded (B7); the ruling stands
        r = ruled[-1]
        return [Note(f"draw {d.n} was already ruled on ({r.code.replace('_', ' ').lower()}, "
                     f"ruling {r.id}): the {ev.kind.replace('_', ' ')} declaration changes "
                     "nothing")]

    def _window_closed(self, what: str, t: float) -> list[Outcome]:
        return self._ruling("MISDEAL_WINDOW_CLOSED", f"{what} after substantial action.",
                            "No misdeal (TDA 35-D): play continues.", t)

    def _exposed(self, ev: Declaration, d: Draw) -> list[Outcome]:
        s = self.s
        if d.destination == BURN and d.card is not None:
            self._set_draw(d.n, exposed=True)
            return self._ruling(
                "BURN_EXPOSED", f"The burn card was seen: {d.card.name}.",
                "Show it to all players and discard it; the next card takes its place as usual.",
                ev.t, rule="TDA 38 (house)")
        if d.destination != HOLE:
            return [Note("the card is not a hole card; nothing to rule")]
        card = d.card
        assert card is not None
        if d.exposed:
            return [Note("that card is already known to be exposed")]
        idx = self._position(d)
        self._set_draw(d.n, exposed=True)
        if self.substantial_action():
            return self._ruling(
                "EXPOSED_CARD_PLAYS", f"Seat {d.seat}'s {card.name} was exposed by the dealer "
                "after substantial action.", "The card plays; no misdeal (TDA 35-D).", ev.t)
        s.exposed_hole += 1
        nth = {1: "first", 2: "second"}.get(idx, f"{idx}th")
        if idx <= self.profile.exposed_first_cards:
            return self._misdeal("D1", "TDA 35-A-7", f"The {nth} card of the deal "
                                 f"({card.name}) was exposed by the dealer.", ev.t, draw=d.n)
        if s.exposed_hole >= 2:
            return self._misdeal("D3", "TDA 35-A-7", f"A second hole card ({card.name}) was "
                                 "exposed by the dealer.", ev.t, draw=d.n)
        assert d.seat is not None  # a hole card has its seat
        self._queue_replacement(d.seat, d.n, BURN)
        if s.plans["flop"][:1] == [BURN]:
            s.plans["flop"] = s.plans["flop"][1:]
        return self._ruling(
            "REPLACE_EXPOSED_CARD", f"Seat {d.seat}'s {card.name} was exposed by the dealer.",
            f"Finish the deal. Then the next card goes to seat {d.seat} in its place, and the "
            f"{card.name} becomes the flop burn (deal the flop with no further burn).", ev.t,
            draw=d.n)

    def _position(self, d: Draw) -> int:
        """1-based position of draw ``d`` in the deal (scraps and dead cards not counted)."""
        return sum(1 for x in self.s.draws[:d.n] if x.destination not in (SCRAP, DEAD))

    def _queue_replacement(self, seat: int, n: int, becomes: str, *, now: bool = False) -> None:
        """The next card (``now``) or the first card after the hole deal replaces draw ``n``
        at ``seat``; draw ``n`` then becomes ``becomes`` (the flop burn for D2, a scrap for a
        boxed card)."""
        s = self.s
        s.replacing.setdefault(seat, []).append([n, becomes])
        if now:
            s.due.insert(0, f"replace:{seat}")
            return
        last_hole = max((i for i, x in enumerate(s.due) if x.startswith("hole:")), default=-1)
        s.due.insert(last_hole + 1, f"replace:{seat}")

    def _boxed(self, ev: Declaration, d: Draw) -> list[Outcome]:
        s = self.s
        if d.exposed:
            return [Note("that card is already known to be face up")]
        s.boxed += 1
        sa = self.substantial_action()
        if not sa and (s.boxed >= 2 or self.profile.single_boxed_card == "misdeal"):
            return self._misdeal("D4", "TDA 35-A-1", "Two boxed cards on the deal." if
                                 s.boxed >= 2 else "A boxed card on the deal.", ev.t, draw=d.n)
        card = d.card
        words = f"A boxed card ({card.name if card else 'unknown'}) was found."
        if d.destination == HOLE:
            self._set_draw(d.n, exposed=True)
            seat = d.seat
            assert seat is not None  # a hole card has its seat
            # a scrap: the next card takes its place at once; it is not the burn (RRoP)
            self._queue_replacement(seat, d.n, SCRAP, now=True)
            return self._ruling("BOXED_CARD", words,
                                f"It is a scrap. The next card goes to seat {seat} in its "
                                "place; then the deal goes on in order.", ev.t, draw=d.n)
        self._set_draw(d.n, exposed=True)
        return self._ruling("BOXED_CARD", words, "It is a scrap; the deal goes on.", ev.t,
                            draw=d.n)

    def _wrong_seat(self, ev: Declaration, d: Draw) -> list[Outcome]:
        s = self.s
        if self.substantial_action():
            return self._window_closed("A card to the wrong seat", ev.t)
        if d.destination == HOLE and self._position(d) == 1:
            return self._misdeal("D5", "TDA 35-A-2", "The first card was dealt to the wrong "
                                 f"seat (seat {ev.seat}).", ev.t, draw=d.n)
        if ev.seat is not None and ev.seat not in s.cfg.stacks:
            return self._misdeal("D6", "TDA 35-A-3", f"Cards were dealt to seat {ev.seat}, "
                                 "which is not dealt in.", ev.t, draw=d.n)
        return self._misdeal("D5", "TDA 35-A-5", f"A card went to the wrong seat (seat "
                             f"{ev.seat}): seats hold the wrong number of cards.", ev.t, draw=d.n)

    def _seat_skipped(self, ev: Declaration) -> list[Outcome]:
        s = self.s
        seat = ev.seat
        assert seat is not None  # verified
        if self.substantial_action():
            return self._window_closed(f"Seat {seat} dealt out", ev.t)
        slot = f"hole:{seat}"
        if seat == s.cfg.button and self._button_slot_passed():
            return self._replan_button(ev)
        if seat == s.cfg.button and slot in s.due:
            s.due.remove(slot)
            after = max((j for j, x in enumerate(s.due) if x == slot), default=None)
            if after is None:
                after = max((j for j, x in enumerate(s.due) if x.startswith("hole:")), default=-1)
            s.due.insert(after + 1, slot)
            return self._ruling(
                "BUTTON_CONSECUTIVE_CARDS", f"The button (seat {seat}) was skipped.",
                "Go on dealing; the button takes its cards last, two in a row (TDA 35-B).",
                ev.t)
        return self._misdeal("D7", "TDA 35-A-4", f"Seat {seat}, entitled to a hand, was dealt "
                             "out.", ev.t)

    def _hole_draws(self) -> list[Draw]:
        return [d for d in self.s.draws if d.destination == HOLE]

    def _deal_order(self) -> list[int]:
        s = self.s
        hu = len(s.cfg.stacks) == 2 and s.hand.big_blind_seat is not None
        return hole_order(s.cfg.stacks, s.cfg.button, s.hand.big_blind_seat if hu else None)

    def _button_slot_passed(self) -> bool:
        """The button's first-round card has been drawn (and the deal is still on)."""
        s = self.s
        order = self._deal_order()
        return (len(self._hole_draws()) > order.index(s.cfg.button)
                and any(x.startswith("hole:") for x in s.due)
                and not s.replacing and s.exposed_hole == 0 and s.boxed == 0)

    def _replan_button(self, ev: Declaration) -> list[Outcome]:
        """D9 declared after the card: the card the shoe gave the button in the first round
        went to the next seat, and every card since one seat further on.  The deal is
        re-planned: each seat keeps the cards it holds, the button takes its two last."""
        s = self.s
        button = s.cfg.button
        order = self._deal_order()
        k = order.index(button)
        new = order[:k] + [x for x in order[k + 1:] if x != button] + [button, button]
        draws = self._hole_draws()
        d = s.hand.to_dict()
        s.hand = Hand.from_dict({"config": d["config"],
                                 "inputs": [x for x in d["inputs"] if x[0] != "hole"]})
        s.hole_buf = {}
        for i, dr in enumerate(draws):
            self._set_draw(dr.n, seat=new[i])
            if dr.card is not None:
                s.hole_buf.setdefault(new[i], []).append(dr.card)
        self._feed_holes()
        s.due = hole_slots(new[len(draws):]) + [x for x in s.due if not x.startswith("hole:")]
        return self._ruling(
            "BUTTON_CONSECUTIVE_CARDS", f"The button (seat {button}) was skipped.",
            "Every seat keeps the cards it has. Go on dealing; the button takes its cards "
            "last, two in a row (TDA 35-B).", ev.t)

    def _button_out(self, ev: Declaration) -> list[Outcome]:
        s = self.s
        if self.substantial_action():
            return self._ruling("BUTTON_STANDS", "The button was out of position.",
                                "Substantial action has occurred: the hand stands; move the "
                                "button correctly for the next hand.", ev.t)
        if ev.seat is not None:
            s.cfg = dataclasses.replace(s.cfg, button=ev.seat, small_blind_seat=None,
                                        big_blind_seat=None)
        return self._misdeal("D13", "TDA 34-A", "The button was out of position"
                             + (f"; it belongs at seat {ev.seat}." if ev.seat else "."), ev.t)
