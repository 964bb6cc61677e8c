"""``pokertable replay SCRIPT``: run a dealing scenario.

A ``.deal`` file (the table's words, engine/dealing/deal_script.py, docs/scenarios.md) prints
one line per ruling, held action, floor decision and hand result, in the words of the
ruling, then ``final: ...``.  Exit status: 0 every expectation holds; 1 one failed (each
failure on stderr names its line); 2 a malformed file (a header missing or wrong, a line
that does not parse); 3 a line the table refuses (naming the line and the reason).

A JSON Lines script (engine.dealing.scenario):

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

from engine.dealing.deal_run import run_deal
from engine.dealing.deal_script import DealRefusedError, parse_deal
from engine.dealing.scenario import ScenarioError, check_expect, read_script, stream_scenario


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="run a dealing scenario (.deal words or JSON Lines) and print the rulings",
        description="Run a dealing scenario through the dealing procedure; print one JSON "
                    "line per ruling and state change, then the final stacks.  Exit 1 when "
                    "an expectation in the script fails, 2 when the script is malformed, 3 (.deal) "
                    "when the table refuses a line.",
    )
    p.add_argument("script", help="scenario file: .deal (docs/scenarios.md) or .jsonl")
    p.set_defaults(func=handle)


def _emit(line: dict) -> None:
    print(json.dumps(line, sort_keys=False), flush=True)


def _say(text: str) -> None:
    print(text, flush=True)


def handle_deal(path: str) -> int:
    """Run a ``.deal`` file; the exit status of the module docstring."""
    try:
        result = run_deal(parse_deal(read_script(path)), _say)
    except DealRefusedError as exc:
        print(f"pokertable: replay: {exc}", file=sys.stderr)
        return 3
    except ScenarioError as exc:
        print(f"pokertable: replay: {exc}", file=sys.stderr)
        return 2
    for f in result.failures:
        print(f"pokertable: replay: expectation failed: {f}", file=sys.stderr)
    return 1 if result.failures else 0


def handle(args: argparse.Namespace) -> int:
    if str(args.script).endswith(".deal"):
        return handle_deal(args.script)
    sc, result = stream_scenario(read_script(args.script), _emit)
    failures = list(result.failures)
    if "expect" in sc.header:
        failures += [f"header expect: {d}" for d in check_expect(result, sc.header["expect"])]
    if failures:
        print(f"pokertable: replay: expectation failed: {'; '.join(failures)}", file=sys.stderr)
        return 1
    return 0
