"""Random clean hands through the dealing procedure (property, secrets and bench)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.betting.hand import HandConfig
from engine.cards import Card, Deck
from engine.dealing.outcomes import Outcome
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import DeckRegistry, make_test_deck
from engine.dealing.sequence import hole_order
from engine.events import CardDrawn, PlayerAction

_DECKS: dict[int, DeckRegistry] = {}


def deck(seed: int) -> DeckRegistry:
    if seed not in _DECKS:
        _DECKS[seed] = make_test_deck(seed)
    return _DECKS[seed]


def random_config(rng: random.Random) -> HandConfig:
    n = rng.randint(2, 10)
    seats = sorted(rng.sample(range(1, 11), n))
    button = rng.choice(seats) if rng.random() < 0.85 else rng.randint(1, 10)
    bb = rng.choice([2, 20, 50, 100])
    stacks = {s: rng.choice([bb // 2 or 1, bb, 3 * bb, 10 * bb, 100 * bb, rng.randint(1, 200 * bb)])
              for s in seats}
    ante = rng.choice([0, 0, 0, bb // 10])
    return HandConfig(stacks=stacks, button=button, small_blind=bb // 2, big_blind=bb, ante=ante)


@dataclass
class Played:
    proc: DealingProcedure
    outcomes: list[Outcome] = field(default_factory=list)
    drawn_to: dict[int, list[Card]] = field(default_factory=dict)  # by expected order
    public_texts: list[str] = field(default_factory=list)


def play_random_hand(seed: int, *, repeats: bool = True, collect_public: bool = False,
                     profile: str = "tda2024") -> Played:
    """Deal one clean hand with random folds, raises and all-ins; the shoe sometimes
    repeats a read.  Records which cards were drawn in each hole-card slot."""
    rng = random.Random(seed)
    cfg = random_config(rng)
    reg = deck(seed % 5)
    proc = DealingProcedure(cfg, reg, profile, seed=seed)
    cards = list(Deck.shuffled(rng))
    p = Played(proc)
    order = hole_order(cfg.stacks, cfg.button, proc.hand.big_blind_seat
                       if len(cfg.stacks) == 2 else None)
    t = 0.0
    i = 0
    draw_no = 0

    def public(o_list: list[Outcome]) -> None:
        if collect_public:
            p.public_texts.extend(str(o.to_dict()) for o in o_list)
            p.public_texts.append(repr(proc.public_view()))
            rv = proc.ruling_view()
            if rv is not None:
                p.public_texts.append(repr(rv))

    for _ in range(400):
        h = proc.hand
        if h.is_complete:
            break
        t += 0.25
        if proc.s.due:
            c = cards[i]
            if i < len(order):
                p.drawn_to.setdefault(order[i], []).append(c)
            i += 1
            draw_no += 1
            ev = CardDrawn(t=t, uid=reg.uid_of(c), draw=draw_no)
            outs = proc.apply(ev)
            if repeats and rng.random() < 0.05:
                outs += proc.apply(CardDrawn(t=t + 0.01, uid=reg.uid_of(c), draw=draw_no))
        elif h.actor is not None:
            la = h.legal_actions()
            r = rng.random()
            if r < 0.2 and la.can_fold and not la.can_check:
                act = PlayerAction(t=t, seat=h.actor, action="fold")
            elif r < 0.45 and la.min_raise_to is not None:
                amt = rng.choice([la.min_raise_to, la.max_raise_to,
                                  rng.randint(la.min_raise_to, la.max_raise_to)])
                act = PlayerAction(t=t, seat=h.actor, action="bet_raise", amount=amt)
            else:
                act = PlayerAction(t=t, seat=h.actor, action="check_call")
            outs = proc.apply(act)
        elif h.showdown_pending:
            seat = h.showdown_pending[0]
            outs = proc.apply(PlayerAction(t=t, seat=seat,
                                           action=rng.choice(["show", "muck"])))
        else:
            raise AssertionError(f"stuck: {proc.expected_next()} {h!r}")
        p.outcomes += outs
        public(outs)
    assert proc.hand.is_complete, "hand did not finish"
    return p
