"""Setting a PHH hand up for our hand engine: which seat each player sits in, the
``HandConfig`` arguments (blinds, live posts, antes, stacks) and concrete cards, and the
physical dealing order a shoe would see.

The decisions (seats, unknown stacks and cards, burns, big-blind ante, negative blinds) are
described in :mod:`engine.history.phh_replay`, which plays and judges the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.cards import ALL_CARDS, Card
from engine.history.phh import PhhError, PhhHand

#: Starting stack (in file units) used for a player whose stack is ``inf`` (unknown).
UNKNOWN_STACK = 1_000_000


class ReplaySetupError(PhhError):
    """The hand cannot be set up for our engine (e.g. straddles, uneven antes)."""


@dataclass(frozen=True)
class DealStep:
    """One card in physical dealing order.  ``kind``: ``hole``, ``burn`` or ``board``;
    ``player`` (PHH index) and ``seat`` for hole cards; ``known``: False for a filler
    standing in for an unknown (``??``) card or for an unrecorded burn."""

    kind: str
    card: Card
    seat: int | None = None
    player: int | None = None
    known: bool = True


@dataclass(frozen=True)
class ReplayPlan:
    """How a PHH hand maps onto our engine: seats, forced bets, concrete cards."""

    seats: tuple[int, ...]                  # our seat of p1..pN
    button: int
    config_kwargs: dict[str, Any]
    hole: dict[int, tuple[Card, Card]]      # player -> both hole cards (fillers included)
    hole_known: dict[int, bool]
    board: tuple[Card, ...]                 # in dealing order, fillers included
    board_known: tuple[bool, ...]
    fillers: tuple[Card, ...]               # unused cards left for burns
    notes: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()         # card contradictions found while planning
    bb_ante_player: int | None = None

    def player_of(self, seat: int) -> int:
        return self.seats.index(seat) + 1


def _clockwise(seats: tuple[int, ...]) -> bool:
    n = len(seats)
    if len(set(seats)) != n or not all(1 <= s <= 10 for s in seats):
        return False
    if n == 2:
        return True
    descents = sum(1 for i in range(n) if seats[i] > seats[(i + 1) % n])
    return descents == 1


def plan(h: PhhHand) -> ReplayPlan:
    """Map a PHH hand onto our engine: seats, ``HandConfig`` arguments and cards.

    Raises:
        ReplaySetupError: straddles, uneven antes or blinds our engine does not model.
        PhhError: a hole-card deal of other than two cards.
    """
    n = h.player_count
    notes: list[str] = []
    if h.seats is not None and _clockwise(h.seats):
        seats = tuple(h.seats)
    else:
        seats = tuple(range(1, n + 1))
        if h.seats is not None:
            notes.append(f"file seats {list(h.seats)} are not clockwise in p1..p{n} order; "
                         f"the action order is the truth, so p1..p{n} sit in seats 1..{n}")
    button = seats[1] if n == 2 else seats[n - 1]
    kw: dict[str, Any] = {"button": button, "min_bet": h.min_bet, "burn_cards": False}
    bb_ante_player = _forced_bets(h, seats, kw, notes)
    stacks: dict[int, int] = {}
    unknown = [p for p, s in enumerate(h.starting_stacks, 1) if s is None]
    for i, s in enumerate(h.starting_stacks):
        stacks[seats[i]] = UNKNOWN_STACK * h.chips_per_unit if s is None else s
    if unknown:
        notes.append(f"starting stacks unknown (inf) for {players_text(unknown)}: "
                     f"played as {UNKNOWN_STACK} each")
    kw["stacks"] = stacks
    if h.players is not None:
        kw["names"] = {seats[i]: name for i, name in enumerate(h.players)}
    cards = _cards_of(h)
    return ReplayPlan(seats, button, kw, cards.hole, cards.hole_known, cards.board,
                      cards.board_known, cards.fillers, tuple(notes), cards.conflicts,
                      bb_ante_player)


def _forced_bets(h: PhhHand, seats: tuple[int, ...], kw: dict[str, Any],
                 notes: list[str]) -> int | None:
    """Blinds, live posts and antes into ``kw``; returns the player posting a big-blind
    ante on top of everyone's ante (None if none)."""
    n = h.player_count
    heads_up = n == 2

    def posted(lst: tuple[int, ...], player: int) -> int:
        # Heads-up, PHH/PokerKit reverse the lists: p1 posts entry 2, p2 posts entry 1.
        return lst[(2 - player) if heads_up else player - 1]

    blinds = [posted(h.blinds_or_straddles, p) for p in range(1, n + 1)]
    if heads_up and len(h.blinds_or_straddles) == 2 and \
            h.blinds_or_straddles[0] > h.blinds_or_straddles[1] > 0:
        # Written in player order ([2, 1]: p1, the big blind, posts 2): PHH and PokerKit
        # read it so too; the larger blind is the big blind either way.
        blinds = list(h.blinds_or_straddles)
    antes = [posted(h.antes, p) for p in range(1, n + 1)]
    kw["posts"] = {seats[i]: -b for i, b in enumerate(blinds) if b < 0}
    by_player = {i + 1: b for i, b in enumerate(blinds) if b > 0}
    sb_player, bb_player = (2, 1) if heads_up else (1, 2)
    if set(by_player) - {sb_player, bb_player}:
        raise ReplaySetupError(f"straddles {blinds} are not modelled by our engine")
    if sb_player in by_player and bb_player in by_player:
        kw.update(small_blind=by_player[sb_player], big_blind=by_player[bb_player],
                  small_blind_seat=seats[sb_player - 1], big_blind_seat=seats[bb_player - 1])
    elif len(by_player) == 1:
        (p, amount), = by_player.items()
        kw.update(small_blind=0, big_blind=amount, big_blind_seat=seats[p - 1])
        notes.append(f"single blind: p{p} posts the big blind {h.to_units(amount)}, "
                     "no small blind")
    elif not by_player:
        kw.update(small_blind=0, big_blind=0)
    nonzero = {p: a for p, a in enumerate(antes, 1) if a}
    others = {a for p, a in enumerate(antes, 1) if p != bb_player}
    if nonzero and len(set(antes)) == 1:
        kw["ante"] = antes[0]
    elif (len(others) == 1 and bb_player in by_player
          and antes[bb_player - 1] > next(iter(others))):
        # Everyone's ante (maybe 0) plus a big-blind ante on top for the big blind.
        kw["ante"] = next(iter(others))
        kw["big_blind_ante"] = antes[bb_player - 1] - kw["ante"]
        return bb_player
    elif nonzero:
        raise ReplaySetupError(f"uneven antes {list(h.antes)} are not modelled by our engine")
    return None


