"""Dealing scenarios in the table's words: the ``.deal`` line format (docs/scenarios.md).

A ``.deal`` file is a header (``key: value`` lines: seats, button, blinds, profile, ...) and
then one event or expectation a line, for example::

    seats: 4=1000 5=1000 9=1000
    button: 9
    blinds: 10/20
    deal Ah            # draw numbers are counted for you (again from 1 after a redeal)
    seat 4 checks
    dealer declares exposed card 3
    floor confirms
    expect ruling MISDEAL
    expect stacks 4=1000 5=1000

:func:`parse_deal` reads it (:class:`DealSyntaxError` naming the line for a header missing
or wrong, or a line that does not parse); :func:`engine.dealing.deal_run.run_deal` plays it.
Everything the parser needs from a line is in :class:`Step`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.betting.hand import HandConfig
from engine.cards import Card
from engine.dealing.irregularities import CATALOGUE, make_profile
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import DeckRegistry, make_test_deck
from engine.dealing.scenario import MAX_CHIPS, ScenarioError
from engine.errors import PokerTableError
from engine.events import (
    Declaration,
    Event,
    ShoeReloaded,
    StubReshuffled,
)

#: Longest line read (a scenario line is short; anything longer is refused).
MAX_LINE = 2000
HEADER_KEYS = ("name", "description", "seats", "button", "blinds", "ante", "big blind ante",
               "min bet", "raise rule", "hand number", "sitting out", "profile", "knobs",
               "deck", "deck card", "extra deck", "extra tag", "seed")
#: The expectation names (the word after ``expect``).
EXPECTS = ("ruling", "no ruling", "rulings include", "rulings exclude", "rulings", "rows",
           "seat", "board", "burns", "next", "stacks", "hand", "redeals", "reader repeats",
           "deck ok", "statuses", "held")


class DealSyntaxError(ScenarioError):
    """A ``.deal`` file that does not parse: a header missing or wrong, or a line not
    understood.  The message names the line.  (``pokertable replay`` exit status 2.)"""


class DealRefusedError(ScenarioError):
    """A line that parses but the table refuses (naming the line and the reason).
    (``pokertable replay`` exit status 3.)"""


@dataclass(frozen=True)
class Step:
    """One line after the header.  ``kind``: ``event`` (``event`` set), ``action`` (a player
    action: ``seat``, ``verb``, ``amount``), ``deal`` (``card`` / ``uid``, ``deck``),
    ``pick`` (the floor's pick, ``card``) or ``expect`` (``what``, ``args``)."""

    line: int
    text: str
    kind: str
    event: Event | None = None
    seat: int | None = None
    verb: str = ""
    amount: int | None = None
    card: Card | None = None
    uid: str | None = None
    deck: str | None = None
    what: str = ""
    args: tuple[Any, ...] = ()


@dataclass
class DealScript:
    header: dict[str, Any]
    procedure: DealingProcedure
    extra_decks: dict[str, DeckRegistry]
    steps: list[Step] = field(default_factory=list)
    sitting_out: tuple[int, ...] = ()


def _fail(i: int, msg: str) -> DealSyntaxError:
    return DealSyntaxError(f"line {i}: {msg}")


def _int(i: int, text: str, what: str, lo: int = 0, hi: int = MAX_CHIPS) -> int:
    if not re.fullmatch(r"\d{1,13}", text) or not lo <= int(text) <= hi:
        raise _fail(i, f"{what} must be a whole number {lo}..{hi}, got {text!r}")
    return int(text)


def _card(i: int, text: str) -> Card:
    try:
        return Card.parse(text)
    except PokerTableError as exc:
        raise _fail(i, str(exc)) from None


def _pairs(i: int, text: str, what: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for part in text.split():
        m = re.fullmatch(r"(\d{1,2})=(\d{1,13})", part)
        if not m:
            raise _fail(i, f"{what}: expected seat=chips pairs like 4=1000, got {part!r}")
        seat = _int(i, m.group(1), "a seat number", 1, 10)
        if seat in out:
            raise _fail(i, f"{what}: seat {seat} given twice")
        out[seat] = _int(i, m.group(2), f"seat {seat}'s chips")
    return out


def _clean(raw: str) -> str:
    text = raw.split("#", 1)[0].strip()
    return " ".join(text.split())


def _check_text(i: int, raw: str) -> None:
    if len(raw) > MAX_LINE:
        raise _fail(i, f"longer than {MAX_LINE} characters")
    bad = [c for c in raw if (ord(c) < 32 and c != "\t") or 0x202A <= ord(c) <= 0x202E
           or 0x2066 <= ord(c) <= 0x2069 or ord(c) == 0x7F]
    if bad:
        raise _fail(i, f"control or direction character U+{ord(bad[0]):04X} in the line")


# ------------------------------------------------------------------------------ header
def _header_line(i: int, key: str, value: str, h: dict[str, Any]) -> None:
    if key in h and key not in ("deck card", "extra deck", "extra tag"):
        raise _fail(i, f"header {key!r} given twice")
    if key == "seats":
        h["seats"] = _pairs(i, value, "seats")
        if len(h["seats"]) < 2:
            raise _fail(i, "seats: a deal needs at least 2 seats")
    elif key == "button":
        h["button"] = _int(i, value, "button", 1, 10)
    elif key == "blinds":
        m = re.fullmatch(r"(\d{1,13})\s*/\s*(\d{1,13})", value)
        if not m:
            raise _fail(i, f"blinds: expected small/big like 10/20, got {value!r}")
        h["blinds"] = (int(m.group(1)), int(m.group(2)))
    elif key in ("ante", "big blind ante", "min bet", "hand number", "seed"):
        h[key] = _int(i, value, key, 0, MAX_CHIPS if key != "seed" else 2**63 - 1)
    elif key == "sitting out":
        h[key] = tuple(_int(i, v, "a seat number", 1, 10) for v in value.split())
    elif key == "knobs":
        h[key] = dict(_knob(i, part) for part in value.split())
    elif key == "deck":
        m = re.fullmatch(r"seed (\d{1,18})", value)
        if not m:
            raise _fail(i, f"deck: expected 'seed N' (or 'deck card: UID=As' lines), got {value!r}")
        h["deck"] = int(m.group(1))
    elif key in ("deck card", "extra tag"):
        m = re.fullmatch(r"([0-9A-Fa-f]{8,20})\s*=\s*(\S+)", value)
        if not m:
            raise _fail(i, f"{key}: expected UID=card like 04A1B2C3D4E5F6=As, got {value!r}")
        h.setdefault(key, {})[m.group(1).upper()] = str(_card(i, m.group(2)))
    elif key == "extra deck":
        m = re.fullmatch(r"([A-Za-z0-9]{1,12}) seed (\d{1,18})", value)
        if not m:
            raise _fail(i, f"extra deck: expected 'NAME seed N' like 'B seed 99', got {value!r}")
        h.setdefault(key, {})[m.group(1).upper()] = int(m.group(2))
    else:  # name, description, raise rule, profile
        h[key] = value


def _knob(i: int, part: str) -> tuple[str, Any]:
    m = re.fullmatch(r"([a-z_]+)=([a-z_0-9]+)", part)
    if not m:
        raise _fail(i, f"knobs: expected knob=value pairs, got {part!r}")
    v: Any = m.group(2)
    return m.group(1), int(v) if v.isdigit() else v


#: which header line a complaint about the hand's configuration is about (first match wins)
_BLAME = (("no blinds", "blinds"), ("min_bet", "min bet"), ("blind_ante", "big blind ante"),
          ("blind", "blinds"), ("ante", "ante"), ("button", "button"),
          ("raise_rule", "raise rule"), ("hand_number", "hand number"), ("seat", "seats"),
          ("stack", "seats"))


def _line_of(lines: dict[str, int], message: str, default: int) -> int:
    """The header line a configuration error's ``message`` is about (``default``: the first
    event's, when no header line is named or the key was not given)."""
    for word, key in _BLAME:
        if word in message and key in lines:
            return lines[key]
    return default


def _build(h: dict[str, Any], first_event: int,
           lines: dict[str, int] | None = None) -> DealScript:
    """The script's dealing procedure from its header; an error names the header line that
    holds the bad value (``lines``: header key -> line number), else ``first_event``."""
    where, lines = first_event, lines or {}
    for key in ("seats", "button"):
        if key not in h:
            raise _fail(where, f"the header is missing '{key}:' (before the first event)")
    sb, bb = h.get("blinds", (0, 0))
    if "blinds" not in h and "min bet" not in h:
        raise _fail(where, "the header is missing 'blinds:' (or 'min bet:' for no blinds)")
    if bb < sb:
        raise _fail(lines.get("blinds", where),
                    f"blinds: the big blind {bb} is smaller than the small blind {sb}")
    out = set(h.get("sitting out", ())) & set(h["seats"])
    if out:
        raise _fail(lines.get("sitting out", where),
                    f"seat {min(out)} is both in 'seats:' and 'sitting out:'")
    try:
        profile = make_profile(h.get("profile", "tda2024"), **h.get("knobs", {}))
    except PokerTableError as exc:
        key = "knobs" if "knob" in str(exc) and "knobs" in lines else "profile"
        at = lines.get(key, lines.get("knobs", where))
        raise _fail(at, f"bad header: {exc}") from None
    try:
        cards = h.get("deck card")
        if cards:
            reg = DeckRegistry({u: Card.parse(c) for u, c in cards.items()}, name="deck")
        else:
            reg = make_test_deck(h.get("deck", 0))
        extras = {n: make_test_deck(sd) for n, sd in h.get("extra deck", {}).items()}
        known = {u: r.card(u) for r in extras.values() for u in r.uids()}
        known.update({u: Card.parse(c) for u, c in h.get("extra tag", {}).items()})
        cfg = HandConfig(stacks=h["seats"], button=h["button"], small_blind=sb, big_blind=bb,
                         ante=h.get("ante", 0), big_blind_ante=h.get("big blind ante", 0),
                         min_bet=h.get("min bet"), raise_rule=h.get("raise rule", "standard"),
                         hand_number=h.get("hand number", 1))
        proc = DealingProcedure(cfg, reg, profile, seed=h.get("seed", 0),
                                known_tags=known)  # type: ignore[arg-type]
    except PokerTableError as exc:
        raise _fail(_line_of(lines, str(exc), where), f"bad header: {exc}") from None
    return DealScript(h, proc, extras, sitting_out=tuple(h.get("sitting out", ())))


# ------------------------------------------------------------------------------ lines
_SEAT = re.compile(r"seat (\d{1,2}) (.+)")
_VERBS = {"folds": "fold", "checks": "check", "calls": "call", "shows": "show",
          "mucks": "muck", "all-in": "all_in", "all in": "all_in", "goes all-in": "all_in",
          "is all-in": "all_in"}


def parse_line(i: int, text: str, sc: DealScript) -> Step:
    """One line after the header as a :class:`Step` (``DealSyntaxError`` if not understood)."""
    low = text.lower()
    if low.startswith("expect"):
        return _expect(i, text)
    if low.startswith("deal "):
        return _deal(i, text, sc)
    m = _SEAT.fullmatch(low)
    if m:
        seat = _int(i, m.group(1), "a seat number", 1, 10)
        rest = m.group(2)
        if rest in _VERBS:
            return Step(i, text, "action", seat=seat, verb=_VERBS[rest])
        m2 = re.fullmatch(r"(bets|raises to|raises|bets all-in for) (\d{1,13})", rest)
        if m2:
            return Step(i, text, "action", seat=seat, verb="bet_or_raise_to",
                        amount=_int(i, m2.group(2), "an amount", 1))
        raise _fail(i, f"unknown seat action {rest!r}: folds, checks, calls, bets N, "
                       "raises to N, all-in, shows, mucks")
    if low.startswith("dealer declares "):
        return Step(i, text, "event", event=_declaration(i, low[16:]))
    if low.startswith("floor "):
        return _floor(i, text, low[6:])
    if low in ("stub reshuffled", "reshuffle the stub", "the stub is reshuffled"):
        return Step(i, text, "event", event=StubReshuffled(t=float(i)))
    if low in ("shoe reloaded", "reload the shoe", "the shoe is reloaded"):
        return Step(i, text, "event", event=ShoeReloaded(t=float(i)))
    raise _fail(i, f"not understood: {text!r}")


def _deal(i: int, text: str, sc: DealScript) -> Step:
    words = text.split()
    if len(words) == 3 and words[1].lower() == "tag":
        if not re.fullmatch(r"[0-9A-Fa-f]{2,20}", words[2]):
            raise _fail(i, f"deal tag: expected a hex UID, got {words[2]!r}")
        return Step(i, text, "deal", uid=words[2].upper())
    if len(words) == 2:
        return Step(i, text, "deal", card=_card(i, words[1]))
    if len(words) == 5 and [w.lower() for w in words[2:4]] == ["from", "deck"]:
        name = words[4].upper()
        if name not in sc.extra_decks:
            raise _fail(i, f"deck {words[4]!r} is not named in the header ('extra deck: "
                           f"{words[4]} seed N')")
        return Step(i, text, "deal", card=_card(i, words[1]), deck=name)
    raise _fail(i, f"expected 'deal Ah', 'deal Ah from deck B' or 'deal tag UID', got {text!r}")


def _declaration(i: int, rest: str) -> Declaration:
    t = float(i)
    m = re.fullmatch(r"exposed card(?: (\d{1,4}))?", rest)
    if m:
        return Declaration(t=t, kind="exposed_card", draw=int(m.group(1)) if m.group(1) else None)
    m = re.fullmatch(r"boxed(?: card)?(?: (\d{1,4}))?", rest)
    if m:
        return Declaration(t=t, kind="boxed_card", draw=int(m.group(1)) if m.group(1) else None)
    m = re.fullmatch(r"wrong seat(?: card (\d{1,4}))?(?: to seat (\d{1,2}))?", rest)
    if m:
        return Declaration(t=t, kind="wrong_seat", draw=int(m.group(1)) if m.group(1) else None,
                           seat=int(m.group(2)) if m.group(2) else None)
    m = re.fullmatch(r"seat (\d{1,2}) skipped", rest)
    if m:
        return Declaration(t=t, kind="seat_skipped", seat=int(m.group(1)))
    m = re.fullmatch(r"button (?:out of position|belongs)(?: at seat (\d{1,2}))?", rest)
    if m:
        return Declaration(t=t, kind="button_out_of_position",
                           seat=int(m.group(1)) if m.group(1) else None)
    if rest == "missed burn":
        return Declaration(t=t, kind="missed_burn")
    raise _fail(i, f"unknown declaration {rest!r}: exposed card [N], boxed [N], wrong seat "
                   "[card N] [to seat S], seat S skipped, button belongs at seat S, missed burn")


def _floor(i: int, text: str, rest: str) -> Step:
    t = float(i)
    note = text.split(None, 2)[2] if len(text.split(None, 2)) > 2 else ""
    if rest == "confirms" or rest.startswith("confirms "):
        return Step(i, text, "event", event=Declaration(t=t, kind="confirm_ruling",
                                                        note=note[8:].strip()))
    if rest == "overrides" or rest.startswith("overrides "):
        return Step(i, text, "event", event=Declaration(t=t, kind="override_ruling",
                                                        note=note[9:].strip()))
    if rest == "calls misdeal" or rest.startswith("calls misdeal "):
        return Step(i, text, "event", event=Declaration(t=t, kind="floor_misdeal",
                                                        note=note[13:].strip()))
    m = re.fullmatch(r"picks burn (\S+)", rest)
    if m:
        return Step(i, text, "pick", card=_card(i, text.split()[-1]))
    raise _fail(i, f"unknown floor decision {rest!r}: confirms, overrides, calls misdeal, "
                   "picks burn CARD")


def _expect(i: int, text: str) -> Step:
    body = text[6:].strip()
    low = body.lower()
    for what in EXPECTS:
        if low == what or low.startswith((what + " ", what + ":")):
            args = body[len(what):].lstrip(":").split()
            _check_expect_words(i, what, args)
            return Step(i, text, "expect", what=what, args=tuple(args))
    raise _fail(i, f"unknown expectation {body!r}; expected one of {', '.join(EXPECTS)}")


#: The expectations that name ruling codes, and the statuses a ruling can have.
_CODE_EXPECTS = ("ruling", "rulings include", "rulings exclude", "rulings")
_STATUSES = ("advisory", "confirmed", "overridden")


def _check_expect_words(i: int, what: str, args: list[str]) -> None:
    """A ruling code, row or status an expectation names must exist, so that a misspelt
    one is a syntax error rather than an expectation that always holds (``exclude``)."""
    if what in _CODE_EXPECTS:
        for word in args:
            code = word.strip(",").upper().replace(" ", "_")
            if code and code not in CATALOGUE and not (what == "rulings" and code == "NONE"):
                raise _fail(i, f"unknown ruling code {word!r}; expected one of "
                               f"{', '.join(sorted(CATALOGUE))}")
    elif what == "rows":
        rows = {f"D{n}" for n in range(1, 15)} | {f"B{n}" for n in range(1, 9)}
        for word in args:
            if word.upper() not in rows:
                raise _fail(i, f"unknown row {word!r}; expected D1..D14 or B1..B8 "
                               "(docs/irregularities.md)")
    elif what == "statuses":
        for word in args:
            if word.lower() not in _STATUSES:
                raise _fail(i, f"unknown ruling status {word!r}; expected one of "
                               f"{', '.join(_STATUSES)}")


def parse_deal(lines: Iterable[str]) -> DealScript:
    """Parse a ``.deal`` file's lines (``DealSyntaxError`` naming the line)."""
    header: dict[str, Any] = {}
    lines_of: dict[str, int] = {}  # header key -> the line that gave it
    sc: DealScript | None = None
    n = 0
    for i, raw in enumerate(lines, 1):
        n = i
        _check_text(i, raw)
        text = _clean(raw)
        if not text:
            continue
        m = re.fullmatch(r"([a-z ]+):\s*(.*)", text.lower())
        key = m.group(1).strip() if m else None
        if sc is None and key in HEADER_KEYS:
            _header_line(i, key, text.split(":", 1)[1].strip(), header)
            lines_of.setdefault(key, i)
            continue
        if key is not None and key in HEADER_KEYS:
            raise _fail(i, f"header line {key!r} after the first event")
        if sc is None:
            sc = _build(header, i, lines_of)
        sc.steps.append(parse_line(i, text, sc))
    if sc is None:
        sc = _build(header, n + 1, lines_of)
    return sc
