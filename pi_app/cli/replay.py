"""``pokertable replay SCRIPT.jsonl``: run a dealing scenario script (engine.dealing.scenario).

Prints one JSON line per ruling and per state change that matters (ruling decided, hand
voided, hand redealt, pot awarded, hand complete, expected-next changed), each with the
script ``line`` that caused it, then a last line ``{"event": "final", "stacks": ...}``.
Lines are printed as the script runs, so when a later line is malformed the lines before
it are still printed, then the one error line.

Exit status: 0 when the script ran and every expectation held (the header's ``expect``
and any event line's ``expect``, see :func:`engine.dealing.scenario.check_expect`); 1 when an
expectation failed (one line on stderr says what differed); 2 with one line naming the
script line when the script is malformed or an event in it is rejected.  Output is
public: it never shows an unrevealed hole card.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.dealing.scenario import check_expect, read_script, stream_scenario


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="run a dealing scenario script (JSON Lines) and print the rulings",
        description="Run a dealing scenario through the dealing procedure; print one JSON "
                    "line per ruling and state change, then the final stacks.  Exit 1 when "
                    "an expectation in the script fails, 2 when the script is malformed.",
    )
    p.add_argument("script", help="scenario file (.jsonl): header line, then one event per line")
    p.set_defaults(func=handle)


def _emit(line: dict) -> None:
    print(json.dumps(line, sort_keys=False), flush=True)


def handle(args: argparse.Namespace) -> int:
    sc, result = stream_scenario(read_script(args.script), _emit)
    failures = list(result.failures)
    if "expect" in sc.header:
        failures += [f"header expect: {d}" for d in check_expect(result, sc.header["expect"])]
    if failures:
        print(f"pokertable: replay: expectation failed: {'; '.join(failures)}", file=sys.stderr)
        return 1
    return 0
