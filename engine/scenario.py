"""Dealing scenario scripts (JSON Lines): parse and run through the dealing procedure.

Line 1, the header (an object)::

    {"name": "D1 first card exposed", "seats": {"1": 1000, "2": 1000, "3": 1000},
     "button": 3, "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": 0,
     "profile": "tda2024", "knobs": {"exposed_first_cards": 1},
     "deck": {"seed": 7}            # or {"cards": {"04A1B2C3D4E5F6": "As", ...}} (52 UIDs)
     "extra_decks": [99],           # optional: other registered decks (their tags are foreign)
     "seed": 0,                     # the table's random choices (TDA 39-A/B picks)
     "expect": {...}}               # optional, for tests: see tests/dealing

Then one event per line, in the :mod:`engine.events` vocabulary (``event_from_dict``):
``card_drawn``, ``declaration``, ``shoe_reloaded``, ``stub_reshuffled``, ``player_action``
(``action``: fold | check_call | bet_raise with ``amount`` | show | muck).  Conveniences
for hand-written scripts, on ``card_drawn`` only: ``"card": "As"`` instead of ``uid``
(looked up in the deck, or with ``"deck": 99`` in an extra deck), and ``draw`` may be left
out (the shoe counter then counts the lines; a repeated UID keeps the previous number).
Blank lines and lines starting with ``#`` are skipped.

Errors: :class:`ScenarioError` (an ``InvalidInputError``) naming the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.errors import InvalidInputError, PokerTableError
from engine.events import Event, event_from_dict
from engine.hand import HandConfig
from engine.irregularities import make_profile
from engine.outcomes import Outcome
from engine.procedure import DealingProcedure
from engine.registry import DeckRegistry, make_test_deck

PRINTED = ("ruling", "ruling_decided", "hand_voided", "hand_redealt", "pot_awarded",
           "hand_complete", "expected_next")


class ScenarioError(InvalidInputError):
    """A malformed scenario script; the message names the line."""


@dataclass
class Scenario:
    header: dict[str, Any]
    procedure: DealingProcedure
    events: list[tuple[int, Event]] = field(default_factory=list)


@dataclass
class ScenarioResult:
    lines: list[dict[str, Any]]
    outcomes: list[Outcome]
    procedure: DealingProcedure

    @property
    def ruling_codes(self) -> list[str]:
        return [d["code"] for d in self.lines if d["event"] == "ruling"]


def _header(obj: Any) -> tuple[dict[str, Any], DealingProcedure, dict[int, DeckRegistry]]:
    if not isinstance(obj, dict):
        raise ScenarioError("line 1: the header must be a JSON object")
    try:
        seats = {int(k): int(v) for k, v in obj["seats"].items()}
        deck = obj.get("deck", {"seed": 0})
        if "cards" in deck:
            reg = DeckRegistry({u: Card.parse(c) for u, c in deck["cards"].items()},
                               name=str(deck.get("name", "deck")))
        else:
            reg = make_test_deck(int(deck.get("seed", 0)))
        extras = {int(sd): make_test_deck(int(sd)) for sd in obj.get("extra_decks", [])}
        known = {u: c for r in extras.values() for u, c in
                 ((u, r.card(u)) for u in r.uids())}
        for u, c in obj.get("extra_tags", {}).items():
            known[u.upper()] = Card.parse(c)
        cfg = HandConfig(stacks=seats, button=int(obj["button"]),
                         small_blind=int(obj.get("small_blind", 0)),
                         big_blind=int(obj.get("big_blind", 0)), ante=int(obj.get("ante", 0)),
                         big_blind_ante=int(obj.get("big_blind_ante", 0)),
                         min_bet=obj.get("min_bet"), raise_rule=obj.get("raise_rule", "standard"),
                         hand_number=int(obj.get("hand_number", 1)))
        profile = make_profile(obj.get("profile", "tda2024"), **obj.get("knobs", {}))
        proc = DealingProcedure(cfg, reg, profile, seed=int(obj.get("seed", 0)),
                                known_tags=known)  # type: ignore[arg-type]
    except PokerTableError as exc:
        raise ScenarioError(f"line 1: bad header: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ScenarioError(f"line 1: bad header: {type(exc).__name__}: {exc}") from None
    return obj, proc, extras


def parse_scenario(lines: Iterable[str]) -> Scenario:
    """Parse the script text (lines); raises :class:`ScenarioError` naming the line."""
    sc: Scenario | None = None
    extras: dict[int, DeckRegistry] = {}
    counter = 0
    last_uid = None
    for i, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"line {i}: not JSON: {exc.msg}") from None
        if sc is None:
            header, proc, extras = _header(obj)
            sc = Scenario(header, proc)
            continue
        if not isinstance(obj, dict):
            raise ScenarioError(f"line {i}: an event must be a JSON object")
        obj = dict(obj)
        try:
            if obj.get("type") == "card_drawn":
                if "card" in obj:
                    card = Card.parse(obj.pop("card"))
                    src = obj.pop("deck", None)
                    reg = extras[int(src)] if src is not None else sc.procedure.registry
                    obj["uid"] = reg.uid_of(card)
                uid = str(obj.get("uid", "")).upper()
                if "draw" not in obj:
                    if uid != last_uid:
                        counter += 1
                    obj["draw"] = counter
                else:
                    counter = int(obj["draw"])
                last_uid = uid
            ev = event_from_dict(obj)
        except PokerTableError as exc:
            raise ScenarioError(f"line {i}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ScenarioError(f"line {i}: {type(exc).__name__}: {exc}") from None
        sc.events.append((i, ev))
    if sc is None:
        raise ScenarioError("line 1: empty script: a header line is required")
    return sc


def run_scenario(sc: Scenario) -> ScenarioResult:
    """Apply every event; returns the printed lines (public dicts, with ``line``), all
    outcomes and the procedure.  An event the procedure rejects raises
    :class:`ScenarioError` naming its line."""
    proc = sc.procedure
    lines: list[dict[str, Any]] = []
    outcomes: list[Outcome] = []
    for i, ev in sc.events:
        try:
            outs = proc.apply(ev)
        except PokerTableError as exc:
            raise ScenarioError(f"line {i}: {exc}") from None
        outcomes += outs
        for o in outs:
            d = o.to_dict()
            if d["event"] in PRINTED:
                lines.append({"line": i, **d})
    h = proc.hand
    lines.append({"event": "final", "stacks": {str(k): v for k, v in sorted(h.stacks.items())},
                  "complete": h.is_complete, "void": h.is_void,
                  "rulings": [r.code for r in proc.rulings],
                  "reader_repeats": proc.repeats, "deck": proc.deck_check().summary()})
    return ScenarioResult(lines, outcomes, proc)


def load_scenario(path: str) -> Scenario:
    """Read and parse a script file (``ScenarioError`` also for an unreadable file)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ScenarioError(f"cannot read {path}: {exc.strerror}") from None
    return parse_scenario(text.splitlines())


