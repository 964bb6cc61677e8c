"""Playing a ``.deal`` scenario (:mod:`engine.dealing.deal_script`) through the dealing
procedure, checking its expectations and printing what happens in words.

:func:`run_deal` applies each line in order.  A line the table refuses raises
:class:`~engine.dealing.deal_script.DealRefusedError` naming the line and the reason; a
failed expectation is collected (``DealResult.failures``, each naming its line) and the
script goes on.  Every printed line is public: it never shows an unrevealed hole card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.dealing.deal_script import DealRefusedError, DealScript, DealSyntaxError, Step
from engine.dealing.outcomes import (
    ActionHeld,
    HandComplete,
    HandRedealt,
    HandVoided,
    Outcome,
    PotAwarded,
    RulingDecided,
    RulingIssued,
)
from engine.dealing.sequence import BURN
from engine.errors import PokerTableError
from engine.events import CardDrawn, PlayerAction, ShoeReloaded

_SLOT_WORDS = {"reshuffle": "stub_reshuffled", "reload": "shoe_reloaded"}


@dataclass
class DealResult:
    script: DealScript
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)


def _stacks(pairs: Any) -> str:
    return " ".join(f"{s}={c}" for s, c in pairs)


def describe(line: int, o: Outcome) -> str | None:
    """The printed words for an outcome (None: not printed)."""
    if isinstance(o, RulingIssued):
        r = o.ruling
        return (f"line {line}: ruling {r.code} ({r.row}, {r.rule}): {r.words} "
                f"{r.instruction}".rstrip())
    if isinstance(o, ActionHeld):
        return f"line {line}: held: seat {o.seat} {o.action} ({o.reason})"
    if isinstance(o, RulingDecided):
        r = o.ruling
        return (f"line {line}: the floor {r.status} ruling {r.id} ({r.code})"
                + (f": {r.note}" if r.note else ""))
    if isinstance(o, HandVoided):
        return f"line {line}: hand voided, every chip returned: {_stacks(o.stacks)}"
    if isinstance(o, HandRedealt):
        return f"line {line}: the hand is dealt again (redeal {o.redeal}), button {o.button}"
    if isinstance(o, PotAwarded):
        won = ", ".join(f"seat {s} {c}" for s, c in o.awards)
        return f"line {line}: {o.label} {o.amount}: {won}"
    if isinstance(o, HandComplete):
        return f"line {line}: hand complete: {_stacks(o.stacks)}"
    return None


class _Runner:
    def __init__(self, sc: DealScript, emit: Callable[[str], None]) -> None:
        self.sc = sc
        self.proc = sc.procedure
        self.emit = emit
        self.result = DealResult(sc)
        self.counter = 0
        self.last_uid: str | None = None
        self.last_codes: list[str] = []

    def run(self) -> DealResult:
        for st in self.sc.steps:
            if st.kind == "expect":
                self._check(st)
            elif st.kind == "pick":
                self.proc.s.floor_pick = str(st.card)
            else:
                self._apply(st)
        h = self.proc.hand
        self._say(f"final: stacks {_stacks(sorted(h.stacks.items()))}; rulings "
                  f"{' '.join(r.code for r in self.proc.rulings) or 'none'}")
        return self.result

    def _say(self, text: str) -> None:
        self.result.lines.append(text)
        self.emit(text)

    def _apply(self, st: Step) -> None:
        try:
            ev = self._event(st)
            outs = self.proc.apply(ev)
        except PokerTableError as exc:
            raise DealRefusedError(f"line {st.line}: the table refuses {st.text!r}: {exc}") \
                from None
        if isinstance(ev, ShoeReloaded):
            self.counter, self.last_uid = 0, None
        self.result.outcomes += outs
        self.last_codes = [o.ruling.code for o in outs if isinstance(o, RulingIssued)]
        for o in outs:
            if isinstance(o, ActionHeld) and st.kind == "action":
                self._say(f"line {st.line}: held: {st.text} ({o.reason})")
                continue
            words = describe(st.line, o)
            if words:
                self._say(words)

    def _event(self, st: Step) -> Any:
        t = float(st.line)
        if st.kind == "event":
            return st.event
        if st.kind == "deal":
            uid = st.uid
            if uid is None:
                reg = self.sc.extra_decks[st.deck] if st.deck else self.proc.registry
                uid = reg.uid_of(st.card)  # type: ignore[arg-type]
            if uid != self.last_uid:
                self.counter += 1
            self.last_uid = uid
            return CardDrawn(t=t, uid=uid, draw=self.counter)
        return self._action(st, t)

    def _action(self, st: Step, t: float) -> PlayerAction:
        p = self.proc
        seat, verb = st.seat, st.verb
        assert seat is not None
        if verb in ("fold", "show", "muck"):
            return PlayerAction(t=t, seat=seat, action=verb)
        if verb == "bet_or_raise_to":
            return PlayerAction(t=t, seat=seat, action=verb, amount=st.amount)
        dealing = bool(p.s.due or p.s.held or p.hand.next_deal() is not None)
        h = p.probe_hand() if dealing else p.hand
        if h.actor == seat:
            la = h.legal_actions()
            if verb == "all_in":
                if la.max_raise_to is not None:
                    return PlayerAction(t=t, seat=seat, action="bet_or_raise_to",
                                        amount=la.max_raise_to)
            elif verb == "check" and not la.can_check:
                raise DealRefusedError(f"line {st.line}: seat {seat} cannot check: "
                                       f"{la.call_amount} to call")
            elif verb == "call" and la.can_check:
                raise DealRefusedError(f"line {st.line}: seat {seat} has nothing to call: "
                                       "it checks")
        return PlayerAction(t=t, seat=seat, action="check_or_call")

    # -------------------------------------------------------------- expectations
    def _check(self, st: Step) -> None:
        got, want = self._measure(st)
        if got != want:
            self.result.failures.append(f"line {st.line}: {st.text}: expected {want}, got {got}")

    def _measure(self, st: Step) -> tuple[Any, Any]:
        p = self.proc
        a = list(st.args)
        codes = [r.code for r in p.rulings]
        w = st.what
        if w == "ruling":
            return self.last_codes, [_code(x) for x in a]
        if w == "no ruling":
            return self.last_codes, []
        if w == "rulings include":
            return sorted({_code(x) for x in a} - set(codes)), []
        if w == "rulings exclude":
            return sorted({_code(x) for x in a} & set(codes)), []
        if w == "rulings":
            return codes, [_code(x) for x in a if x.lower() != "none"]
        if w == "rows":
            return [r.row for r in p.rulings], [x.upper() for x in a]
        if w == "statuses":
            return [r.status for r in p.rulings], [x.lower() for x in a]
        if w == "seat":
            return self._holds(st, a)
        if w == "board":
            want = [] if a == ["empty"] else [str(Card.parse(x)) for x in a]
            return [str(c) for c in p.hand.board], want
        if w == "burns":
            n = sum(1 for d in p.draws if d.destination == BURN)
            return n, _num(st, a)
        if w == "next":
            return self._next(a)
        if w == "stacks":
            try:
                seats = {int(k): int(v) for k, v in (x.split("=", 1) for x in a)}
            except ValueError:
                raise DealSyntaxError(f"line {st.line}: expected seat=chips pairs like "
                                      "4=1000") from None
            return {s: p.hand.stacks.get(s) for s in seats}, seats
        if w == "hand":
            return self._hand_state(" ".join(a).lower())
        if w == "redeals":
            return p.redeals, _num(st, a)
        if w == "reader repeats":
            return p.repeats, _num(st, a)
        if w == "deck ok":
            return p.deck_check().ok, True
        if w == "held":
            return len(p.s.held), _num(st, a)
        raise DealRefusedError(f"line {st.line}: unknown expectation {w!r}")  # pragma: no cover

    def _holds(self, st: Step, a: list[str]) -> tuple[Any, Any]:
        if len(a) < 2 or not a[0].isdigit() or a[1].lower() != "holds":
            raise DealSyntaxError(f"line {st.line}: expected 'expect seat N holds CARD CARD'")
        seat = int(a[0])
        held = list(self.proc.hand.hole_cards(seat)) if seat in self.proc.hand.stacks else []
        held += self.proc.s.hole_buf.get(seat, [])
        return sorted(str(c) for c in held), sorted(str(Card.parse(x)) for x in a[2:])

    def _next(self, a: list[str]) -> tuple[Any, Any]:
        want: list[str] = []
        words = [x.lower().strip(",") for x in a if x.strip(",")]
        i = 0
        while i < len(words):
            x = words[i]
            if x in ("hole", "replace") and i + 1 < len(words):
                want.append(f"{x}:{words[i + 1]}")
                i += 2
                continue
            if x != "nothing":
                want.append(_SLOT_WORDS.get(x, x))
            i += 1
        got = self.proc.expected_next()
        return got[:len(want)] if want else got, want

    def _hand_state(self, what: str) -> tuple[Any, Any]:
        h = self.proc.hand
        states = {"complete": h.is_complete, "void": h.is_void, "not void": not h.is_void,
                  "stopped": self.proc.stopped is not None,
                  "not complete": not h.is_complete}
        return states.get(what, f"unknown state {what!r}"), True


def _code(x: str) -> str:
    return x.strip(",").upper().replace(" ", "_")


def _num(st: Step, a: list[str]) -> int:
    if len(a) != 1 or not a[0].isdigit():
        raise DealSyntaxError(f"line {st.line}: expected one whole number after "
                               f"'expect {st.what}'")
    return int(a[0])


def run_deal(sc: DealScript, emit: Callable[[str], None] = lambda _t: None) -> DealResult:
    """Play ``sc``; ``emit`` gets each printed line as it happens.  Raises
    ``DealRefusedError`` for a line the table refuses (the lines before it were emitted)."""
    return _Runner(sc, emit).run()
