"""Write a hand played by our engine (:class:`engine.betting.hand.Hand`) as a PHH hand history.

The PHH player order is the engine's: p1..pN clockwise from the first seat left of the
button, so p1 is the small blind, p2 the big blind and pN the button with 3+ players;
heads-up p1 is the big blind and p2 the button (PHH/PokerKit convention, which also
reverses the ``antes`` and ``blinds_or_straddles`` lists heads-up).

Mapping (PHH standard, uoftcprg/phh-std):

* ``antes``: the configured ante for every player, the big-blind ante in the big blind's
  entry; ``ante_trimming_status = false`` (antes are not trimmed: a big-blind ante is dead
  money in the main pot, as our engine plays it).
* ``blinds_or_straddles``: the configured blinds at the blind positions; a live post is
  a negative entry (PokerKit's convention for posts).
* ``actions``: ``d dh`` per player (both cards), ``d db`` per street, ``f``/``cc``/``cbr``,
  ``sm`` with the cards for a show, bare ``sm`` for a muck.  Burns are not recorded.
* ``winnings``: chips awarded from the pots; ``finishing_stacks`` once complete.
* Bonus chips have no PHH field: they are written as the user field ``_bonus``.

Write the text with :func:`engine.history.phh_write.dumps_hand` (``public=True`` hides every hole card
that was not shown).

Raises:
    PhhError: a voided hand (PHH has no way to say every chip went back).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.history.phh import PhhAction, PhhError, PhhHand, format_action
from engine.history.phh_write import dumps_hand, dumps_private

_BETTING = ("fold", "check_or_call", "bet_or_raise_to")

#: one PHH action as the fields of :class:`PhhAction` in order: (kind, player, cards,
#: amount, show)
Action = tuple[str, int | None, tuple[Card, ...], int | None, bool | None]


def _runout_shows_first(actions: list[Action]) -> list[Action]:
    """An all-in runout as PHH records it: when the board is completed with no betting
    left (everyone but one is all-in), the hands are shown before the remaining board
    cards are dealt, not after (PokerKit refuses the other order)."""
    last_bet = max((i for i, a in enumerate(actions) if a[0] in _BETTING), default=-1)
    tail = actions[last_bet + 1:]
    deals = [a for a in tail if a[0] == "deal_board"]
    shows = [a for a in tail if a[0] == "show_or_muck"]
    if not deals or not shows or any(a[0] not in ("deal_board", "show_or_muck") for a in tail):
        return actions
    return actions[:last_bet + 1] + shows + deals


@dataclass(frozen=True)
class HandParts:
    """What the PHH history of an engine hand says, taken from the hand once (every part
    immutable but ``fields``, made for it): the history's text is made from it, private
    at once and public when asked for, whatever the hand becomes after.

    ``head``: the :class:`PhhHand` with no action; ``actions``: its actions, each the
    fields of a :class:`PhhAction` (:data:`Action`).
    """

    head: PhhHand
    actions: tuple[Action, ...]

    def phh(self, label: str | None = None) -> PhhHand:
        """The whole :class:`PhhHand` (``label``: its table name in a ``.phhs``)."""
        return replace(self.head, actions=tuple(PhhAction(*a) for a in self.actions),
                       label=label)

    def private_text(self) -> str:
        """``dumps_hand(self.phh(), public=False)``: each action formatted once, with no
        action object."""
        return dumps_private(self.head, [format_action(*a) for a in self.actions])

    def public_text(self) -> str:
        """``dumps_hand(self.phh(), public=True)``: hole cards not shown are ``??``."""
        return dumps_hand(self.phh(), public=True)


def hand_to_phh(hand: Any, *, extra: Mapping[str, Any] | None = None,
                label: str | None = None) -> PhhHand:
    """A :class:`PhhHand` (chips, ``chips_per_unit = 1``) for an engine hand.

    ``extra``: further PHH fields (``event``, ``hand``, ``day``, ...), written verbatim.

    Raises:
        PhhError: the hand was voided.
    """
    return hand_parts(hand, extra=extra).phh(label)


def hand_parts(hand: Any, *, extra: Mapping[str, Any] | None = None) -> HandParts:
    """The :class:`HandParts` of an engine hand, as :func:`hand_to_phh` (same arguments).

    Raises:
        PhhError: the hand was voided.
    """
    cfg = hand.config
    if getattr(hand, "is_void", False):
        raise PhhError("a voided hand has no PHH form (every chip went back)")
    order = tuple(hand.seats)
    player = {s: i + 1 for i, s in enumerate(order)}
    antes, blinds = _forced_bets(hand, player)
    writer = _ActionWriter(len(order))
    for raw in hand.raw_operations():
        writer.add(raw, player)
    actions = _runout_shows_first(writer.finish())
    names = dict(getattr(cfg, "names", {}) or {})
    fields: dict[str, Any] = dict(extra or {})
    if cfg.bonus:
        fields["_bonus"] = cfg.bonus
    starting = hand.starting_stacks
    head = PhhHand(
        variant="NT",
        antes=tuple(antes),
        blinds_or_straddles=tuple(blinds),
        min_bet=cfg.effective_min_bet,
        starting_stacks=tuple(starting[s] for s in order),
        actions=(),
        ante_trimming_status=False,
        players=tuple(names.get(s, f"Seat {s}") for s in order),
        seats=order,
        winnings=tuple(writer.won) if hand.is_complete else None,
        finishing_stacks=tuple(hand.stacks[s] for s in order) if hand.is_complete else None,
        chips_per_unit=1,
        extra=fields,
    )
    return HandParts(head, tuple(actions))


def _forced_bets(hand: Any, player: dict[int, int]) -> tuple[list[int], list[int]]:
    """``(antes, blinds_or_straddles)`` in PHH order (heads-up lists are reversed); a live
    post is a negative blind entry, the big-blind ante sits in the big blind's ante."""
    cfg = hand.config
    n = len(player)

    def index(p: int) -> int:
        return (2 - p) if n == 2 else p - 1

    antes = [cfg.ante] * n if cfg.ante else [0] * n
    blinds = [0] * n
    sb, bb = hand.small_blind_seat, hand.big_blind_seat
    if sb is not None and sb in player:
        blinds[index(player[sb])] = cfg.small_blind
    if bb is not None and bb in player:
        blinds[index(player[bb])] = cfg.big_blind
        if cfg.big_blind_ante:
            antes[index(player[bb])] += cfg.big_blind_ante
    for seat, amount in cfg.posts.items():
        blinds[index(player[seat])] -= amount
    return antes, blinds


