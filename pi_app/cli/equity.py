"""``pokertable equity HAND HAND... [--board CARDS] [--dead CARDS] [--json]``: all-in odds.

Each hand's chance to win and to tie when the rest of the board is dealt
(:func:`engine.betting.equity.all_in_odds`): exact from the flop on, and heads-up preflop
with no dead card (a precomputed table of every matchup); other preflop spots are a seeded
Monte Carlo of 120,000 boards (within 0.5 percentage points; ``--exact`` enumerates every
board).

``--json`` prints one line ``{"hands": ["AhKh", "QsQd"], "win": [...], "tie": [...]}``: win
and tie are fractions from 0 to 1 (not percentages, not rounded), one per hand in the order
given.  Without it, one line per hand in percent and a line saying how the odds were found.
A bad card, a card given twice, fewer than two hands or a board of 1, 2 or more than 5 cards
is one error line and exit status 2.
"""

from __future__ import annotations

import argparse
import json

from engine.betting.equity import PREFLOP_SAMPLES, all_in_odds
from engine.cards import format_cards, parse_cards


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "equity",
        help="each all-in hand's chance to win and to tie",
        description="Each hand's chance to win and to tie when the rest of the board is "
                    "dealt: exact from the flop on and heads-up preflop, a seeded Monte "
                    "Carlo for other preflop spots.",
    )
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="two hole cards, e.g. AhKh (two hands or more)")
    p.add_argument("--board", default="", metavar="CARDS",
                   help="the board so far: 0, 3, 4 or 5 cards, e.g. 2c7d9h")
    p.add_argument("--dead", default="", metavar="CARDS",
                   help="cards known out of the deck (burned or mucked face up)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.add_argument("--samples", type=int, default=PREFLOP_SAMPLES,
                   help=f"boards drawn preflop, three hands or more or dead cards "
                        f"(default {PREFLOP_SAMPLES:,})")
    p.add_argument("--seed", type=int, default=0, help="seed of the preflop draw (default 0)")
    p.add_argument("--exact", action="store_true",
                   help="enumerate every preflop board too (seconds)")
    p.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    hands = [parse_cards(text) for text in args.hands]
    odds = all_in_odds(hands, parse_cards(args.board), parse_cards(args.dead),
                       samples=args.samples, seed=args.seed, exact=args.exact)
    names = [format_cards(h) for h in hands]
    main = odds.main
    if args.json:
        print(json.dumps({"hands": names, "win": [float(w) for w in main.win],
                          "tie": [float(t) for t in main.tie]}))
        return 0
    for name, win, tie in zip(names, main.win, main.tie, strict=True):
        print(f"{name}  win {float(win) * 100:6.2f}%  tie {float(tie) * 100:6.2f}%")
    how = (f"exact over {odds.runouts:,} runouts" if odds.exact
           else f"Monte Carlo over {odds.runouts:,} boards, seed {args.seed}")
    print(f"({how})")
    return 0
