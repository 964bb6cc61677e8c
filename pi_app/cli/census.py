"""``pokertable census --cards 5|7``: count hand categories over every hand of that size.

Prints one JSON object: ``cards``, ``hands``, ``categories`` (category -> hands, strongest
first) and ``distinct_values`` (how many different phevaluator values occurred).  The
5-card census takes well under a second; the 7-card one (133,784,560 hands) takes
about 20 s on one core (bench/census7.py spreads it over processes).
"""

from __future__ import annotations

import argparse
import json

from engine.census import census


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "census",
        help="count hand categories over all 5-card or 7-card hands",
        description="Evaluate every hand of the given size and print the category counts as JSON.",
    )
    p.add_argument("--cards", type=int, choices=(5, 6, 7), default=5,
                   help="cards per hand (default 5)")
    p.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    result = census(args.cards)
    print(json.dumps(result.to_dict()))
    return 0
