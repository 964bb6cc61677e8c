"""Dealing scenario scripts (JSON Lines): parse and run through the dealing procedure.

Line 1, the header (an object)::

    {"name": "D1 first card exposed", "seats": {"1": 1000, "2": 1000, "3": 1000},
     "button": 3, "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": 0,
     "profile": "tda2024", "knobs": {"exposed_first_cards": 1},
     "deck": {"seed": 7}            # or {"cards": {"04A1B2C3D4E5F6": "As", ...}} (52 UIDs)
     "extra_decks": [99],           # optional: other registered decks (their tags are foreign)
     "seed": 0,                     # the table's random choices (TDA 39-A/B picks)
     "expect": {...}}               # optional, for tests: see tests/engine/dealing

Then one event per line, in the :mod:`engine.events` vocabulary (``event_from_dict``):
``card_drawn``, ``declaration``, ``shoe_reloaded``, ``stub_reshuffled``, ``player_action``
(``action``: fold | check_or_call | bet_or_raise_to with ``amount`` | show | muck; the
older names check_call and bet_raise are accepted).  Conveniences
for hand-written scripts, on ``card_drawn`` only: ``"card": "As"`` instead of ``uid``
(looked up in the deck, or with ``"deck": 99`` in an extra deck), and ``draw`` may be left
out (the shoe counter then counts the lines; a repeated UID keeps the previous number).
Blank lines and lines starting with ``#`` are skipped.

The header is checked in full before anything runs: seat numbers 1..10, stacks and every
chip amount whole numbers (``1000.7`` and ``1e400`` are rejected), ``big_blind >=
small_blind``, blinds positive unless the game is a no-blind game (both 0) with a
``min_bet``.  Every event line needs a number ``t``.

Expectations: the header's ``expect`` (checked by :func:`check_expect` on the result), and
optionally an ``expect`` on an event line, checked right after that line is applied (same
keys, :data:`EXPECT_KEYS`); failures are in :attr:`ScenarioResult.failures`.

Errors: :class:`ScenarioError` (an ``InvalidInputError``) naming the line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from engine.betting.hand import HandConfig
from engine.cards import Card
from engine.dealing.irregularities import make_profile
from engine.dealing.outcomes import Outcome
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import DeckRegistry, make_test_deck
from engine.errors import InvalidInputError, PokerTableError
from engine.events import Event, event_from_dict
from engine.input_file import InputFileError, read_text

PRINTED = ("ruling", "ruling_decided", "hand_voided", "hand_redealt", "pot_awarded", "action_held",
           "hand_complete", "expected_next")


class ScenarioError(InvalidInputError):
    """A malformed scenario script; the message names the line."""


#: Keys an ``expect`` object may hold (see :func:`check_expect`).
EXPECT_KEYS = ("rulings", "rows", "final_stacks", "void", "complete", "redealt",
               "reader_repeats", "deck_ok", "expect_next", "statuses")
#: Largest chip amount a script may give (no table holds more).
MAX_CHIPS = 10**12
HEADER_KEYS = {"name", "description", "seats", "button", "small_blind", "big_blind", "ante",
               "big_blind_ante", "min_bet", "raise_rule", "hand_number", "profile", "knobs",
               "deck", "extra_decks", "extra_tags", "seed", "expect"}


@dataclass
class Scenario:
    header: dict[str, Any]
    procedure: DealingProcedure
    events: list[tuple[int, Event]] = field(default_factory=list)
    #: script line -> the ``expect`` carried by that event line
    expects: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass
class ScenarioResult:
    lines: list[dict[str, Any]]
    outcomes: list[Outcome]
    procedure: DealingProcedure
    #: failed per-line expectations, ``"line N: key: expected X, got Y"``
    failures: list[str] = field(default_factory=list)

    @property
    def ruling_codes(self) -> list[str]:
        return [d["code"] for d in self.lines if d["event"] == "ruling"]


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _int(obj: Mapping[str, Any], key: str, *, default: int | None = None, lo: int = 0,
         hi: int = MAX_CHIPS, what: str = "") -> int:
    """``obj[key]`` as an int in lo..hi, else a ScenarioError naming line 1."""
    if key not in obj:
        if default is None:
            raise ScenarioError(f"line 1: header is missing {key!r}")
        return default
    v = obj[key]
    if not _is_int(v) or not lo <= v <= hi:
        got = ("a number too large to read" if isinstance(v, float) and not math.isfinite(v)
               else repr(v))
        raise ScenarioError(f"line 1: {what or key} must be a whole number {lo}..{hi}, "
                            f"got {got}")
    return v


def _check_expect_obj(where: str, exp: Any) -> dict[str, Any]:
    if not isinstance(exp, dict):
        raise ScenarioError(f"{where}: 'expect' must be a JSON object")
    bad = sorted(set(exp) - set(EXPECT_KEYS))
    if bad:
        raise ScenarioError(f"{where}: unknown expect key(s) {', '.join(map(repr, bad))}; "
                            f"expected some of {', '.join(EXPECT_KEYS)}")
    return exp


def _header(obj: Any) -> tuple[dict[str, Any], DealingProcedure, dict[int, DeckRegistry]]:
    if not isinstance(obj, dict):
        raise ScenarioError("line 1: the header must be a JSON object")
    unknown = sorted(set(obj) - HEADER_KEYS)
    if unknown:
        raise ScenarioError(f"line 1: unknown header key(s) {', '.join(map(repr, unknown))}")
    seats = _header_seats(obj)
    button = _int(obj, "button", lo=1, hi=10)
    sb, bb, ante, bba, min_bet = _header_blinds(obj)
    hand_number = _int(obj, "hand_number", default=1, lo=0, hi=10**9)
    seed = _int(obj, "seed", default=0, lo=0, hi=2**63 - 1)
    for key in ("name", "description", "profile", "raise_rule"):
        if key in obj and not isinstance(obj[key], str):
            raise ScenarioError(f"line 1: {key} must be a string, got {obj[key]!r}")
    knobs = obj.get("knobs", {})
    if not isinstance(knobs, dict):
        raise ScenarioError("line 1: 'knobs' must be a JSON object")
    if "expect" in obj:
        _check_expect_obj("line 1", obj["expect"])
    try:
        reg, extras, known = _header_decks(obj)
        cfg = HandConfig(stacks=seats, button=button, small_blind=sb, big_blind=bb, ante=ante,
                         big_blind_ante=bba, min_bet=min_bet,
                         raise_rule=obj.get("raise_rule", "standard"), hand_number=hand_number)
        profile = make_profile(obj.get("profile", "tda2024"), **knobs)
        proc = DealingProcedure(cfg, reg, profile, seed=seed, known_tags=known)
    except ScenarioError:
        raise
    except PokerTableError as exc:
        raise ScenarioError(f"line 1: bad header: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ScenarioError(f"line 1: bad header: {exc}") from None
    return obj, proc, extras


def _header_seats(obj: dict[str, Any]) -> dict[int, int]:
    """The header's ``seats``: seat number (1..10) -> stack in chips."""
    if "seats" not in obj:
        raise ScenarioError("line 1: header is missing 'seats'")
    raw_seats = obj["seats"]
    if not isinstance(raw_seats, dict) or not raw_seats:
        raise ScenarioError("line 1: 'seats' must be an object of seat number -> stack")
    seats: dict[int, int] = {}
    for k in raw_seats:
        if not (isinstance(k, str) and k.isdigit() and 1 <= int(k) <= 10):
            raise ScenarioError(f"line 1: seat {k!r} is not a seat number 1..10")
        seats[int(k)] = _int(raw_seats, k, lo=1, what=f"seat {k} stack")
    return seats


