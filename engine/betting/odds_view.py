"""The TV's live all-in odds: each live hand's chance to win and to tie, per pot, shown only
once no player can act again in the hand.

:func:`odds_view` gives an :class:`engine.views.OddsView` of a hand in progress, or None.
It is not None only when **all betting is closed for the rest of the hand**:

* the hand is neither complete, void nor at its showdown (the showdown shows the result),
  and no street is half dealt (the board has 0, 3 or 4 cards);
* no seat is to act (:attr:`Hand.actor` is None: the betting round is over);
* two or more hands are live (not folded) and at least one of them is all in;
* at most one live hand still has chips behind, so nobody can bet on a later street;
* every live hand holds its two hole cards.

At that moment the hands are tabled face up (Poker TDA Rule 16, "Face Up for All-Ins":
once a player is all in and all betting action by all other players in the hand is
complete, all hands are tabled), so the hole cards and the odds shown are public.  While
any player can still act, this returns None: odds shown mid-action would tell the table
what it must not know.

The odds are :func:`engine.betting.equity.all_in_odds` with the board dealt so far (exact
from the flop on; preflop its seeded Monte Carlo, within 0.5 percentage points), each pot
with the hands eligible for it.  The same spot always gives the same figures, and a spot is
worked out once (a small cache keyed by the cards and pots), so redrawing the TV is free.

Who works the figures out is the caller's choice: an :data:`OddsProvider` (default
:func:`spot_odds`, synchronous).  A provider may answer None for a spot it has not worked
out yet (the live service's worker thread, for a multiway preflop spot that takes
seconds): the view is then ``pending``, the hands face up and no figure, exactly what the
finished view shows of the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

from engine.betting.equity import PREFLOP_SAMPLES, AllInOdds, all_in_odds
from engine.betting.hand_reading import HandReading
from engine.cards import Card
from engine.views import OddsHand, OddsPot, OddsView

SHOWDOWN = "showdown"
#: The street the odds are for, by board cards dealt (the hand's own street moves on to the
#: next one as soon as betting closes, before its cards are dealt).
STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}

Holes = tuple[tuple[Card, ...], ...]
Pots = tuple[tuple[int, ...], ...]
#: ``provider(holes, board, pots, samples)`` -> the spot's odds, or None while they are
#: being worked out (the view is then pending).  ``holes``: the live hands in seat order;
#: ``pots``: per pot, the indices into ``holes`` eligible for it; ``samples``: boards drawn
#: preflop (:func:`spot_odds` is the synchronous one).
OddsProvider = Callable[[Holes, tuple[Card, ...], Pots, int], AllInOdds | None]


def betting_closed_all_in(hand: HandReading) -> bool:
    """Whether no player can act again in ``hand`` and two or more live hands face an
    all-in (the conditions in the module docstring)."""
    if hand.is_complete or hand.is_void or hand.street == SHOWDOWN or hand.actor is not None \
            or len(hand.board) not in STREETS or len(hand.board) == 5:
        return False  # also while a street's cards are coming (a board of 1 or 2 cards)
    live = [s for s in hand.seats if hand.status(s) != "folded"]
    if len(live) < 2:
        return False
    all_in = [s for s in live if hand.status(s) == "all_in"]
    return bool(all_in) and len(live) - len(all_in) <= 1 \
        and all(len(hand.hole_cards(s)) == 2 for s in live)


def odds_view(hand: HandReading, names: Mapping[int, str] | None = None, *,
              samples: int = PREFLOP_SAMPLES,
              provider: OddsProvider | None = None) -> OddsView | None:
    """The all-in odds of ``hand`` now, or None while any player can still act (module
    docstring).  Hands in seat order; ``street`` names the board dealt so far.  ``names``:
    seat -> player's name (default the hand's own names); ``samples``: boards drawn
    preflop (:data:`engine.betting.equity.PREFLOP_SAMPLES`, which the 0.5-point bound rests
    on; fewer only for tests); ``provider``: who works the odds out (default
    :func:`spot_odds`); when it answers None the view is ``pending`` (hands, no figures)."""
    if not betting_closed_all_in(hand):
        return None
    nm = dict(hand.config.names)
    nm.update(names or {})
    live = tuple(sorted(s for s in hand.seats if hand.status(s) != "folded"))
    holes = tuple(tuple(hand.hole_cards(s)) for s in live)
    index = {s: i for i, s in enumerate(live)}
    pots = tuple(tuple(index[s] for s in p.eligible if s in index) for p in hand.pots
                 if any(s in index for s in p.eligible))
    street = STREETS.get(len(hand.board), hand.street)
    odds = (provider or spot_odds)(holes, tuple(hand.board),
                                   pots or (tuple(range(len(live))),), samples)
    if odds is None:
        zero = Fraction(0)
        return OddsView(street=street, exact=False, pots=(), pending=True, hands=tuple(
            OddsHand(seat=s, name=nm.get(s, ""), cards=holes[i], win=zero, tie=zero)
            for i, s in enumerate(live)))
    amounts = [p.amount for p in hand.pots if any(s in index for s in p.eligible)]
    main = {h: j for j, h in enumerate(odds.main.eligible)}
    zero = Fraction(0)
    hands = tuple(OddsHand(seat=s, name=nm.get(s, ""), cards=holes[i],
                           win=odds.main.win[main[i]] if i in main else zero,
                           tie=odds.main.tie[main[i]] if i in main else zero)
                  for i, s in enumerate(live))
    pot_views = tuple(
        OddsPot(label="Main pot" if k == 0 else f"Side pot {k}",
                amount=amounts[k] if k < len(amounts) else 0,
                seats=tuple(live[i] for i in p.eligible), win=p.win, tie=p.tie)
        for k, p in enumerate(odds.pots))
    return OddsView(street=street, hands=hands, pots=pot_views, exact=odds.exact)


@lru_cache(maxsize=32)
def spot_odds(holes: Holes, board: tuple[Card, ...], pots: Pots, samples: int) -> AllInOdds:
    """:func:`all_in_odds` of one spot, worked out once (seed 0: repeatable); the default
    :data:`OddsProvider`.  Preflop with three hands or more it takes seconds (a seeded
    Monte Carlo of ``samples`` boards); heads-up preflop and from the flop on, milliseconds."""
    return all_in_odds(holes, board, pots=pots, samples=samples)


def no_odds(holes: Holes, board: tuple[Card, ...], pots: Pots, samples: int) -> None:
    """The :data:`OddsProvider` of a view that does not show the odds (the console's
    public page, a venue's table list): nothing is worked out, the view is pending."""
    return None