_SILENT = frozenset(("post_ante", "post_blind", "add_bonus", "burn", "return_uncalled"))


class _ActionWriter:
    """The engine's operations as PHH actions: hole cards gathered per player (``d dh``
    with both cards), board cards one action per street, chips won per player."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.actions: list[Action] = []
        self.hole: dict[int, list[Card]] = {}
        self.board: list[Card] = []
        self.dealt_board = 0
        self.won = [0] * n

    def add(self, raw: tuple[Any, ...], player: dict[int, int]) -> None:
        """Take one operation as the hand keeps it (its record's class, then the record's
        fields in order: :mod:`engine.betting.operations`), no record made."""
        kind = raw[0].OP
        if kind == "deal_hole":  # DealHole(seat, card)
            self.hole.setdefault(player[raw[1]], []).append(raw[2])
            return
        if kind in _SILENT:
            return
        if self.hole:
            self._flush_hole()
        if kind == "deal_board":  # DealBoard(card)
            self.board.append(raw[1])
            self.dealt_board += 1
            if self.dealt_board in (3, 4, 5):  # one action per street (PHH, PokerKit)
                self._flush_board()
            return
        if self.board:
            self._flush_board()
        if kind == "award_pot":  # AwardPot(pot, seat, amount)
            self.won[player[raw[2]] - 1] += raw[3]
            return
        p = player[raw[1]]  # every other kind: its seat first
        if kind == "check_or_call":
            self.actions.append(("check_or_call", p, (), None, None))
        elif kind in ("fold", "dead_hand"):  # a dead hand (TDA 37) is written as its fold
            self.actions.append(("fold", p, (), None, None))
        elif kind == "bet_or_raise_to":  # BetOrRaiseTo(seat, amount, ...)
            self.actions.append(("bet_or_raise_to", p, (), raw[2], None))
        elif kind == "show":  # ShowHand(seat, cards, ...)
            self.actions.append(("show_or_muck", p, tuple(raw[2]), None, True))
        elif kind == "muck":
            self.actions.append(("show_or_muck", p, (), None, False))

    def finish(self) -> list[Action]:
        self._flush_hole()
        self._flush_board()
        return self.actions

    def _flush_hole(self) -> None:
        if self.hole:
            for p in range(1, self.n + 1):
                self.actions.append(("deal_hole", p, tuple(self.hole.get(p, ())), None, None))
            self.hole.clear()

    def _flush_board(self) -> None:
        if self.board:
            self.actions.append(("deal_board", None, tuple(self.board), None, None))
            self.board.clear()