def _header_blinds(obj: dict[str, Any]) -> tuple[int, int, int, int, int | None]:
    """``(small blind, big blind, ante, big-blind ante, min bet)`` in chips: blinds both
    positive, or both 0 in a no-blind game that gives ``min_bet``."""
    sb = _int(obj, "small_blind", default=0)
    bb = _int(obj, "big_blind", default=0)
    ante = _int(obj, "ante", default=0)
    bba = _int(obj, "big_blind_ante", default=0)
    min_bet = None if obj.get("min_bet") is None else _int(obj, "min_bet", lo=1)
    if sb == 0 and bb == 0:
        if min_bet is None:
            raise ScenarioError("line 1: small_blind and big_blind must be positive (a "
                                "no-blind game sets both to 0 and gives min_bet)")
    elif sb <= 0 or bb <= 0:
        raise ScenarioError(f"line 1: small_blind and big_blind must both be positive, got "
                            f"{sb}/{bb}")
    elif bb < sb:
        raise ScenarioError(f"line 1: big_blind {bb} is smaller than small_blind {sb}")
    return sb, bb, ante, bba, min_bet


def _header_decks(obj: dict[str, Any]
                  ) -> tuple[DeckRegistry, dict[int, DeckRegistry], dict[str, Card]]:
    """``(the table's deck, extra decks by seed, every foreign tag's card)``."""
    deck = obj.get("deck", {"seed": 0})
    if not isinstance(deck, dict):
        raise ScenarioError("line 1: 'deck' must be an object with 'seed' or 'cards'")
    extra_decks = obj.get("extra_decks", [])
    if not isinstance(extra_decks, list) or not all(_is_int(d) and d >= 0 for d in extra_decks):
        raise ScenarioError("line 1: 'extra_decks' must be a list of deck seeds (whole numbers)")
    extra_tags = obj.get("extra_tags", {})
    if not isinstance(extra_tags, dict) or not all(
            isinstance(u, str) and isinstance(c, str) for u, c in extra_tags.items()):
        raise ScenarioError("line 1: 'extra_tags' must map UIDs to cards (strings)")
    if "cards" in deck:
        cards = deck["cards"]
        if not isinstance(cards, dict) or not all(
                isinstance(u, str) and isinstance(c, str) for u, c in cards.items()):
            raise ScenarioError("line 1: deck 'cards' must map UIDs to cards (strings)")
        reg = DeckRegistry({u: Card.parse(c) for u, c in cards.items()},
                           name=str(deck.get("name", "deck")))
    else:
        reg = make_test_deck(_int(deck, "seed", default=0, lo=0, hi=2**63 - 1,
                                  what="deck seed"))
    extras = {sd: make_test_deck(sd) for sd in extra_decks}
    known = {u: c for r in extras.values() for u in r.uids() if (c := r.card(u)) is not None}
    for u, c in extra_tags.items():
        known[u.upper()] = Card.parse(c)
    return reg, extras, known


