"""Helpers for the hand-engine tests: build hands and stacked decks from short strings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS, Card, parse_cards


def stacked(hand: Hand, holes: Mapping[int, str], board: str = "") -> list[Card]:
    """A deck (top first) that deals ``holes`` (seat -> "AsKd") and then ``board``
    (up to five cards) with burns in between, in the engine's dealing order."""
    order = hand.seats
    hole = {s: parse_cards(holes[s]) for s in order}
    b = list(parse_cards(board))
    used = {c for cs in hole.values() for c in cs} | set(b)
    fillers = iter(c for c in ALL_CARDS if c not in used)
    deck: list[Card] = []
    for r in range(2):
        deck.extend(hole[s][r] for s in order)
    if hand.config.burn_cards:
        deck.append(next(fillers))
    deck.extend(b[:3])
    for c in b[3:]:
        if hand.config.burn_cards:
            deck.append(next(fillers))
        deck.append(c)
    deck.extend(fillers)
    return deck


def new_hand(stacks: Mapping[int, int], button: int, **kw) -> Hand:
    return Hand(HandConfig(stacks=dict(stacks), button=button, **kw))


def run_out(hand: Hand, deck: Iterable[Card], show_all: bool = True) -> None:
    """Deal what is due, everyone checks/calls, and all hands show, until complete."""
    deck = list(deck)
    while not hand.is_complete:
        if hand.next_deal() is not None:
            hand.deal_from(deck)
        elif hand.actor is not None:
            hand.check_or_call()
        else:
            for s in hand.showdown_pending:
                if hand.is_complete:
                    break
                hand.show(s) if show_all else hand.muck(s)


def state_of(hand: Hand) -> tuple:
    """Everything observable, to check that a rejected operation changed nothing."""
    return (hand.to_dict(), hand.operations, hand.stacks, hand.bets, hand.pots, hand.actor,
            hand.street, hand.legal_actions(), hand.next_deal())


def assert_ids_kept(hand: Hand) -> None:
    """The card ids the hand keeps for its showdown (``_hole_ids``, ``_board_ids``) are
    exactly the ids of the cards it holds, position by position, in the order dealt."""
    assert hand._board_ids == tuple(c.id for c in hand._board)
    assert hand._hole_ids == [tuple(c.id for c in cards) for cards in hand._hole]
