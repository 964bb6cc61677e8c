"""Rulings and the floor's decisions (TDA 1): a ruling is advisory until the floor confirms
or overrides it.

A mixin of :class:`engine.dealing.procedure.DealingProcedure`.  A misdeal or a fouled deck
is proposed: play stops, and the stacks are untouched until the floor confirms it (then every
chip put in goes back, TDA 35-C / 35-E) or the shoe is reloaded (the reload is the dealer
acting on it).  An override restores the state from before the event that caused the ruling
and re-applies what came after it; a card that caused it is set aside as dead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.dealing.irregularities import CATALOGUE, Ruling, describe_expect, rule_for
from engine.dealing.outcomes import (
    ExpectedNextChanged,
    HandVoided,
    Note,
    Outcome,
    RulingDecided,
    RulingIssued,
)
from engine.dealing.sequence import DEAD, Draw
from engine.errors import IllegalActionError, InvalidInputError
from engine.events import CardDrawn, Declaration

if TYPE_CHECKING:  # pragma: no cover
    from engine.dealing.deal_state import DealState
    from engine.dealing.irregularities import HouseProfile, RulingBook
    from engine.dealing.registry import DeckRegistry


class NoPendingRulingError(InvalidInputError):
    """A confirm/override with no advisory ruling waiting."""


class FloorDecisions:
    """Ruling helpers and the floor's confirm/override (mixed into DealingProcedure)."""

    s: DealState
    profile: HouseProfile
    registry: DeckRegistry
    book: RulingBook
    _pending: Any
    expected_next: Callable[..., list[str]]
    apply: Callable[..., list[Outcome]]

    def pending_ruling(self) -> Ruling | None:
        """The latest advisory ruling of the current deal (None if there is none)."""
        for r in reversed(self.book.rulings):
            if r.id < self.s.first_ruling:
                break
            if r.status == "advisory":
                return r
        return None

    # ------------------------------------------------------------------ rulings
    def _ruling(self, code: str, words: str, instruction: str, t: float, *, row: str | None = None,
                rule: str | None = None, draw: int | None = None,
                misdeal: bool = False) -> list[Outcome]:
        crow, crule, _ = CATALOGUE[code]
        exp = tuple(self.expected_next(full=True))
        r = self.book.add(Ruling(
            id=self.book.next_id(), code=code, row=row or crow,
            rule=rule_for(code, rule or crule, self.profile), words=words,
            instruction=instruction, profile=self.profile.name, expect_next=exp, draw=draw,
            misdeal=misdeal, t=t))
        return [RulingIssued(r), ExpectedNextChanged(exp, describe_expect(exp))]

    def _misdeal(self, row: str, rule: str, words: str, t: float, draw: int | None = None,
                 code: str = "MISDEAL") -> list[Outcome]:
        """Propose a misdeal (or a fouled deck): play stops, nothing is refunded yet."""
        s = self.s
        s.stopped = code
        s.due = []
        if code == "FOULED_DECK":
            instr = ("Stop play. When the floor confirms, every bet is returned; check the "
                     "deck, reload the shoe and deal again with the same button.")
        else:
            instr = ("When the floor confirms, every chip put in is returned. Reshuffle, "
                     "reload the shoe and deal again: same button, same players, same limits "
                     "(TDA 35-C).")
        return self._ruling(code, words, instr, t, row=row, rule=rule, draw=draw, misdeal=True)

    def _void(self, r: Ruling) -> list[Outcome]:
        """Carry out a confirmed misdeal: every chip put in goes back (TDA 35-C / 35-E)."""
        h = self.s.hand
        if h.is_void:
            return []
        h.void(f"{r.code.lower()}: {r.rule}")
        return [HandVoided(r.words, r.rule, tuple(sorted(h.stacks.items())))]

    def _confirm(self, r: Ruling, note: str, t: float) -> list[Outcome]:
        r2 = self.book.set_status(r.id, "confirmed", note, t)
        if self._pending and self._pending[0] == r.id:
            self._pending = None
        outs: list[Outcome] = [RulingDecided(r2)]
        if r2.misdeal:
            outs += self._void(r2)
        return outs

    def verify_decision(self) -> Ruling:
        """The ruling a confirm or an override decides; changes nothing.

        Raises:
            NoPendingRulingError: no advisory ruling is waiting.
        """
        r = self.pending_ruling()
        if r is None:
            raise NoPendingRulingError("no advisory ruling is waiting for the floor")
        return r

    def _decide(self, ev: Declaration) -> list[Outcome]:
        r = self.verify_decision()
        if ev.kind == "confirm_ruling":
            return self._confirm(r, ev.note, ev.t)
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
