"""Detection of dealing irregularities and the rulings that correct them.

:class:`Detection` works for the dealing procedure through one explicit interface,
:class:`DealingDesk`: it reads the deal's state, the house profile and the deck there, and
asks the desk to record a draw, issue a ruling, propose a misdeal, rebuild the hand or pick
a card at random; it calls nothing else of the procedure and keeps no state of its own.
One method per situation of the rules table (docs/irregularities.md, rows D1-D14 and
B1-B8); each returns the outcomes and leaves the deal's state expecting exactly the
corrected pattern.  The procedure asks four questions: :meth:`Detection.foreign`,
:meth:`Detection.unexpected`, :meth:`Detection.action_while_dealing` and
:meth:`Detection.declared_missed_burn`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

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


def _assigned(d: Draw) -> Assigned:
    return Assigned(d.n, d.shoe_draw, d.destination, d.card, d.seat, d.street, d.exposed)


class DealingDesk(Protocol):
    """What :class:`Detection` reads and asks of the procedure it works for."""

    @property
    def state(self) -> DealState:
        """The deal now (replaced by the procedure on a reload or an override)."""
        ...

    @property
    def profile(self) -> HouseProfile: ...

    @property
    def registry(self) -> DeckRegistry: ...

    def ruling(self, code: str, words: str, instruction: str, t: float, *,
               row: str | None = None, rule: str | None = None,
               draw: int | None = None) -> list[Outcome]:
        """Issue an advisory ruling (``code`` from the catalogue; ``t`` seconds)."""
        ...

    def misdeal(self, row: str, rule: str, words: str, t: float,
                draw: int | None = None) -> list[Outcome]:
        """Propose a misdeal: play stops until the floor decides."""
        ...

    def record(self, ev: CardDrawn, card: Card | None, dest: str, *,
               seat: int | None = None, street: str | None = None,
               exposed: bool = False) -> Draw:
        """Record the drawn card as going to ``dest`` (a :mod:`engine.dealing.sequence`
        destination)."""
        ...

    def set_draw(self, n: int, **changes: Any) -> Draw:
        """Change where draw ``n`` (1-based in the hand) went."""
        ...

    def rebuild(self, *, board: Sequence[Card]) -> None:
        """Re-create the hand with ``board`` as the cards of the street being dealt."""
        ...

    def choose(self, cards: Sequence[Card], n: int) -> int:
        """The index in ``cards`` picked at random by the table (or by the floor)."""
        ...

    def substantial_action(self) -> bool:
        """TDA 36 (or the house gate) from the hand's action so far."""
        ...