MAX_JSON_DEPTH = 64  # far more than any script needs; deeper is refused, not recursed into


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_json_value(i: int, obj: Any) -> None:
    """Walk ``obj`` without recursion: at most :data:`MAX_JSON_DEPTH` levels, strings without lone surrogates (they could not be printed)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise ScenarioError(f"line {i}: not JSON we accept: nested deeper than "
                                    f"{MAX_JSON_DEPTH} levels")
            items = list(value.items()) if isinstance(value, dict) else [(None, v)
                                                                          for v in value]
            for key, item in items:
                if key is not None:
                    stack.append((key, depth))
                stack.append((item, depth + 1))
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ScenarioError(f"line {i}: not JSON we accept: a string holds an "
                                    "unpaired surrogate escape (\\ud800..\\udfff)") from None


def loads_line(i: int, text: str) -> Any:
    """``json.loads`` of script line ``i``, every oddity a :class:`ScenarioError`: bad JSON,
    ``NaN``/``Infinity``, nesting deeper than
    :data:`MAX_JSON_DEPTH` (no ``RecursionError``), integers too long, lone surrogates."""
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"line {i}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise ScenarioError(f"line {i}: not JSON we accept: nested too deeply") from None
    except ValueError as exc:  # NaN/Infinity, an integer too long to convert
        raise ScenarioError(f"line {i}: not JSON: {str(exc)[:80]}") from None
    _check_json_value(i, obj)
    return obj


class _Reader:
    """Reads a script line by line: the header first, then events (with the draw
    counter and card conveniences)."""

    def __init__(self) -> None:
        self.sc: Scenario | None = None
        self.extras: dict[int, DeckRegistry] = {}
        self.counter = 0
        self.last_uid: str | None = None

    def feed(self, i: int, raw: str) -> tuple[int, Event] | None:
        """Parse line ``i``; returns ``(i, event)`` for an event line, else None."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return None
        obj = loads_line(i, text)
        if self.sc is None:
            if i != 1 and not isinstance(obj, dict):
                raise ScenarioError(f"line {i}: the header must be a JSON object")
            header, proc, self.extras = _header(obj)
            self.sc = Scenario(header, proc)
            return None
        return i, self._event(i, obj)

    def _event(self, i: int, obj: Any) -> Event:
        assert self.sc is not None
        if not isinstance(obj, dict):
            raise ScenarioError(f"line {i}: an event must be a JSON object")
        obj = dict(obj)
        if "expect" in obj:
            self.sc.expects[i] = _check_expect_obj(f"line {i}", obj.pop("expect"))
        if "t" in obj and not _is_num(obj["t"]):
            raise ScenarioError(f"line {i}: 't' must be a number of seconds, got {obj['t']!r}")
        try:
            if obj.get("type") == "card_drawn":
                if "card" in obj:
                    card = Card.parse(obj.pop("card"))
                    src = obj.pop("deck", None)
                    if src is None:
                        reg = self.sc.procedure.registry
                    elif _is_int(src) and src in self.extras:
                        reg = self.extras[src]
                    else:
                        raise ScenarioError(f"line {i}: deck {src!r} is not one of the "
                                            "header's extra_decks")
                    obj["uid"] = reg.uid_of(card)
                uid = str(obj.get("uid", "")).upper()
                if "draw" not in obj:
                    if uid != self.last_uid:
                        self.counter += 1
                    obj["draw"] = self.counter
                elif not _is_int(obj["draw"]) or obj["draw"] < 1:
                    raise ScenarioError(f"line {i}: 'draw' must be a whole number >= 1, got "
                                        f"{obj['draw']!r}")
                else:
                    self.counter = obj["draw"]
                self.last_uid = uid
            return event_from_dict(obj)
        except ScenarioError:
            raise
        except PokerTableError as exc:
            raise ScenarioError(f"line {i}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ScenarioError(f"line {i}: bad event: {exc}") from None

    def scenario(self) -> Scenario:
        if self.sc is None:
            raise ScenarioError("line 1: empty script: a header line is required")
        return self.sc


def parse_scenario(lines: Iterable[str]) -> Scenario:
    """Parse the script text (lines); raises :class:`ScenarioError` naming the line."""
    reader = _Reader()
    for i, raw in enumerate(lines, 1):
        item = reader.feed(i, raw)
        if item is not None:
            reader.scenario().events.append(item)
    return reader.scenario()


def _step(proc: DealingProcedure, i: int, ev: Event, lines: list[dict[str, Any]],
          outcomes: list[Outcome]) -> None:
    try:
        outs = proc.apply(ev)
    except PokerTableError as exc:
        raise ScenarioError(f"line {i}: {exc}") from None
    outcomes += outs
    for o in outs:
        d = o.to_dict()
        if d["event"] in PRINTED:
            lines.append({"line": i, **d})


def _final(proc: DealingProcedure) -> dict[str, Any]:
    h = proc.hand
    return {"event": "final", "stacks": {str(k): v for k, v in sorted(h.stacks.items())},
            "complete": h.is_complete, "void": h.is_void,
            "rulings": [r.code for r in proc.rulings],
            "reader_repeats": proc.repeats, "deck": proc.deck_check().summary()}


def run_scenario(sc: Scenario) -> ScenarioResult:
    """Apply every event; returns the printed lines (public dicts, with ``line``), all
    outcomes and the procedure, with failed per-line expectations in ``failures``.  An
    event the procedure rejects raises :class:`ScenarioError` naming its line."""
    proc = sc.procedure
    result = ScenarioResult([], [], proc)
    for i, ev in sc.events:
        _step(proc, i, ev, result.lines, result.outcomes)
        if i in sc.expects:
            result.failures += [f"line {i}: {d}" for d in check_expect(result, sc.expects[i])]
    result.lines.append(_final(proc))
    return result


def stream_scenario(lines: Iterable[str],
                    emit: Callable[[dict[str, Any]], None]) -> tuple[Scenario, ScenarioResult]:
    """Parse and run a script line by line, calling ``emit`` with each printed line as soon
    as it is produced (the ``final`` line last).  The header is checked in full before any
    event runs.  A malformed or rejected line raises :class:`ScenarioError` naming it,
    after the lines of the events before it were emitted."""
    reader = _Reader()
    result: ScenarioResult | None = None
    for i, raw in enumerate(lines, 1):
        item = reader.feed(i, raw)
        sc = reader.sc
        if sc is not None and result is None:
            result = ScenarioResult([], [], sc.procedure)
        if item is None:
            continue
        assert sc is not None and result is not None
        sc.events.append(item)
        before = len(result.lines)
        _step(sc.procedure, i, item[1], result.lines, result.outcomes)
        for d in result.lines[before:]:
            emit(d)
        if i in sc.expects:
            result.failures += [f"line {i}: {d}" for d in check_expect(result, sc.expects[i])]
    sc = reader.scenario()
    assert result is not None
    final = _final(sc.procedure)
    result.lines.append(final)
    emit(final)
    return sc, result


def read_script(path: str) -> list[str]:
    """The lines of a script file (``ScenarioError`` for a file :func:`engine.input_file.read_text`
    refuses: unreadable, not a regular file, too big, not UTF-8)."""
    try:
        return read_text(path).splitlines()
    except InputFileError as exc:
        raise ScenarioError(str(exc)) from None


def load_scenario(path: str) -> Scenario:
    """Read and parse a script file (``ScenarioError`` also for an unreadable file)."""
    return parse_scenario(read_script(path))


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
