"""``pokertable``: the command-line entry point.

Subcommands live in :mod:`pi_app.commands`, one module per area, each exporting
``register(subparsers)``.  Any :class:`engine.errors.PokerTableError` (a user's mistake:
bad file, bad card, illegal action) is printed as one line on stderr with exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import PokerTableError

COMMAND_MODULES = (
    "run",        # pokertable run           (service)
    "sim",        # pokertable sim           (whole simulated table)
    "state",      # pokertable state         (recovered state from a journal)
    "config",     # pokertable config check
    "census",     # pokertable census        (hand-category census)
    "phh",        # pokertable phh replay
    "structure",  # pokertable structure show/check
    "replay",     # pokertable replay        (dealing scenario scripts)
    "shoe",       # pokertable shoe soak
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokertable",
        description="Controller for a physical No-Limit Hold'em tournament table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(f"pi_app.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"pi_app.commands.{name}":
                continue  # not built yet
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except PokerTableError as exc:
        print(f"pokertable: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
