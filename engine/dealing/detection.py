"""Detection of dealing irregularities and the rulings that correct them.

A mixin of :class:`engine.dealing.procedure.DealingProcedure` (which holds the state ``self.s``,
the profile and the ruling helpers): one method per situation of the rules table
(docs/irregularities.md, rows D1-D14 and B1-B8).  Each returns the outcomes and leaves
``self.s`` expecting exactly the corrected pattern.
"""

from __future__ import annotations

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
    _choose: Callable[..., int]
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
            pick = self._choose(four, d.n)
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
        """An action while cards are still due: D10, D8 (short), B5/B6 (a street dealt
        without its burn, on which the action has now begun).  Returns ``ActionHeld`` when
        the action waits for the cards (it is applied once they are in)."""
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
                    "The button has not acted: deal it its second card now (TDA 37). The "
                    "actions already taken stand and the action continues.", ev.t) + [held]
            n_hole = 2 * len(s.cfg.stacks)
            if n_hole - len(holes) < len(s.cfg.stacks):
                return [held]  # the first round is not even out: the deal is still going on
            return self._misdeal(
                "D8", "TDA 35-A-5",
                f"Wrong number of cards dealt: {n_hole - len(holes)} of {n_hole} hole cards "
                "when the action began.", ev.t)
        if self._street_short_of_burn():
            return self._street_stands(ev)
        return [held]

    def _street_short_of_burn(self) -> bool:
        """The street's cards are out but one draw short: its burn was missed."""
        s = self.s
        return bool(s.loaded_street and s.due == [BOARD] and s.plan_burn
                    and s.street_drawn == len(street_plan(s.loaded_street)) - 1)

    def _street_stands(self, ev: PlayerAction) -> list[Outcome]:
        """B5 / B6 after action (TDA 39-B, TDA 38; RRoP): the street was dealt without a
        burn and the action on it has begun: the cards stand; the next street gets its burn."""
        s = self.s
        street = s.loaded_street
        assert street is not None
        ns = [d.n for d in s.draws if d.street == street and d.destination in (BURN, BOARD)]
        ns = ns[-BOARD_COUNT[street]:]
        cards = [c for c in (s.draws[n - 1].card for n in ns) if c is not None]
        self._set_draw(ns[0], destination=BOARD)
        self._rebuild(board=cards)
        s.due = []
        s.street_drawn += 1
        s.plan_burn = False
        what = f"The {street} was dealt without a burn: {_names(cards)}."
        nxt = {"flop": "turn", "turn": "river"}.get(street)
        instr = (f"Action has been taken on the {street}: the {street} stands."
                 + (f" The {nxt} gets one burn as usual." if nxt else ""))
        if street == "flop":
            return self._ruling("MISSED_BURN", what, instr, ev.t, row="B5", rule="TDA 39-B")
        return self._ruling("MISSED_BURN", what, instr, ev.t, row="B6", rule="TDA 38")

    def _declared_missed_burn(self, ev: Declaration) -> list[Outcome]:
        """The dealer says the street was dealt without a burn, before any action on it."""
        if not self._street_short_of_burn():
            raise InvalidInputError("no street is one card short of its burn: nothing to "
                                    "correct (a missed burn is declared after the street's "
                                    "cards are out and before any action on it)")
        return self._missed_burn(ev)

    def _missed_burn(self, ev: Declaration) -> list[Outcome]:
        """B5 / B6 before any action on the street: the house knob corrects it."""
        s = self.s
        street = s.loaded_street
        assert street is not None
        k = BOARD_COUNT[street]
        ns = [d.n for d in s.draws if d.street == street and d.destination in (BURN, BOARD)]
        ns = ns[-k:]
        cards = [c for c in (s.draws[n - 1].card for n in ns) if c is not None]
        if street == "flop":
            knob = self.profile.missed_flop_burn
            if knob == "scramble":
                pick = self._choose(cards, ns[-1])
                burn = cards[pick]
                rest = [c for c in cards if c != burn]
                self._rebuild(board=rest)
                for n_, c in zip(ns, cards, strict=False):
                    self._set_draw(n_, destination=BURN if c == burn else BOARD, exposed=True)
                instr = (f"Chosen at random by the table: the {burn.name} is the burn; the flop "
                         f"is {_names(rest)} plus the next card.")
                rule = "TDA 39-B"
            elif knob == "first_card_burns":
                self._set_draw(ns[0], exposed=True)
                instr = (f"Show the {cards[0].name} and discard it as the burn; the next card "
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
                instr + " Then the action.", ev.t, row="B5", rule=rule)
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
                            instr + " Then the action.", ev.t, row="B6", rule="TDA 38")