def check_expect(result: ScenarioResult, expect: Mapping[str, Any]) -> list[str]:
    """Compare a result with a header's ``expect``; returns the differences (empty: pass).

    Keys: ``rulings`` (codes in order), ``rows`` (rows in order), ``final_stacks``,
    ``void`` (bool), ``complete`` (bool), ``redealt`` (count), ``reader_repeats``,
    ``deck_ok`` (bool), ``expect_next`` (the last ruling's pattern).
    """
    diffs: list[str] = []
    proc = result.procedure
    rul = list(proc.rulings)

    def cmp(key: str, got: Any) -> None:
        if key in expect and expect[key] != got:
            diffs.append(f"{key}: expected {expect[key]!r}, got {got!r}")

    cmp("rulings", [r.code for r in rul])
    cmp("rows", [r.row for r in rul])
    cmp("final_stacks", {str(k): v for k, v in sorted(proc.hand.stacks.items())})
    cmp("void", proc.hand.is_void)
    cmp("complete", proc.hand.is_complete)
    cmp("redealt", proc.redeals)
    cmp("reader_repeats", proc.repeats)
    cmp("deck_ok", proc.deck_check().ok)
    if rul:
        cmp("expect_next", list(rul[-1].expect_next))
    cmp("statuses", [r.status for r in rul])
    return diffs
