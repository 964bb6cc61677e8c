"""Detection of dealing irregularities and the rulings that correct them.

A mixin of :class:`engine.dealing.procedure.DealingProcedure` (which holds the state ``self.s``,
the profile and the ruling helpers): one method per situation of the rules table
(docs/irregularities.md, rows D1-D14 and B1-B8).  Each returns the outcomes and leaves
``self.s`` expecting exactly the corrected pattern.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.dealing.irregularities import describe_expect
from engine.dealing.outcomes import ActionHeld, Assigned, Note, Outcome
from engine.dealing.registry import is_short_uid
from engine.dealing.sequence import (
    BOARD,
    BOARD_COUNT,
    BURN,
    DEAD,
    HOLE,
    RESHUFFLE,
    SCRAP,
    SET_ASIDE,
    STUB,
    Draw,
    slot_seat,
    street_of_board,
    street_plan,
)
from engine.errors import InvalidInputError
from engine.events import CardDrawn, Declaration, PlayerAction

if TYPE_CHECKING:  # pragma: no cover
    from engine.dealing.deal_state import DealState
    from engine.dealing.irregularities import HouseProfile
    from engine.dealing.registry import DeckRegistry

_ROW_BY_STREET = {"flop": "B1", "turn": "B2", "river": "B3"}


class NoSuchDrawError(InvalidInputError):
    """A declaration names a draw the procedure has not seen."""


def _names(cards: Any) -> str:
    return ", ".join(c.name for c in cards)


class Detection:
    """Irregularity handlers (mixed into DealingProcedure)."""

    s: DealState
    profile: HouseProfile
    registry: DeckRegistry
    _ruling: Callable[..., list[Outcome]]
    _misdeal: Callable[..., list[Outcome]]
    _record: Callable[..., Draw]
    _set_draw: Callable[..., Draw]
    _rebuild: Callable[..., None]
    _assigned: Callable[[Draw], Assigned]
    _rng: Callable[[int], random.Random]
    substantial_action: Callable[[], bool]

    # ------------------------------------------------------------------ cards
    def _foreign(self, ev: CardDrawn, card: Card | None, uid: str) -> list[Outcome]:
        """D11: a tag not of this deck (TDA 35-A-6; RRoP: a scrap, replaced)."""
        s = self.s
        d = self._record(ev, card, SCRAP)
        what = ("a truncated 4-byte tag (reader fault)" if is_short_uid(uid)
                else f"tag {uid} is not in deck {self.registry.name}")
        in_deal = bool(s.due) and (s.due[0].startswith("hole:") or s.hole_count == 0)
        if (self.profile.foreign_card == "misdeal_before_sa" and in_deal
                and not self.substantial_action()):
            return [self._assigned(d)] + self._misdeal(
                "D11", "TDA 35-A-6", f"A card not of this deck came out of the shoe: {what}.",
                ev.t, draw=d.n)
        return [self._assigned(d)] + self._ruling(
            "FOREIGN_CARD", f"A card not of this deck came out of the shoe: {what}.",
            "Take it out of play face down. The next card takes its place.", ev.t, draw=d.n)

    def _unexpected(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        """A card drawn when none is due: extra card (D8, B4, B6) or premature (B1-B3)."""
        s = self.s
        h = s.hand
        if h.street in ("showdown", "complete"):
            d = self._record(ev, card, DEAD)
            return [self._assigned(d)]
        street = h.street
        acted = s.street_actions.get(street, 0)
        if acted == 0 and s.prem_round != street:
            if street == "preflop":
                return self._extra_hole_card(ev, card)
            if street == "flop":
                return self._four_card_flop(ev, card)
            return self._double_burn(ev, card, street)
        nxt = street_of_board(len(h.board))
        if nxt is None:
            d = self._record(ev, card, DEAD)
            return [self._assigned(d), Note("a card was drawn after the river; it is dead")]
        return self._premature(ev, card, street, nxt)

    def _extra_hole_card(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        s = self.s
        s.extra_cards += 1
        n_hole = 2 * len(s.cfg.stacks)
        if (s.extra_cards == 1 and self.profile.one_extra_card == "burn"
                and s.plans["flop"][:1] == [BURN]):
            s.plans["flop"] = s.plans["flop"][1:]
            d = self._record(ev, card, BURN, street="flop")
            return [self._assigned(d)] + self._ruling(
                "EXTRA_CARD", f"One card more than the {n_hole} hole cards was dealt.",
                "Take it back face down: it is the flop burn. After the betting, deal the flop "
                "with no burn.", ev.t, draw=d.n)
        d = self._record(ev, card, DEAD)
        return [self._assigned(d)] + self._misdeal(
            "D8", "TDA 35-A-5",
            f"Wrong number of cards dealt: {n_hole + s.extra_cards} for {n_hole} hole cards.",
            ev.t, draw=d.n)

    def _four_card_flop(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        """B4 (TDA 39-A scramble; house: redeal with no burn)."""
        s = self.s
        flop = list(s.hand.board[:3])
        four = flop + [card]
        ns = [s.seen[c.id] for c in flop]
        d = self._record(ev, card, BOARD, street="flop", exposed=True)
        if self.profile.four_card_flop == "scramble":
            pick = self._rng(d.n).randrange(4)
            burn = four[pick]
            rest = [c for c in four if c != burn]
            self._rebuild(board=rest)
            for n_, c in zip(ns + [d.n], four, strict=False):
                self._set_draw(n_, destination=BURN if c == burn else BOARD,
                               street="turn" if c == burn else "flop", exposed=True)
            if s.plans["turn"][:1] == [BURN]:
                s.plans["turn"] = s.plans["turn"][1:]
            return [self._assigned(s.draws[d.n - 1])] + self._ruling(
                "FOUR_CARD_FLOP", f"Four cards were flopped: {_names(four)}.",
                f"Chosen at random by the table: the {burn.name} is the turn burn; the flop is "
                f"{_names(rest)}. After the betting, deal the turn with no burn.", ev.t,
                draw=d.n)
        for n_ in ns + [d.n]:
            self._set_draw(n_, destination=STUB, exposed=True)
        self._rebuild(board=[])
        s.due = [RESHUFFLE] + [BOARD] * 3
        s.street_drawn = 0
        s.plan_burn = False
        return [self._assigned(s.draws[d.n - 1])] + self._ruling(
            "FOUR_CARD_FLOP", f"Four cards were flopped: {_names(four)}.",
            "Put all four back in the stub and reshuffle; the burn stays. Deal a new flop "
            "with no burn.", ev.t, rule="TDA 39-A", draw=d.n)

    def _double_burn(self, ev: CardDrawn, card: Card, street: str) -> list[Outcome]:
        """B6: one card more than burn + card on the turn or river before any action."""
        s = self.s
        h = s.hand
        x = h.board[-1]
        xn = s.seen[x.id]
        if self.profile.burn_error == "correct":
            d = self._record(ev, card, BURN, street="river" if street == "turn" else street,
                             exposed=True)
            instr = f"Turn the second burned card face up: the {x.name} is the {street}."
            if street == "turn" and s.plans["river"][:1] == [BURN]:
                s.plans["river"] = s.plans["river"][1:]
                instr += (f" The {card.name} now face up becomes the river burn; deal the river "
                          "with no burn.")
            else:
                instr += f" The {card.name} now face up is discarded."
        else:
            d = self._record(ev, card, BOARD, street=street, exposed=True)
            self._rebuild(board=[card])
            self._set_draw(xn, destination=BURN)
            instr = f"The {card.name} stands as the {street}; the extra burn stays burned."
        return [self._assigned(d)] + self._ruling(
            "DOUBLE_BURN", f"Two burns before the {street}.", instr, ev.t, row="B6",
            draw=d.n)

    def _premature(self, ev: CardDrawn, card: Card, street: str, nxt: str) -> list[Outcome]:
        """B1-B3: drawn while the ``street`` betting is still open (TDA RP-5)."""
        s = self.s
        row = _ROW_BY_STREET[nxt]
        if s.prem_round != street:
            s.prem_round, s.prem_burn, s.prem_board = street, False, 0
        plan = s.plans[nxt]
        if not s.prem_burn and plan[:1] == [BURN]:
            s.prem_burn = True
            s.plans[nxt] = plan[1:]
            d = self._record(ev, card, BURN, street=nxt)
            return [self._assigned(d)] + self._ruling(
                "PREMATURE_BURN", f"A card was drawn before the {street} betting was complete.",
                f"It stays as the {nxt} burn. Finish the betting, then deal the {nxt} with no "
                "burn.", ev.t, row=row, draw=d.n)
        s.prem_board += 1
        if s.prem_board > 1:
            d = self._record(ev, card, STUB, street=nxt, exposed=True)
            return [self._assigned(d)]
        if nxt == "turn" and self.profile.premature_turn == "set_aside":
            d = self._record(ev, card, SET_ASIDE, street=nxt, exposed=True)
            s.plans["turn"] = [BURN, BOARD]
            s.plans["river"] = [RESHUFFLE, BOARD]
            return [self._assigned(d)] + self._ruling(
                "PREMATURE_BOARD", f"The turn ({card.name}) was dealt before the flop betting "
                "was complete.",
                f"Set the {card.name} aside. After the betting, burn and turn the next card as "
                "the turn. After the turn betting, reshuffle the stub with the set-aside card "
                "and deal the river with no burn.", ev.t, row=row, rule="TDA RP-5 (house: RRoP)",
                draw=d.n)
        d = self._record(ev, card, STUB, street=nxt, exposed=True)
        s.plans[nxt] = [RESHUFFLE] + [x for x in s.plans[nxt] if x != RESHUFFLE]
        return [self._assigned(d)] + self._ruling(
            "PREMATURE_BOARD", f"The {nxt} ({card.name}) was dealt before the {street} betting "
            "was complete.",
            f"The burn stays. Return the premature card(s) to the stub and reshuffle; after "
            f"the betting deal the {nxt} with no burn.", ev.t, row=row, draw=d.n)


    # ------------------------------------------------------------------ actions
    def _action_while_dealing(self, ev: PlayerAction, act: str) -> list[Outcome]:
        """An action while cards are still due: D10, D8 (short), B5, B6 (missed burn)."""
        s = self.s
        holes = [x for x in s.due if x.startswith("hole:")]
        held = ActionHeld(ev.seat, act, f"cards still due: {describe_expect(s.due)}")
        if holes:
            if len(holes) == 1 and slot_seat(holes[0]) == s.cfg.button:
                if s.button_short_ruled:
                    return [held]
                s.button_short_ruled = True
                return self._ruling(
                    "BUTTON_SHORT", f"The button (seat {s.cfg.button}) has only one card.",
                    "Deal the button its second card now, then the action continues.",
                    ev.t) + [held]
            n_hole = 2 * len(s.cfg.stacks)
            if n_hole - len(holes) < len(s.cfg.stacks):
                return [held]  # the first round is not even out: the deal is still going on
            return self._misdeal(
                "D8", "TDA 35-A-5",
                f"Wrong number of cards dealt: {n_hole - len(holes)} of {n_hole} hole cards "
                "when the action began.", ev.t)
        if (s.loaded_street and s.due == [BOARD] and s.plan_burn
                and s.street_drawn == len(street_plan(s.loaded_street)) - 1):
            return self._missed_burn(ev, held)
        return [held]

    def _missed_burn(self, ev: PlayerAction, held: ActionHeld) -> list[Outcome]:
        s = self.s
        street = s.loaded_street
        assert street is not None
        k = BOARD_COUNT[street]
        ns = [d.n for d in s.draws if d.street == street and d.destination in (BURN, BOARD)]
        ns = ns[-k:]
        cards = [s.draws[n - 1].card for n in ns]
        if street == "flop":
            knob = self.profile.missed_flop_burn
            if knob == "scramble":
                pick = self._rng(ns[-1]).randrange(3)
                burn = cards[pick]
                rest = [c for c in cards if c != burn]
                self._rebuild(board=rest)
                for n_, c in zip(ns, cards, strict=False):
                    self._set_draw(n_, destination=BURN if c == burn else BOARD, exposed=True)
                instr = (f"Chosen at random by the table: the {burn.name} is the burn; the flop "  # type: ignore[union-attr]
                         f"is {_names(rest)} plus the next card.")
                rule = "TDA 39-B"
            elif knob == "first_card_burns":
                self._set_draw(ns[0], exposed=True)
                instr = (f"Show the {cards[0].name} and discard it as the burn; the next card "  # type: ignore[union-attr]
                         "completes the flop.")
                rule = "TDA 39-B (house)"
            else:
                for n_ in ns:
                    self._set_draw(n_, destination=STUB, exposed=True)
                self._rebuild(board=[])
                s.due = [RESHUFFLE, BURN] + [BOARD] * 3
                s.street_drawn = 0
                instr = "Return the flop to the stub and reshuffle; then burn and deal a new flop."
                rule = "TDA 39-B (house: redeal)"
            return self._ruling(
                "MISSED_BURN", f"The flop was dealt without a burn: {_names(cards)}.",
                instr + " Then the action.", ev.t, row="B5", rule=rule) + [held]
        # turn or river: one card out (taken as the burn), no street card yet
        x = cards[-1]
        assert x is not None
        if self.profile.burn_error == "correct":
            self._set_draw(ns[-1], exposed=True)
            instr = (f"Show the {x.name} and discard it as the burn; the next card is the "
                     f"{street}.")
        else:
            self._set_draw(ns[-1], destination=BOARD)
            s.hand.deal_board(x)
            s.due = []
            s.street_drawn += 1
            instr = f"The {x.name} stands as the {street}."
        return self._ruling("MISSED_BURN", f"The {street} was dealt without a burn.",
                            instr + " Then the action.", ev.t, row="B6", rule="TDA 38") + [held]

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

    def _on_declaration(self, ev: Declaration) -> list[Outcome]:
        s = self.s
        if ev.kind == "floor_misdeal":
            if s.stopped:
                return [Note("play is already stopped")]
            return self._misdeal("floor", "TDA 1", "The floor called a misdeal." +
                                 (f" {ev.note}" if ev.note else ""), ev.t)
        if s.stopped:
            return [Note(f"play is stopped ({s.stopped.lower()}): declaration ignored")]
        if ev.kind == "exposed_card":
            return self._exposed(ev, self._target(ev))
        if ev.kind == "boxed_card":
            return self._boxed(ev, self._target(ev))
        if ev.kind == "wrong_seat":
            return self._wrong_seat(ev, self._target(ev))
        if ev.kind == "seat_skipped":
            return self._seat_skipped(ev)
        if ev.kind == "button_out_of_position":
            return self._button_out(ev)
        return []

    def _window_closed(self, what: str, t: float) -> list[Outcome]:
        return self._ruling("MISDEAL_WINDOW_CLOSED", f"{what} after substantial action.",
                            "No misdeal (TDA 35-D): play continues.", t)

    def _exposed(self, ev: Declaration, d: Draw) -> list[Outcome]:
        s = self.s
        if d.destination == BURN:
            self._set_draw(d.n, exposed=True)
            return self._ruling(
                "BURN_EXPOSED", f"The burn card was seen: {d.card.name}.",  # type: ignore[union-attr]
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
        self._queue_replacement(d.seat, d.n, BURN)  # type: ignore[arg-type]
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

    def _queue_replacement(self, seat: int, n: int, becomes: str) -> None:
        """After the hole deal, the next card replaces draw ``n`` at ``seat``; draw ``n``
        then becomes ``becomes`` (the flop burn for D2, a scrap for a boxed card)."""
        s = self.s
        s.replacing.setdefault(seat, []).append([n, becomes])
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
            # scrap: replaced by a card at the end of the deal; it is not the burn
            self._queue_replacement(seat, d.n, SCRAP)  # type: ignore[arg-type]
            return self._ruling("BOXED_CARD", words,
                                f"It is a scrap. Finish the deal; then the next card goes to seat "
                                f"{seat} in its place.", ev.t, draw=d.n)
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
        if seat is None:
            raise InvalidInputError("seat_skipped needs the seat that was skipped")
        if self.substantial_action():
            return self._window_closed(f"Seat {seat} dealt out", ev.t)
        slot = f"hole:{seat}"
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

