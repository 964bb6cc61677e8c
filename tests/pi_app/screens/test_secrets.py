"""Secrets on the TV: thousands of random frames, none showing an unrevealed hole card.

Two sources of views:

* real hands from ``engine.betting.hand`` (when present): random stacks, blinds and actions, a
  random shuffle; after every dealt card and every action the public view goes through the
  TV renderer.  The hand's own hole cards are the secrets; a card is revealed only once the
  hand lists it in ``shown_cards`` (tabled at showdown).
* random data (always): views built directly, including a producer bug (a showdown line
  naming cards the seat never showed), which the TV must still not draw.

For each frame we check (1) the source view (walked field by field) holds no unrevealed
hole card and (2) every card the renderer drew face up is on the board or in a seat's
``shown_cards``.
"""

import dataclasses
import random

import pygame
import pytest

from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS, Card, Deck
from engine.views import (
    ClockView,
    PotView,
    ScreenState,
    SeatPublic,
    ShowdownLine,
    TablePublicView,
)
from pi_app.screens import ScreenRenderer, render_frame

SIZE = (480, 270)  # small surface: same code path, quicker frames
LAYOUTS = ("table", "split")


def cards_in(obj) -> set[Card]:
    """Every Card reachable from a view (dataclasses, tuples, dicts)."""
    out: set[Card] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, Card):
            out.add(o)
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
        elif isinstance(o, (tuple, list, set, frozenset)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
    return out


def public_faces(view: TablePublicView) -> set[Card]:
    return set(view.board) | {c for s in view.seats for c in s.shown_cards}


def check_frame(surf, state: ScreenState, secrets: set[Card]) -> int:
    assert not cards_in(state) & secrets, "an unrevealed hole card reached the TV's view"
    frame = render_frame(surf, state)
    drawn = set(frame.faces)
    assert drawn <= public_faces(state.table), "a face was drawn that is not public"
    assert not drawn & secrets
    return 1


# ------------------------------------------------------------------ engine hands

def play_random_hand(rng: random.Random, surf, clock: ClockView) -> int:
    n = rng.randint(2, 10)
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {s: rng.choice([rng.randint(1, 30) * 100, rng.randint(50, 400) * 100]) for s in seats}
    bb = rng.choice([100, 200, 400])
    cfg = HandConfig(stacks=stacks, button=rng.choice(seats), small_blind=bb // 2, big_blind=bb,
                     big_blind_ante=rng.choice([0, bb]), names={s: f"P{s}" for s in seats},
                     hand_number=rng.randint(1, 500))
    hand = Hand(cfg)
    deck = iter(Deck.shuffled(rng))
    frames = 0
    layout = rng.choice(LAYOUTS)
    for _step in range(400):
        if hand.is_complete:
            break
        due = hand.next_deal()
        if due is not None:
            kind, seat = due
            card = next(deck)
            if kind == "hole":
                hand.deal_hole(seat, card)
            elif kind == "burn":
                hand.burn(card)
            else:
                hand.deal_board(card)
        elif hand.showdown_pending:
            seat = hand.showdown_pending[0]
            (hand.show if rng.random() < 0.6 or not hand.can_muck(seat) else hand.muck)(seat)
        elif hand.actor is not None:
            la = hand.legal_actions()
            r = rng.random()
            if la.can_fold and r < 0.2:
                hand.fold()
            elif la.min_raise_to is not None and r < 0.45:
                hand.bet_or_raise_to(rng.randint(la.min_raise_to, la.max_raise_to))
            else:
                hand.check_or_call()
        else:  # pragma: no cover - the engine says nothing is due but the hand is open
            pytest.fail(f"stuck hand: {hand!r}")
        secrets = {c for s in seats for c in hand.hole_cards(s)} - {
            c for s in seats for c in hand.shown_cards(s)}
        st = ScreenState(clock=clock, table=hand.public_view(), layout=layout, now=float(_step))
        frames += check_frame(surf, st, secrets)
    assert hand.is_complete
    return frames


def test_random_engine_hands_never_show_unrevealed_cards():
    rng = random.Random(20261129)
    surf = pygame.Surface(SIZE)
    clock = ClockView(level_number=3, small_blind=100, big_blind=200, remaining_seconds=300.0,
                      running=True)
    frames = hands = 0
    while frames < 2500:
        frames += play_random_hand(rng, surf, clock)
        hands += 1
    assert hands >= 50


# ------------------------------------------------------------------ random data

def random_view(rng: random.Random) -> tuple[TablePublicView, set[Card]]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    n = rng.randint(2, 10)
    seat_nums = sorted(rng.sample(range(1, 11), n))
    board = tuple(deck.pop() for _ in range(rng.choice([0, 3, 4, 5])))
    secrets: set[Card] = set()
    seats, lines = [], []
    for s in seat_nums:
        hole = (deck.pop(), deck.pop())
        status = rng.choice(["active", "folded", "all_in", "active"])
        shown = hole if status != "folded" and rng.random() < 0.3 else ()
        if not shown:
            secrets.update(hole)
        seats.append(SeatPublic(seat=s, name=f"P{s}", stack=rng.randint(0, 50_000),
                                bet=rng.choice([0, 0, 200, 1_000]), status=status,
                                has_cards=status != "folded", shown_cards=shown,
                                is_button=s == seat_nums[0], display_online=rng.random() > 0.1))
        if shown:
            lines.append(ShowdownLine(s, shown, "Two Pair, Kings and Fours", won=0))
    # a producer bug the TV must survive: a showdown line with cards nobody showed
    if rng.random() < 0.3 and secrets:
        hidden = tuple(sorted(secrets))[:2]
        lines.append(ShowdownLine(seat_nums[-1], hidden, "High Card, Ace"))
    pots = (PotView("Main pot", rng.randint(0, 9_000), tuple(seat_nums),
                    winners=(seat_nums[0],), awarded=((seat_nums[0], 500),)),)
    view = TablePublicView(hand_number=rng.randint(1, 99), street=rng.choice(
        ["preflop", "flop", "turn", "river", "showdown", "complete"]), seats=tuple(seats),
        board=board, pots=pots, actor=rng.choice(seat_nums + [None]), to_call=200,
        showdown=tuple(lines), small_blind=100, big_blind=200)
    return view, secrets


def test_random_views_never_draw_unrevealed_cards():
    rng = random.Random(7)
    surf = pygame.Surface(SIZE)
    renderer = ScreenRenderer()
    drawn_faces = 0
    for i in range(1500):
        view, secrets = random_view(rng)
        leaked_lines = {c for ln in view.showdown for c in ln.cards} & secrets
        st = ScreenState(table=view, layout=rng.choice(LAYOUTS), now=float(i))
        # the source view itself: only the deliberate producer bug may carry secrets
        assert cards_in(st) & secrets == leaked_lines
        renderer.render(surf, st)
        faces = set(renderer.last_faces)
        assert faces <= public_faces(view) and not faces & secrets
        drawn_faces += len(faces)
    assert drawn_faces > 1000  # the check had real faces to look at
