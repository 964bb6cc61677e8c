"""Dealing irregularities: house profiles, the substantial-action gate and ruling records.

The detection itself runs in :class:`engine.dealing.procedure.DealingProcedure`, which holds
the dealing state; this module holds what a ruling *is* and which rule each code cites.
Rule references use Poker TDA 2024 numbering ("TDA 35-A-7", "TDA RP-5" for the
Recommended Procedures); rows refer to the table in docs/irregularities.md (D1-D14,
B1-B8).

House profiles (:data:`PROFILES`) are sets of knobs; any knob can be set on its own::

    profile = make_profile("tda2024", exposed_first_cards=1)

Rule order (docs/irregularities.md): fouled deck first (never gated); then foreign card;
then the deal-phase misdeal conditions, only while the misdeal window is open (before
substantial action, TDA 35-D); then the corrections, each of which changes what the
procedure expects the shoe to deliver next.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.errors import InvalidInputError
from engine.views import RulingView
from engine.wording import words


class ProfileError(InvalidInputError):
    """Unknown house profile, unknown knob or a knob value not allowed."""


# knob -> allowed values (first is the TDA 2024 default)
KNOBS: dict[str, tuple[Any, ...]] = {
    "misdeal_gate": ("tda", "rrop"),
    "exposed_first_cards": (2, 1),
    "single_boxed_card": ("scrap", "misdeal"),
    "one_extra_card": ("misdeal", "burn"),
    "foreign_card": ("misdeal_before_sa", "scrap"),
    "premature_turn": ("reshuffle", "set_aside"),
    "four_card_flop": ("scramble", "redeal"),
    "missed_flop_burn": ("scramble", "first_card_burns", "redeal"),
    "burn_error": ("correct", "stands"),
}


@dataclass(frozen=True)
class HouseProfile:
    """The house policy knobs (docs/irregularities.md, "Profiles and knobs").

    misdeal_gate: ``tda`` = TDA 36 substantial action; ``rrop`` = two players acted in turn.
    exposed_first_cards: how many of the first cards of the deal cause a misdeal when
        exposed (TDA 35-A-7: 2; seed venue "mini": 1).
    single_boxed_card: ``scrap`` (replaced) or ``misdeal``; two or more is always a misdeal.
    one_extra_card: ``misdeal`` (TDA 35-A-5) or ``burn`` (returned and used as the burn).
    foreign_card: ``misdeal_before_sa`` (TDA 35-A-6) or ``scrap`` (replaced, RRoP joker).
    premature_turn: ``reshuffle`` (TDA RP-5) or ``set_aside`` (RRoP: would-be river is the turn).
    four_card_flop: ``scramble`` (TDA 39-A) or ``redeal`` (flop back to the stub, no burn).
    missed_flop_burn: ``scramble`` (TDA 39-B), ``first_card_burns`` (the first flop card is
        shown and discarded, the next card takes its place) or ``redeal``.
    burn_error: ``correct`` (missed turn/river burn: the card becomes the burn) or ``stands``.
    """

    name: str = "tda2024"
    misdeal_gate: str = "tda"
    exposed_first_cards: int = 2
    single_boxed_card: str = "scrap"
    one_extra_card: str = "misdeal"
    foreign_card: str = "misdeal_before_sa"
    premature_turn: str = "reshuffle"
    four_card_flop: str = "scramble"
    missed_flop_burn: str = "scramble"
    burn_error: str = "correct"

    def __post_init__(self) -> None:
        for k, allowed in KNOBS.items():
            v = getattr(self, k)
            if v not in allowed:
                raise ProfileError(f"house knob {k}={v!r} not allowed; expected one of "
                                   f"{', '.join(map(str, allowed))}")

    def knobs(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.knobs()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HouseProfile:
        return make_profile(d.get("name", "tda2024"),
                            **{k: v for k, v in d.items() if k != "name"})


PROFILES: dict[str, HouseProfile] = {
    "tda2024": HouseProfile(),
    "rrop": HouseProfile(name="rrop", misdeal_gate="rrop", one_extra_card="burn",
                         foreign_card="scrap", premature_turn="set_aside",
                         four_card_flop="redeal", missed_flop_burn="redeal"),
    # seed 000: its written misdeal list (gate "two players after the blinds have acted"),
    # exposed-card rule (1st/2nd misdeal, other replaced and burnt), premature fourth card
    # set aside, too-many-card flop redealt, missed burn: shown, discarded, next card in place.
    "gunpowder": HouseProfile(name="gunpowder", misdeal_gate="rrop", one_extra_card="burn",
                              premature_turn="set_aside", four_card_flop="redeal",
                              missed_flop_burn="first_card_burns"),
    # seed 002: only the first exposed card is a misdeal.
    "mini": HouseProfile(name="mini", exposed_first_cards=1),
}


def make_profile(name: str = "tda2024", **knobs: Any) -> HouseProfile:
    """A named profile with any knobs overridden.

    Raises:
        ProfileError: unknown profile or knob, or a value not allowed.
    """
    base = PROFILES.get(name)
    if base is None:
        raise ProfileError(f"unknown house profile {name!r}; expected one of {', '.join(PROFILES)}")
    bad = set(knobs) - set(KNOBS)
    if bad:
        raise ProfileError(f"unknown house knob(s) {', '.join(sorted(bad))}; expected "
                           f"{', '.join(KNOBS)}")
    return replace(base, **knobs) if knobs else base


# --- the substantial-action gate ---------------------------------------------------------
def substantial_action(actions: Iterable[tuple[int, str, int | None]], gate: str = "tda") -> bool:
    """Whether substantial action has occurred.

    Args:
        actions: the hand engine's ``actions_in_turn()``: ``(seat, kind, chips_added)`` for
            voluntary actions in turn (posted blinds and antes excluded).
        gate: ``tda``: TDA 36: two actions in turn of which at least one puts chips in, or
            any three actions in turn.  ``rrop``: two players have acted in turn (RRoP
            "Irregularities"; also seed 000), folds included.
    """
    acts = list(actions)
    if gate == "rrop":
        return len({a[0] for a in acts}) >= 2
    if len(acts) >= 3:
        return True
    return len(acts) == 2 and any((a[2] or 0) > 0 for a in acts)


# --- rulings -----------------------------------------------------------------------------
# code -> (row, rule reference, plain words for the dealer)
CATALOGUE: dict[str, tuple[str, str, str]] = {
    "MISDEAL": ("D1", "TDA 35-A", "Misdeal"),
    "FOULED_DECK": ("D12", "TDA 35-E", "Fouled deck: two cards of the same rank and suit"),
    "REPLACE_EXPOSED_CARD": ("D2", "TDA 35-A-7", "Exposed hole card: the deal continues"),
    "EXPOSED_CARD_PLAYS": ("D2", "TDA 35-D", "Exposed card after substantial action: it plays"),
    "BOXED_CARD": ("D4", "TDA 35-A-1", "One boxed card: a scrap, replaced"),
    "BUTTON_CONSECUTIVE_CARDS": ("D9", "TDA 35-B", "The button may take two consecutive cards"),
    "BUTTON_SHORT": ("D10", "TDA 37", "The button is short a card: complete it"),
    "BUTTON_DEAD": ("D10", "TDA 37", "The button acted with one card: its hand is dead"),
    "EXTRA_CARD": ("D8", "RRoP Irregularities", "One extra card dealt: it becomes the burn"),
    "FOREIGN_CARD": ("D11", "TDA 35-A-6", "A card not of this deck: a scrap, replaced"),
    "MISDEAL_WINDOW_CLOSED": ("D13", "TDA 35-D", "Substantial action has occurred: no misdeal"),
    "BUTTON_STANDS": ("D13", "TDA 34-A", "Button out of position after action: it stands"),
    "PREMATURE_BURN": ("B1", "TDA RP-5", "Burn drawn before the betting closed: it stays"),
    "PREMATURE_BOARD": ("B1", "TDA RP-5", "Board card dealt before the betting closed"),
    "FOUR_CARD_FLOP": ("B4", "TDA 39-A", "Four-card flop"),
    "MISSED_BURN": ("B5", "TDA 39-B", "Board dealt without a burn"),
    "DOUBLE_BURN": ("B6", "TDA 38", "Two burns on one street"),
    "BURN_EXPOSED": ("B7", "TDA 38", "The burn card was seen: it is shown and discarded"),
    "STUB_RESHUFFLED": ("B8", "TDA 39-D", "Stub reshuffled face down: returned cards are live"),
}

#: Where Robert's Rules of Poker (v11) rules otherwise than the TDA, a ruling under the
#: ``rrop`` profile cites RRoP, never the TDA rule that says the opposite.
RROP_CITES: dict[str, str] = {
    "EXTRA_CARD": "RRoP Irregularities (an extra card is the burn)",
    "BOXED_CARD": "RRoP Irregularities (a boxed card is a scrap)",
    "FOREIGN_CARD": "RRoP Irregularities (a card not of the deck is a scrap)",
    "PREMATURE_BOARD": "RRoP Hold'em (a premature card)",
    "FOUR_CARD_FLOP": "RRoP Hold'em (a flop of too many cards is redealt)",
    "MISSED_BURN": "RRoP Hold'em (a missed burn)",
    "MISDEAL_WINDOW_CLOSED": "RRoP Irregularities (two players have acted: no misdeal)",
    "EXPOSED_CARD_PLAYS": "RRoP Irregularities (two players have acted: the card plays)",
}
#: Codes whose ruling exists only under a non-TDA knob value: never cite a TDA rule alone.
HOUSE_ONLY = {"EXTRA_CARD": "one_extra_card"}


def rule_for(code: str, rule: str, profile: HouseProfile) -> str:
    """The rule a ruling cites under ``profile``: RRoP's own words under ``rrop``
    (:data:`RROP_CITES`), the house profile for a house-only ruling, else ``rule``."""
    if profile.name == "rrop" and code in RROP_CITES:
        return RROP_CITES[code]
    if code in HOUSE_ONLY and profile.name != "rrop":
        return f"House rule ({profile.name}; {HOUSE_ONLY[code]}, after RRoP)"
    return rule


MISDEAL_RULES = {
    "D1": "TDA 35-A-7", "D3": "TDA 35-A-7", "D4": "TDA 35-A-1", "D5": "TDA 35-A-2",
    "D6": "TDA 35-A-3", "D7": "TDA 35-A-4", "D8": "TDA 35-A-5", "D11": "TDA 35-A-6",
    "D13": "TDA 34-A", "floor": "TDA 1",
}

STATUSES = ("advisory", "confirmed", "overridden")


@dataclass(frozen=True)
class Ruling:
    """One dealing ruling (advisory until the floor confirms or overrides it, TDA 1).

    Attributes:
        id: 1-based number within the procedure's life (journal order).
        code: e.g. ``MISDEAL``, ``FOULED_DECK``, ``REPLACE_EXPOSED_CARD`` (see CATALOGUE).
        row: the table row (``D1``..``D14``, ``B1``..``B8``).
        rule: TDA reference, e.g. ``"TDA 35-A-7"``.
        words: what happened, in plain words.  Public: it names a card only when that card
            was exposed or is on the board.
        instruction: what the dealer must do now.
        profile: the house profile name used.
        expect_next: what the shoe must deliver next (slots of :mod:`engine.dealing.sequence`).
        draw: the hand's draw number that triggered it (None for declarations).
        misdeal: True when the hand is voided (misdeal or fouled deck).
        status: ``advisory`` | ``confirmed`` | ``overridden``; ``note``: the floor's note.
    """

    id: int
    code: str
    row: str
    rule: str
    words: str
    instruction: str
    profile: str
    expect_next: tuple[str, ...] = ()
    draw: int | None = None
    misdeal: bool = False
    status: str = "advisory"
    note: str = ""
    t: float = 0.0

    def view(self) -> RulingView:
        """The banner view (public)."""
        return RulingView(code=words(self.code).lower(), words=words(self.words),
                          rule=words(self.rule), instruction=words(self.instruction),
                          profile=words(self.profile), status=self.status,
                          ruling_id=self.id, row=self.row,
                          next_words=words(describe_expect(self.expect_next)))

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["expect_next"] = list(self.expect_next)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Ruling:
        kw = dict(d)
        kw["expect_next"] = tuple(kw.get("expect_next", ()))
        return cls(**kw)


@dataclass
class RulingBook:
    """The rulings of a procedure, in order, with the floor's decisions recorded."""

    rulings: list[Ruling] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)

    def next_id(self) -> int:
        return len(self.rulings) + 1

    def add(self, r: Ruling) -> Ruling:
        self.rulings.append(r)
        return r

    def set_status(self, rid: int, status: str, note: str, t: float) -> Ruling:
        r = replace(self.rulings[rid - 1], status=status, note=note)
        self.rulings[rid - 1] = r
        self.decisions.append({"ruling": rid, "status": status, "note": note, "t": t})
        return r

    def to_dict(self) -> dict[str, Any]:
        return {"rulings": [r.to_dict() for r in self.rulings],
                "decisions": [dict(x) for x in self.decisions]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RulingBook:
        return cls([Ruling.from_dict(x) for x in d.get("rulings", [])],
                   [dict(x) for x in d.get("decisions", [])])


def describe_expect(expect: Iterable[str]) -> str:
    """Plain words for an expected pattern, e.g. ``"reshuffle the stub, then 3 board cards
    (no burn)"``."""
    parts: list[str] = []
    items = list(expect)
    i = 0
    while i < len(items):
        s = items[i]
        j = i
        while j < len(items) and items[j] == s:
            j += 1
        n = j - i
        if s == "stub_reshuffled":
            parts.append("reshuffle the stub")
        elif s == "betting":
            parts.append("finish the betting")
        elif s == "shoe_reloaded":
            parts.append("reload the shoe with a shuffled deck")
        elif s.startswith("hole:"):
            parts.append(f"hole card to seat {s[5:]}" + (f" x{n}" if n > 1 else ""))
        elif s.startswith("replace:"):
            parts.append(f"replacement card to seat {s[8:]}")
        elif s == "burn":
            parts.append("burn" if n == 1 else f"{n} burns")
        elif s == "board":
            parts.append("1 board card" if n == 1 else f"{n} board cards")
        else:
            parts.append(s)
        i = j
    return ", then ".join(parts) if parts else "nothing"
