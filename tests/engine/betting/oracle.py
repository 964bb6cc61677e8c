"""pokerkit as a test oracle: play the same cards and actions through pokerkit.

Used only by tests and bench (pokerkit is a dev dependency).  Player index i of pokerkit
is our index i (clockwise from the first seat left of the button; heads-up index 0 is the
big blind), so stacks compare index by index.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerkit import Automation, Mode, NoLimitTexasHoldem

from engine.betting.hand import Hand, HandConfig
from engine.betting.pots import build_pots
from engine.cards import ALL_CARDS, Card
from engine.evaluation import evaluate_7_ids

AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def pokerkit_play(stacks: Sequence[int], small_blind: int, big_blind: int, ante: int,
                  holes: Sequence[Sequence[Card]], board: Sequence[Card],
                  actions: Sequence[tuple]) -> list[int]:
    """Final stacks by index.  ``actions``: ("f",), ("c",), ("r", total) in order."""
    n = len(stacks)
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, False, ante, (small_blind, big_blind), big_blind, tuple(stacks), n,
        mode=Mode.TOURNAMENT)
    for i in range(n):
        state.deal_hole("".join(str(c) for c in holes[i]))
    acts = iter(actions)
    b = 0
    while state.status:
        if state.actor_index is not None:
            a = next(acts)
            if a[0] == "f":
                state.fold()
            elif a[0] == "c":
                state.check_or_call()
            else:  # pokerkit caps a raise at what some opponent can call; we return the excess
                state.complete_bet_or_raise_to(
                    min(a[1], state.max_completion_betting_or_raising_to_amount))
        elif state.can_deal_board():
            k = 3 if b == 0 else 1
            state.deal_board("".join(str(c) for c in board[b:b + k]))
            b += k
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)   # everyone shows, as in our tests
        else:  # pragma: no cover - pokerkit automates everything else
            raise AssertionError(f"pokerkit stuck: {state}")
    return list(state.stacks)


TIE_BOARDS = ("AsKdQhJcTs", "9c9d9h9sAh", "2c2d2h3c3d", "AhAdKhKdQc", "5c6d7h8s9c")


def random_hand(rng: random.Random, n: int | None = None, tie_bias: float = 0.3,
                max_stack: int = 2000):
    """A random hand: (config, holes by index, board, ordered cards).  With probability
    ``tie_bias`` the board is one the table often plays (split pots, odd chips)."""
    n = n or rng.randint(2, 9)
    bb = rng.randint(2, 20)
    sb = rng.randint(1, bb - 1)  # equal blinds make pokerkit pick the other big blind
    ante = rng.choice((0, 0, 1, 2, bb // 2))
    lo = ante + bb + 1
    stacks = [rng.choice((rng.randint(lo, lo + 60), rng.randint(lo, max_stack)))
              for _ in range(n)]
    seats = sorted(rng.sample(range(1, 11), n))
    button = rng.choice(seats)
    cfg = HandConfig(stacks=dict(zip(seats, stacks, strict=True)), button=button, small_blind=sb,
                     big_blind=bb, ante=ante)
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    if rng.random() < tie_bias:
        text = rng.choice(TIE_BOARDS)
        board = [Card.parse(text[i:i + 2]) for i in range(0, 10, 2)]
        rest = [c for c in cards if c not in board and c.rank_value <= 8]
        rest += [c for c in cards if c not in board and c.rank_value > 8]
        cards = rest
    else:
        board = cards[2 * n:2 * n + 5]
    holes = [cards[2 * i:2 * i + 2] for i in range(n)]
    return cfg, holes, board


def choose(hand: Hand, rng: random.Random) -> tuple:
    """A random legal action for the seat to act: ("f",), ("c",) or ("r", total)."""
    la = hand.legal_actions()
    r = rng.random()
    if la.can_call and r < 0.2:
        return ("f",)
    if la.min_raise_to is not None and r > 0.6:
        lo, hi = la.min_raise_to, la.max_raise_to
        x = rng.random()
        amount = lo if x < 0.4 else hi if x < 0.6 else rng.randint(lo, hi)
        return ("r", amount)
    return ("c",)


def apply(hand: Hand, action: tuple) -> None:
    if action[0] == "f":
        hand.fold()
    elif action[0] == "c":
        hand.check_or_call()
    else:
        hand.bet_or_raise_to(action[1])


def deck_for(hand: Hand, holes, board) -> list[Card]:
    """Cards in the engine's dealing order for these holes (by index) and board."""
    n = len(holes)
    used = {c for h in holes for c in h} | set(board)
    fill = [c for c in ALL_CARDS if c not in used]
    order = [holes[i][0] for i in range(n)] + [holes[i][1] for i in range(n)]
    order += [fill[0]] + list(board[:3]) + [fill[1], board[3], fill[2], board[4]]
    return order


def play_ours(cfg: HandConfig, holes, board, rng: random.Random,
              actions: Sequence[tuple] | None = None) -> tuple[Hand, list[tuple]]:
    """Play a hand through our engine with random (or the given) actions; everyone shows."""
    hand = Hand(cfg)
    deck = deck_for(hand, holes, board)
    pos = 0
    done: list[tuple] = []
    it = iter(actions) if actions is not None else None
    while not hand.is_complete:
        due = hand.next_deal()
        if due is not None:
            c = deck[pos]
            pos += 1
            if due[0] == "hole":
                hand.deal_hole(due[1], c)
            elif due[0] == "burn":
                hand.burn(c)
            else:
                hand.deal_board(c)
        elif hand.actor is not None:
            a = next(it) if it is not None else choose(hand, rng)
            apply(hand, a)
            done.append(a)
        else:
            for s in hand.showdown_pending:
                hand.show(s)
    return hand, done


