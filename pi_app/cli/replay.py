"""``pokertable replay SCRIPT``: run a dealing scenario.

A ``.deal`` file (the table's words, engine/dealing/deal_script.py, docs/scenarios.md) prints
one line per ruling, held action, floor decision and hand result, in the words of the
ruling, then ``final: ...``.  Exit status: 0 every expectation holds; 1 one failed (each
failure on stderr names its line); 2 a malformed file (a header missing or wrong, a line
that does not parse); 3 a line the table refuses (naming the line and the reason).  An
error is one line, ``pokertable: error: FILE: line N: ...``, N the line that holds the bad
value (a header value: its own line); a failed expectation is a result, not an error:
``pokertable: replay: expectation failed: ...``.

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
from pi_app.cli.main import error_line


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


def _error(path: str, exc: Exception) -> None:
    """The one error line: ``pokertable: error: FILE: line N: ...``."""
    print(error_line(f"{path}: {exc}"), file=sys.stderr)


def handle_deal(path: str) -> int:
    """Run a ``.deal`` file; the exit status of the module docstring."""
    lines = read_script(path)  # an unreadable file: its own error line, naming it
    try:
        result = run_deal(parse_deal(lines), _say)
    except DealRefusedError as exc:
        _error(path, exc)
        return 3
    except ScenarioError as exc:
        _error(path, exc)
        return 2
    for f in result.failures:
        print(f"pokertable: replay: expectation failed: {f}", file=sys.stderr)
    return 1 if result.failures else 0


def handle(args: argparse.Namespace) -> int:
    if str(args.script).endswith(".deal"):
        return handle_deal(args.script)
    lines = read_script(args.script)
    try:
        sc, result = stream_scenario(lines, _emit)
    except ScenarioError as exc:
        _error(args.script, exc)
        return 2
    failures = list(result.failures)
    if "expect" in sc.header:
        failures += [f"header expect: {d}" for d in check_expect(result, sc.header["expect"])]
    if failures:
        print(f"pokertable: replay: expectation failed: {'; '.join(failures)}", file=sys.stderr)
        return 1
    return 0
