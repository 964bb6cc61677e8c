"""Writes dealing scenario scripts (tests/data/dealing/*.jsonl) and plays clean hands.

The builder keeps a live DealingProcedure beside the lines it writes so it can find the
seat to act; the expectations are written by hand in build_scenarios.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.cards import Deck
from engine.dealing.scenario import parse_scenario
from engine.events import event_from_dict
from tests.data_paths import data
from tests.engine.dealing.builder_deal import event_words, expect_words, header_words

DATA = data("dealing")


class Builder:
    def __init__(self, name: str, seats: int | dict[int, int] = 4, button: int | None = None,
                 profile: str = "tda2024", knobs: dict[str, Any] | None = None,
                 deck_seed: int = 1, shuffle_seed: int = 1, small_blind: int = 10,
                 big_blind: int = 20, description: str = "", **extra: Any) -> None:
        stacks = seats if isinstance(seats, dict) else dict.fromkeys(range(1, seats + 1), 1000)
        self.header: dict[str, Any] = {
            "name": name, "description": description,
            "seats": {str(k): v for k, v in stacks.items()},
            "button": button if button is not None else max(stacks),
            "small_blind": small_blind, "big_blind": big_blind, "profile": profile,
            "knobs": knobs or {}, "deck": {"seed": deck_seed}, **extra}
        self.order = list(Deck.shuffled(random.Random(shuffle_seed)))
        self.i = 0
        self.t = 0.0
        self.events: list[dict[str, Any]] = []
        self.deal_lines: list[str] = []  # the same events in the .deal words
        self.proc = parse_scenario([json.dumps(self.header)]).procedure
        self.name = name

    # -- writing events ---------------------------------------------------------------
    def _emit(self, d: dict[str, Any]) -> None:
        self.t += 1.0
        d = {"type": d.pop("type"), "t": self.t, **d}
        self.events.append(d)
        self.deal_lines.append(event_words(self.proc, d))
        ev = dict(d)
        if ev["type"] == "card_drawn" and "card" in ev:
            from engine.cards import Card
            src = ev.pop("deck", None)
            card = Card.parse(ev.pop("card"))
            if src is None:
                ev["uid"] = self.proc.registry.uid_of(card)
            else:
                from engine.dealing.registry import make_test_deck
                ev["uid"] = make_test_deck(int(src)).uid_of(card)
            ev["draw"] = sum(1 for e in self.events if e["type"] == "card_drawn")
        self.proc.apply(event_from_dict(ev))

    def draw(self, n: int = 1) -> list[str]:
        out = []
        for _ in range(n):
            c = self.order[self.i]
            self.i += 1
            self._emit({"type": "card_drawn", "card": str(c)})
            out.append(str(c))
        return out

    def draw_uid(self, uid: str) -> None:
        self._emit({"type": "card_drawn", "uid": uid})

    def draw_card(self, card: str, deck: int | None = None) -> None:
        d: dict[str, Any] = {"type": "card_drawn", "card": card}
        if deck is not None:
            d["deck"] = deck
        self._emit(d)

    def holes(self, n: int | None = None) -> None:
        self.draw(2 * len(self.header["seats"]) if n is None else n)

    def act(self, seat: int | None = None, action: str = "check_call",
            amount: int | None = None) -> None:
        seat = self.proc.hand.actor if seat is None else seat
        d: dict[str, Any] = {"type": "player_action", "seat": seat, "action": action}
        if amount is not None:
            d["amount"] = amount
        self._emit(d)

    def declare(self, kind: str, draw: int | None = None, seat: int | None = None,
                note: str = "") -> None:
        d: dict[str, Any] = {"type": "declaration", "kind": kind}
        if draw is not None:
            d["draw"] = draw
        if seat is not None:
            d["seat"] = seat
        if note:
            d["note"] = note
        self._emit(d)

    def reshuffle(self) -> None:
        self._emit({"type": "stub_reshuffled"})

    def reload(self) -> None:
        self._emit({"type": "shoe_reloaded"})

    # -- playing ----------------------------------------------------------------------
    def finish_round(self) -> None:
        """Check/call until the current betting round closes."""
        h = self.proc.hand
        street = h.street
        while h.actor is not None and h.street == street and not self.proc.s.due:
            self.act()
            h = self.proc.hand

    def play_out(self) -> None:
        """Deal what is due and check/call to the end; show every hand at showdown."""
        for _ in range(200):
            p = self.proc
            h = p.hand
            if h.is_complete or p.stopped:
                return
            if p.s.due:
                self.draw()
            elif h.actor is not None:
                self.act()
            elif h.showdown_pending:
                self.act(h.showdown_pending[0], "show")
            else:
                raise AssertionError(f"{self.name}: stuck: {p.expected_next()}")
        raise AssertionError(f"{self.name}: did not finish")

    def expect(self, **kw: Any) -> Builder:
        r = self.proc.pending_ruling()
        if kw.get("void") and r is not None and r.misdeal:
            self.declare("confirm_ruling")  # a misdeal voids the hand once confirmed
        self.header["expect"] = kw
        return self

    def lines(self) -> list[str]:
        return [json.dumps(self.header)] + [json.dumps(e) for e in self.events]

    def deal_text(self) -> str:
        """The scenario in the ``.deal`` words (engine/dealing/deal_script.py)."""
        exp = expect_words(self.header.get("expect", {}))
        return "\n".join(header_words(self.header) + self.deal_lines + exp) + "\n"

    def write(self, directory: Path = DATA) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.name}.jsonl"
        path.write_text("\n".join(self.lines()) + "\n", encoding="utf-8")
        (directory / f"{self.name}.deal").write_text(self.deal_text(), encoding="utf-8")
        return path