@dataclass(frozen=True)
class _Cards:
    hole: dict[int, tuple[Card, Card]]
    hole_known: dict[int, bool]
    board: tuple[Card, ...]
    board_known: tuple[bool, ...]
    fillers: tuple[Card, ...]
    conflicts: tuple[str, ...]


def _cards_of(h: PhhHand) -> _Cards:
    """What the record knows of the cards (deals, then shows), with fillers, in card-id
    order, for the unknown ones; contradictions are listed, not raised."""
    conflicts: list[str] = []
    hole: dict[int, list[Card | None]] = {p: [None, None] for p in range(1, h.player_count + 1)}
    board: list[Card | None] = []
    for a in h.actions:
        if a.kind == "deal_hole":
            if len(a.cards) != 2:
                raise PhhError(f"d dh p{a.player}: {len(a.cards)} cards, Hold'em deals 2")
            for i, c in enumerate(a.cards):
                if c is not None:
                    hole[a.player or 0][i] = c
        elif a.kind == "deal_board":
            board.extend(a.cards)
    for a in h.actions:
        if a.kind == "show_or_muck" and a.cards and a.known_cards:
            p = a.player or 0
            dealt = hole[p]
            if len(a.cards) != 2:
                conflicts.append(f"p{p} shows {len(a.cards)} cards, Hold'em deals 2")
            elif all(c is None for c in dealt):
                hole[p] = list(a.cards)
            elif {c for c in dealt if c} - set(a.cards):
                conflicts.append(f"p{p} shows {cards_text(a.cards)} but was dealt {cards_text(dealt)}")
            else:
                hole[p] = list(a.cards)
    used = [c for cs in hole.values() for c in cs if c] + [c for c in board if c]
    dup = [str(c) for c, k in Counter(used).items() if k > 1]
    if dup:
        conflicts.append(f"card(s) {', '.join(dup)} appear twice in the hand")
    spare = iter(c for c in ALL_CARDS if c not in set(used))
    hole_full = {p: (_or(cs[0], spare), _or(cs[1], spare)) for p, cs in hole.items()}
    return _Cards(hole_full, {p: all(c is not None for c in cs) for p, cs in hole.items()},
                  tuple(_or(c, spare) for c in board), tuple(c is not None for c in board),
                  tuple(spare), tuple(conflicts))


def _or(card: Card | None, spare: Iterator[Card]) -> Card:
    return card if card is not None else next(spare)


def players_text(players: list[int]) -> str:
    """``"p1, p3"``."""
    return ", ".join(f"p{p}" for p in players)


def cards_text(cs: Any) -> str:
    """Cards as PHH writes them, ``??`` for an unknown one."""
    return "".join("??" if c is None else str(c) for c in cs)


def deal_sequence(h: PhhHand, *, burns: bool = True) -> list[DealStep]:
    """The physical dealing order of the hand with concrete cards: hole cards one at a
    time clockwise from the first seat left of the button, two rounds (heads-up the big
    blind first), then for each board street a burn (if ``burns``; a filler card, since
    PHH records none) and its board cards.  Unknown cards are fillers (``known=False``),
    the same ones :func:`replay_hand` uses, so a shoe replay reaches the same stacks.

    Raises:
        ReplaySetupError, PhhError: as :func:`plan`; PhhError also when the record
            contradicts itself (a card dealt twice, a show that differs from the deal).
    """
    pl = plan(h)
    if pl.conflicts:
        where = f"hand {h.label}" if h.label is not None else "hand"
        raise PhhError(f"{where}: {'; '.join(pl.conflicts)}")
    n = h.player_count
    order = [1, 2] if n == 2 else list(range(1, n + 1))
    steps = [DealStep("hole", pl.hole[p][r], pl.seats[p - 1], p, pl.hole_known[p])
             for r in (0, 1) for p in order]
    fillers = iter(pl.fillers)
    for start, stop in ((0, 3), (3, 4), (4, 5)):
        if len(pl.board) < stop:
            break
        if burns:
            steps.append(DealStep("burn", next(fillers), known=False))
        steps += [DealStep("board", pl.board[i], known=pl.board_known[i])
                  for i in range(start, stop)]
    return steps