def pokerkit_expected_from_ours(hand: Hand) -> list[int]:
    """Our final stacks by index, re-split the way pokerkit documents it.

    Ours (docs/rules.md, TDA 20-A): pot by pot, odd chips one each to the winners in
    clockwise order from the button.  pokerkit kills every hand that wins nothing, which
    merges the pots those hands made, and gives all odd chips of a pot to its first
    winner.  The result is what pokerkit must end with for the same hand.
    """
    n = len(hand.seats)
    final = [hand.stacks[s] for s in hand.seats]
    if len(hand.awards) == 0 or hand.is_void:
        return final
    idx = {s: i for i, s in enumerate(hand.seats)}
    before = list(final)
    winners_any = set()
    for _amount, _el, won in hand.awards:
        for s, c in won:
            before[idx[s]] -= c
            winners_any.add(idx[s])
    contenders = [i for i in range(n) if not hand._folded[i]]
    if len(contenders) == 1:
        return final
    board = [c.id for c in hand.board]
    value = {i: evaluate_7_ids(hand._hole[i][0].id, hand._hole[i][1].id, *board)
             for i in contenders}
    live = [i in winners_any for i in range(n)]
    out = before
    for amount, elig in build_pots(hand._committed, live, hand._dead):
        best = min(value[i] for i in elig)
        ws = [i for i in elig if value[i] == best]
        q, r = divmod(amount, len(ws))
        for k, w in enumerate(ws):
            out[w] += q + (r if k == 0 else 0)
    return out


def play_both(cfg: HandConfig, holes, board, rng: random.Random):
    """Play one hand through our engine and pokerkit in lock-step with random actions.

    Returns ``(hand, pokerkit_stacks_by_index, notes)``.  At every decision the call
    amounts and whether a raise is possible are compared; the documented differences
    are asserted where they occur and recorded in ``notes``:

    * ``"tda47-closed"``: an all-in below a full raise does not reopen the betting for a
      player who already acted (TDA 47); pokerkit lets that player raise.
    * ``"tda47"``: short all-ins adding up to a full raise reopen the betting for us
      (TDA 47); pokerkit keeps it closed.  Both then call.
    * ``"cap"``: we allow a raise above what any opponent can call (the excess is returned);
      pokerkit caps it.  Both end the same.
    """
    hand = Hand(cfg)
    n = len(hand.seats)
    stacks = [cfg.stacks[s] for s in hand.seats]
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, False, cfg.ante, (cfg.small_blind, cfg.big_blind), cfg.big_blind,
        tuple(stacks), n, mode=Mode.TOURNAMENT)
    for i in range(n):
        state.deal_hole("".join(str(c) for c in holes[i]))
    deck = deck_for(hand, holes, board)
    pos = 0
    b = 0
    notes: list[str] = []
    while not hand.is_complete:
        due = hand.next_deal()
        if due is not None:
            c = deck[pos]
            pos += 1
            if due[0] == "hole":
                hand.deal_hole(due[1], c)
            elif due[0] == "burn":
                hand.burn(c)
            else:
                hand.deal_board(c)
            continue
        while state.status and state.actor_index is None and state.can_deal_board():
            k = 3 if b == 0 else 1
            state.deal_board("".join(str(c) for c in board[b:b + k]))
            b += k
        if hand.actor is None:
            for s in hand.showdown_pending:
                hand.show(s)
            continue
        i = hand.seats.index(hand.actor)
        assert state.actor_index == i, (state.actor_index, i)
        la = hand.legal_actions()
        pk_call = state.checking_or_calling_amount
        assert la.call_amount == pk_call, (la, pk_call)
        pk_can_raise = state.can_complete_bet_or_raise_to()
        a = choose(hand, rng)
        if la.min_raise_to is not None and not pk_can_raise:
            # only difference allowed: TDA 47 reopening by several short all-ins
            assert hand._acted[i] and hand.current_bet - hand._faced[i] >= hand._min_inc
            notes.append("tda47")
            if a[0] == "r":
                a = ("c",)
        elif la.min_raise_to is None and pk_can_raise:
            # pokerkit reopens after a short all-in; TDA 47 keeps it closed for us
            assert hand._acted[i] and hand.current_bet - hand._faced[i] < hand._min_inc
            notes.append("tda47-closed")
        apply(hand, a)
        if a[0] == "f":
            state.fold()
        elif a[0] == "c":
            state.check_or_call()
        else:
            cap = state.max_completion_betting_or_raising_to_amount
            if a[1] > cap:
                notes.append("cap")
            state.complete_bet_or_raise_to(min(a[1], cap))
    while state.status:
        if state.can_deal_board():
            k = 3 if b == 0 else 1
            state.deal_board("".join(str(c) for c in board[b:b + k]))
            b += k
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
        else:  # pragma: no cover
            raise AssertionError(f"pokerkit stuck: {state}")
    return hand, list(state.stacks), notes
