"""The mutable dealing state of one hand, with exact copy and JSON round trip.

Owned by :class:`engine.dealing.procedure.DealingProcedure`; a copy is the snapshot a floor
override restores.  The hole cards and the hand inside are private: :meth:`to_dict` is for
the private journal only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.betting.hand import Hand, HandConfig
from engine.cards import Card
from engine.dealing.sequence import BOARD_STREETS, Draw, street_plan


@dataclass
class DealState:
    """Everything that changes while one hand is dealt.

    cfg: the hand's config (always ``burn_cards=False``: burns are tracked here, not in
    the hand, so corrections can move them freely).  hand: the engine hand.  draws: every
    card drawn this hand, in order (reader repeats excluded).  seen: card id -> draw number
    for cards out of the stub.  due: slots due now (engine.dealing.sequence).  plans: the draws of
    each board street still to come.  hole_buf: hole cards drawn but not yet given to the
    hand (a button dealt two consecutive cards, TDA 35-B).  held: player actions pressed
    while cards were still due (event dicts), applied in order once the betting opens.
    """

    cfg: HandConfig
    hand: Hand
    draws: list[Draw] = field(default_factory=list)
    seen: dict[int, int] = field(default_factory=dict)
    last_uid: str | None = None
    due: list[str] = field(default_factory=list)
    plans: dict[str, list[str]] = field(default_factory=dict)
    loaded_street: str | None = None
    street_drawn: int = 0
    plan_burn: bool = False
    hole_buf: dict[int, list[Card]] = field(default_factory=dict)
    hole_count: int = 0
    exposed_hole: int = 0
    boxed: int = 0
    extra_cards: int = 0
    prem_round: str | None = None
    prem_burn: bool = False
    prem_board: int = 0
    street_actions: dict[str, int] = field(default_factory=dict)
    stopped: str | None = None
    exposed: list[int] = field(default_factory=list)   # card ids seen face up
    button_short_ruled: bool = False
    replacing: dict[int, list[list[Any]]] = field(default_factory=dict)  # seat -> [[draw n, becomes]]
    first_ruling: int = 1   # rulings of this deal have ids >= this
    reported_complete: bool = False
    held: list[dict[str, Any]] = field(default_factory=list)  # actions pressed while dealing
    floor_pick: str | None = None  # the floor's choice for the next scramble (a card)

    @classmethod
    def fresh(cls, cfg: HandConfig, due: list[str], hand: Hand | None = None) -> DealState:
        """The state before the first card: ``due`` the hole slots, ``hand`` the engine
        hand of ``cfg`` when the caller has made it already."""
        return cls(cfg=cfg, hand=hand if hand is not None else Hand(cfg), due=due,
                   plans={s: street_plan(s) for s in BOARD_STREETS})

    def copy(self) -> DealState:
        """An independent copy (the snapshot a ruling or the table's UNDO goes back to):
        every list and dict is copied, draws, cards and the config (immutable) are shared."""
        new = object.__new__(DealState)
        new.__dict__.update(self.__dict__)
        new.hand = self.hand.copy()
        new.draws = self.draws[:]
        new.seen = dict(self.seen)
        new.due = self.due[:]
        new.plans = {k: v[:] for k, v in self.plans.items()}
        new.street_actions = dict(self.street_actions)
        new.exposed = self.exposed[:]
        # mostly empty (no hole card held back, none replaced, no action pressed early):
        # an empty one is copied without a comprehension (a copy per player action)
        new.hole_buf = {k: v[:] for k, v in self.hole_buf.items()} if self.hole_buf else {}
        new.replacing = {k: [x[:] for x in v] for k, v in self.replacing.items()} \
            if self.replacing else {}
        new.held = [dict(x) for x in self.held] if self.held else []
        return new

    def to_dict(self) -> dict[str, Any]:
        return {
            "cfg": self.cfg.to_dict(), "hand": self.hand.to_dict(),
            "draws": [x.to_dict() for x in self.draws],
            "seen": {str(k): v for k, v in self.seen.items()},
            "last_uid": self.last_uid, "due": list(self.due),
            "plans": {k: list(v) for k, v in self.plans.items()},
            "loaded_street": self.loaded_street, "street_drawn": self.street_drawn,
            "plan_burn": self.plan_burn,
            "hole_buf": {str(k): [str(c) for c in v] for k, v in self.hole_buf.items()},
            "hole_count": self.hole_count, "exposed_hole": self.exposed_hole,
            "boxed": self.boxed, "extra_cards": self.extra_cards,
            "prem_round": self.prem_round, "prem_burn": self.prem_burn,
            "prem_board": self.prem_board, "street_actions": dict(self.street_actions),
            "stopped": self.stopped, "exposed": list(self.exposed),
            "button_short_ruled": self.button_short_ruled,
            "replacing": {str(k): [list(x) for x in v] for k, v in self.replacing.items()},
            "first_ruling": self.first_ruling,
            "reported_complete": self.reported_complete,
            "held": [dict(x) for x in self.held],
            "floor_pick": self.floor_pick,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DealState:
        kw = dict(d)
        kw["cfg"] = HandConfig.from_dict(d["cfg"])
        kw["hand"] = Hand.from_dict(d["hand"])
        kw["draws"] = [Draw.from_dict(x) for x in d["draws"]]
        kw["seen"] = {int(k): v for k, v in d["seen"].items()}
        kw["due"] = list(d["due"])
        kw["plans"] = {k: list(v) for k, v in d["plans"].items()}
        kw["hole_buf"] = {int(k): [Card.parse(c) for c in v] for k, v in d["hole_buf"].items()}
        kw["street_actions"] = dict(d["street_actions"])
        kw["exposed"] = list(d["exposed"])
        kw["held"] = [dict(x) for x in d.get("held", [])]
        kw["replacing"] = {int(k): [list(x) for x in v]
                           for k, v in d.get("replacing", {}).items()}
        return cls(**kw)
