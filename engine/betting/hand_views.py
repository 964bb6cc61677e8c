"""Views of a :class:`engine.betting.hand.Hand`: the public table view and one seat's private view.

The public view is built only from public facts (stacks, bets, pots, board, cards that
were tabled at showdown); an unrevealed hole card never enters it.  The seat view holds
that seat's own hole cards only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from engine.betting.hand_reading import HandReading
from engine.evaluation import describe_against, evaluate
from engine.views import (
    LegalActions,
    PotView,
    SeatDisplayView,
    SeatPublic,
    ShowdownLine,
    TablePublicView,
)
from engine.wording import void_message, void_note

if TYPE_CHECKING:  # pragma: no cover
    from engine.cards import Card


def _legal_view(hand: HandReading) -> LegalActions | None:
    return hand.legal_actions() if hand.actor is not None else None


def _pot_label(k: int) -> str:
    return "Main pot" if k == 0 else f"Side pot {k}"


def _pot_views(hand: HandReading) -> tuple[PotView, ...]:
    if hand.is_complete:
        out = []
        for k, (amount, eligible, won) in enumerate(hand.awards):
            out.append(PotView(_pot_label(k), amount, eligible,
                               tuple(s for s, _ in won), tuple(won)))
        return tuple(out)
    return tuple(PotView(_pot_label(k), p.amount, p.eligible) for k, p in enumerate(hand.pots))


def _description(hand: HandReading, cards: Iterable[Card]) -> str:
    allc = tuple(cards) + hand.board
    if len(allc) < 5:
        return ""
    return evaluate(allc).description


def public_view(hand: HandReading, names: Mapping[int, str] | None = None) -> TablePublicView:
    """:class:`TablePublicView` of ``hand`` (names default to the config's)."""
    cfg = hand.config
    nm = dict(cfg.names)
    if names:
        nm.update(names)
    stacks, bets = hand.stacks, hand.bets
    won: dict[int, int] = {}
    for _, _, w in hand.awards:
        for s, c in w:
            won[s] = won.get(s, 0) + c
    seats = []
    for s in sorted(hand.seats):
        status = hand.status(s)
        seats.append(SeatPublic(
            seat=s, name=nm.get(s, ""), stack=stacks[s], bet=bets[s], status=status,
            has_cards=hand.holds_cards(s) and status != "folded",
            shown_cards=hand.shown_cards(s), is_button=s == cfg.button,
            is_small_blind=s == hand.small_blind_seat, is_big_blind=s == hand.big_blind_seat))
    lines = []
    ranks = {s: evaluate(hand.shown_cards(s) + hand.board) for s in hand.showdown_order
             if hand.shown_cards(s) and len(hand.shown_cards(s) + hand.board) >= 5}
    for s in hand.showdown_order:
        shown = hand.shown_cards(s)
        if shown:
            words = (describe_against(ranks[s], [r for k, r in ranks.items() if k != s])
                     if s in ranks else _description(hand, shown))
            lines.append(ShowdownLine(s, shown, words, won.get(s, 0)))
    actor = hand.actor
    legal = _legal_view(hand)
    message = ""
    if hand.is_void:
        message = void_message(hand.void_reason)
    return TablePublicView(
        hand_number=cfg.hand_number, street=hand.street, seats=tuple(seats), board=hand.board,
        pots=_pot_views(hand), actor=actor, to_call=legal.call_amount if legal else 0,
        legal=legal, showdown=tuple(lines), small_blind=cfg.small_blind,
        big_blind=cfg.big_blind, ante=cfg.ante or cfg.big_blind_ante, message=message)


def seat_view(hand: HandReading, seat: int) -> SeatDisplayView:
    """:class:`SeatDisplayView` for ``seat``: its own hole cards, what it owes, its legal
    actions when it is to act, and its net result once the hand is complete."""
    cfg = hand.config
    stack, bet = hand.stack(seat), hand.bet(seat)
    is_turn = hand.actor == seat
    legal = _legal_view(hand) if is_turn else None
    owe = max(0, min(hand.current_bet - bet, stack))
    if hand.status(seat) == "folded" or hand.street in ("showdown", "complete"):
        owe = 0
    return SeatDisplayView(
        seat=seat, name=cfg.names.get(seat, ""), stack=stack, bet=bet,
        to_call=owe, hole_cards=hand.hole_cards(seat), is_turn=is_turn, legal=legal,
        is_button=seat == cfg.button, is_small_blind=seat == hand.small_blind_seat,
        is_big_blind=seat == hand.big_blind_seat, status=hand.status(seat),
        result=hand.results[seat] if hand.is_complete else None,
        message=void_note(hand.void_reason) if hand.is_void else "")
