"""``pokertable replay SCRIPT.jsonl``: run a dealing scenario script (engine.scenario).

Prints one JSON line per ruling and per state change that matters (ruling decided, hand
voided, hand redealt, pot awarded, hand complete, expected-next changed), each with the
script ``line`` that caused it, then a last line ``{"event": "final", "stacks": ...}``.
Exit 0; exit 2 with one line naming the script line when the script is malformed or an
event in it is rejected.  Output is public: it never shows an unrevealed hole card.
"""

from __future__ import annotations

import argparse
import json

from engine.scenario import load_scenario, run_scenario


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="run a dealing scenario script (JSON Lines) and print the rulings",
        description="Run a dealing scenario through the dealing procedure; print one JSON "
                    "line per ruling and state change, then the final stacks.",
    )
    p.add_argument("script", help="scenario file (.jsonl): header line, then one event per line")
    p.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    result = run_scenario(load_scenario(args.script))
    for line in result.lines:
        print(json.dumps(line, sort_keys=False))
    return 0