class Detection:
    """The irregularity rulings of one deal, working through ``desk`` (see the module
    docstring)."""

    def __init__(self, desk: DealingDesk) -> None:
        self.desk = desk

    # ------------------------------------------------------------------ cards
    def foreign(self, ev: CardDrawn, card: Card | None, uid: str) -> list[Outcome]:
        """D11: a tag not of this deck (TDA 35-A-6; RRoP: a scrap, replaced)."""
        s = self.desk.state
        d = self.desk.record(ev, card, SCRAP)
        what = ("a truncated 4-byte tag (reader fault)" if is_short_uid(uid)
                else f"tag {uid} is not in deck {self.desk.registry.name}")
        in_deal = bool(s.due) and (s.due[0].startswith("hole:") or s.hole_count == 0)
        if (self.desk.profile.foreign_card == "misdeal_before_sa" and in_deal
                and not self.desk.substantial_action()):
            return [_assigned(d)] + self.desk.misdeal(
                "D11", "TDA 35-A-6", f"A card not of this deck came out of the shoe: {what}.",
                ev.t, draw=d.n)
        return [_assigned(d)] + self.desk.ruling(
            "FOREIGN_CARD", f"A card not of this deck came out of the shoe: {what}.",
            "Take it out of play face down. The next card takes its place.", ev.t, draw=d.n)

    def unexpected(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        """A card drawn when none is due: extra card (D8, B4, B6) or premature (B1-B3)."""
        s = self.desk.state
        h = s.hand
        if h.street in ("showdown", "complete"):
            d = self.desk.record(ev, card, DEAD)
            return [_assigned(d)]
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
            d = self.desk.record(ev, card, DEAD)
            return [_assigned(d), Note("a card was drawn after the river; it is dead")]
        return self._premature(ev, card, street, nxt)

    def _extra_hole_card(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        s = self.desk.state
        s.extra_cards += 1
        n_hole = 2 * len(s.cfg.stacks)
        if (s.extra_cards == 1 and self.desk.profile.one_extra_card == "burn"
                and s.plans["flop"][:1] == [BURN]):
            s.plans["flop"] = s.plans["flop"][1:]
            d = self.desk.record(ev, card, BURN, street="flop")
            return [_assigned(d)] + self.desk.ruling(
                "EXTRA_CARD", f"One card more than the {n_hole} hole cards was dealt.",
                "Take it back face down: it is the flop burn. After the betting, deal the flop "
                "with no burn.", ev.t, draw=d.n)
        d = self.desk.record(ev, card, DEAD)
        return [_assigned(d)] + self.desk.misdeal(
            "D8", "TDA 35-A-5",
            f"Wrong number of cards dealt: {n_hole + s.extra_cards} for {n_hole} hole cards.",
            ev.t, draw=d.n)

    def _four_card_flop(self, ev: CardDrawn, card: Card) -> list[Outcome]:
        """B4 (TDA 39-A scramble; house: redeal with no burn)."""
        s = self.desk.state
        flop = list(s.hand.board[:3])
        four = flop + [card]
        ns = [s.seen[c.id] for c in flop]
        d = self.desk.record(ev, card, BOARD, street="flop", exposed=True)
        if self.desk.profile.four_card_flop == "scramble":
            pick = self.desk.choose(four, d.n)
            burn = four[pick]
            rest = [c for c in four if c != burn]
            self.desk.rebuild(board=rest)
            for n_, c in zip(ns + [d.n], four, strict=False):
                self.desk.set_draw(n_, destination=BURN if c == burn else BOARD,
                               street="turn" if c == burn else "flop", exposed=True)
            if s.plans["turn"][:1] == [BURN]:
                s.plans["turn"] = s.plans["turn"][1:]
            return [_assigned(s.draws[d.n - 1])] + self.desk.ruling(
                "FOUR_CARD_FLOP", f"Four cards were flopped: {_names(four)}.",
                f"Chosen at random by the table: the {burn.name} is the turn burn; the flop is "
                f"{_names(rest)}. After the betting, deal the turn with no burn.", ev.t,
                draw=d.n)
        for n_ in ns + [d.n]:
            self.desk.set_draw(n_, destination=STUB, exposed=True)
        self.desk.rebuild(board=[])
        s.due = [RESHUFFLE] + [BOARD] * 3
        s.street_drawn = 0
        s.plan_burn = False
        return [_assigned(s.draws[d.n - 1])] + self.desk.ruling(
            "FOUR_CARD_FLOP", f"Four cards were flopped: {_names(four)}.",
            "Put all four back in the stub and reshuffle; the burn stays. Deal a new flop "
            "with no burn.", ev.t, rule="TDA 39-A", draw=d.n)

    def _double_burn(self, ev: CardDrawn, card: Card, street: str) -> list[Outcome]:
        """B6: one card more than burn + card on the turn or river before any action."""
        s = self.desk.state
        h = s.hand
        x = h.board[-1]
        xn = s.seen[x.id]
        if self.desk.profile.burn_error == "correct":
            d = self.desk.record(ev, card, BURN, street="river" if street == "turn" else street,
                             exposed=True)
            instr = f"Turn the second burned card face up: the {x.name} is the {street}."
            if street == "turn" and s.plans["river"][:1] == [BURN]:
                s.plans["river"] = s.plans["river"][1:]
                instr += (f" The {card.name} now face up becomes the river burn; deal the river "
                          "with no burn.")
            else:
                instr += f" The {card.name} now face up is discarded."
        else:
            d = self.desk.record(ev, card, BOARD, street=street, exposed=True)
            self.desk.rebuild(board=[card])
            self.desk.set_draw(xn, destination=BURN)
            instr = f"The {card.name} stands as the {street}; the extra burn stays burned."
        return [_assigned(d)] + self.desk.ruling(
            "DOUBLE_BURN", f"Two burns before the {street}.", instr, ev.t, row="B6",
            draw=d.n)

    def _premature(self, ev: CardDrawn, card: Card, street: str, nxt: str) -> list[Outcome]:
        """B1-B3: drawn while the ``street`` betting is still open (TDA RP-5)."""
        s = self.desk.state
        row = _ROW_BY_STREET[nxt]
        if s.prem_round != street:
            s.prem_round, s.prem_burn, s.prem_board = street, False, 0
        plan = s.plans[nxt]
        if not s.prem_burn and plan[:1] == [BURN]:
            s.prem_burn = True
            s.plans[nxt] = plan[1:]
            d = self.desk.record(ev, card, BURN, street=nxt)
            return [_assigned(d)] + self.desk.ruling(
                "PREMATURE_BURN", f"A card was drawn before the {street} betting was complete.",
                f"It stays as the {nxt} burn. Finish the betting, then deal the {nxt} with no "
                "burn.", ev.t, row=row, draw=d.n)
        s.prem_board += 1
        if s.prem_board > 1:
            d = self.desk.record(ev, card, STUB, street=nxt, exposed=True)
            return [_assigned(d)]
        if nxt == "turn" and self.desk.profile.premature_turn == "set_aside":
            d = self.desk.record(ev, card, SET_ASIDE, street=nxt, exposed=True)
            s.plans["turn"] = [BURN, BOARD]
            s.plans["river"] = [RESHUFFLE, BOARD]
            return [_assigned(d)] + self.desk.ruling(
                "PREMATURE_BOARD", f"The turn ({card.name}) was dealt before the flop betting "
                "was complete.",
                f"Set the {card.name} aside. After the betting, burn and turn the next card as "
                "the turn. After the turn betting, reshuffle the stub with the set-aside card "
                "and deal the river with no burn.", ev.t, row=row, rule="TDA RP-5 (house: RRoP)",
                draw=d.n)
        d = self.desk.record(ev, card, STUB, street=nxt, exposed=True)
        s.plans[nxt] = [RESHUFFLE] + [x for x in s.plans[nxt] if x != RESHUFFLE]
        return [_assigned(d)] + self.desk.ruling(
            "PREMATURE_BOARD", f"The {nxt} ({card.name}) was dealt before the {street} betting "
            "was complete.",
            f"The burn stays. Return every premature card to the stub and reshuffle; after "
            f"the betting deal the {nxt} with no burn.", ev.t, row=row, draw=d.n)


    # ------------------------------------------------------------------ actions
    def action_while_dealing(self, ev: PlayerAction, act: str) -> list[Outcome]:
        """An action while cards are still due: D10, D8 (short), B5/B6 (a street dealt
        without its burn, on which the action has now begun).  Returns ``ActionHeld`` when
        the action waits for the cards (it is applied once they are in)."""
        s = self.desk.state
        holes = [x for x in s.due if x.startswith("hole:")]
        held = ActionHeld(ev.seat, act, f"cards still due: {describe_expect(s.due)}")
        if holes:
            if len(holes) == 1 and slot_seat(holes[0]) == s.cfg.button:
                if s.button_short_ruled:
                    return [held]
                s.button_short_ruled = True
                return self.desk.ruling(
                    "BUTTON_SHORT", f"The button (seat {s.cfg.button}) has only one card.",
                    "The button has not acted: deal it its second card now (TDA 37). The "
                    "actions already taken stand and the action continues.", ev.t) + [held]
            n_hole = 2 * len(s.cfg.stacks)
            if n_hole - len(holes) < len(s.cfg.stacks):
                return [held]  # the first round is not even out: the deal is still going on
            return self.desk.misdeal(
                "D8", "TDA 35-A-5",
                f"Wrong number of cards dealt: {n_hole - len(holes)} of {n_hole} hole cards "
                "when the action began.", ev.t)
        if self._street_short_of_burn():
            return self._street_stands(ev)
        return [held]

    def _street_short_of_burn(self) -> bool:
        """The street's cards are out but one draw short: its burn was missed."""
        s = self.desk.state
        return bool(s.loaded_street and s.due == [BOARD] and s.plan_burn
                    and s.street_drawn == len(street_plan(s.loaded_street)) - 1)

    def _street_stands(self, ev: PlayerAction) -> list[Outcome]:
        """B5 / B6 after action (TDA 39-B, TDA 38; RRoP): the street was dealt without a
        burn and the action on it has begun: the cards stand; the next street gets its burn."""
        s = self.desk.state
        street = s.loaded_street
        assert street is not None
        ns = [d.n for d in s.draws if d.street == street and d.destination in (BURN, BOARD)]
        ns = ns[-BOARD_COUNT[street]:]
        cards = [c for c in (s.draws[n - 1].card for n in ns) if c is not None]
        self.desk.set_draw(ns[0], destination=BOARD)
        self.desk.rebuild(board=cards)
        s.due = []
        s.street_drawn += 1
        s.plan_burn = False
        what = f"The {street} was dealt without a burn: {_names(cards)}."
        nxt = {"flop": "turn", "turn": "river"}.get(street)
        instr = (f"Action has been taken on the {street}: the {street} stands."
                 + (f" The {nxt} gets one burn as usual." if nxt else ""))
        if street == "flop":
            return self.desk.ruling("MISSED_BURN", what, instr, ev.t, row="B5", rule="TDA 39-B")
        return self.desk.ruling("MISSED_BURN", what, instr, ev.t, row="B6", rule="TDA 38")

    def declared_missed_burn(self, ev: Declaration) -> list[Outcome]:
        """The dealer says the street was dealt without a burn, before any action on it
        (raises as :meth:`verify_missed_burn`)."""
        self.verify_missed_burn()
        return self._missed_burn(ev)

    def verify_missed_burn(self) -> None:
        """Raises InvalidInputError unless a street is one card short of its burn (what
        :meth:`declared_missed_burn` corrects); changes nothing."""
        if not self._street_short_of_burn():
            raise InvalidInputError("no street is one card short of its burn: nothing to "
                                    "correct (a missed burn is declared after the street's "
                                    "cards are out and before any action on it)")

    def _missed_burn(self, ev: Declaration) -> list[Outcome]:
        """B5 / B6 before any action on the street: the house knob corrects it."""
        s = self.desk.state
        street = s.loaded_street
        assert street is not None
        k = BOARD_COUNT[street]
        ns = [d.n for d in s.draws if d.street == street and d.destination in (BURN, BOARD)]
        ns = ns[-k:]
        cards = [c for c in (s.draws[n - 1].card for n in ns) if c is not None]
        if street == "flop":
            knob = self.desk.profile.missed_flop_burn
            if knob == "scramble":
                pick = self.desk.choose(cards, ns[-1])
                burn = cards[pick]
                rest = [c for c in cards if c != burn]
                self.desk.rebuild(board=rest)
                for n_, c in zip(ns, cards, strict=False):
                    self.desk.set_draw(n_, destination=BURN if c == burn else BOARD, exposed=True)
                instr = (f"Chosen at random by the table: the {burn.name} is the burn; the flop "
                         f"is {_names(rest)} plus the next card.")
                rule = "TDA 39-B"
            elif knob == "first_card_burns":
                self.desk.set_draw(ns[0], exposed=True)
                instr = (f"Show the {cards[0].name} and discard it as the burn; the next card "
                         "completes the flop.")
                rule = "TDA 39-B (house)"
            else:
                for n_ in ns:
                    self.desk.set_draw(n_, destination=STUB, exposed=True)
                self.desk.rebuild(board=[])
                s.due = [RESHUFFLE, BURN] + [BOARD] * 3
                s.street_drawn = 0
                instr = "Return the flop to the stub and reshuffle; then burn and deal a new flop."
                rule = "TDA 39-B (house: redeal)"
            return self.desk.ruling(
                "MISSED_BURN", f"The flop was dealt without a burn: {_names(cards)}.",
                instr + " Then the action.", ev.t, row="B5", rule=rule)
        # turn or river: one card out (taken as the burn), no street card yet
        x = cards[-1]
        assert x is not None
        if self.desk.profile.burn_error == "correct":
            self.desk.set_draw(ns[-1], exposed=True)
            instr = (f"Show the {x.name} and discard it as the burn; the next card is the "
                     f"{street}.")
        else:
            self.desk.set_draw(ns[-1], destination=BOARD)
            s.hand.deal_board(x)
            s.due = []
            s.street_drawn += 1
            instr = f"The {x.name} stands as the {street}."
        return self.desk.ruling("MISSED_BURN", f"The {street} was dealt without a burn.",
                            instr + " Then the action.", ev.t, row="B6", rule="TDA 38")
