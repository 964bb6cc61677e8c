"""``pokertable shoe``: card-shoe tools.

``pokertable shoe soak --cards N --corrupt P --drop P --seed S [--json]`` runs the real host
client against the simulated shoe over a pty with faults injected, and prints
``{"sent", "delivered", "lost", "duplicates", "corrupt_rejected", "replays", ...}``.
Exit status 0 when nothing was lost or duplicated, 1 otherwise, 2 (one line) for
``--cards`` outside 0..10,000,000 or a probability outside [0, 1).
"""

from __future__ import annotations

import argparse
import json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("shoe", help="card-shoe tools (soak test of the link)")
    sub = parser.add_subparsers(dest="shoe_command", metavar="SHOE_COMMAND", required=True)
    soak = sub.add_parser("soak", help="run the host client against the simulated shoe")
    soak.add_argument("--cards", type=int, default=10000, help="cards to draw (default 10000)")
    soak.add_argument("--corrupt", type=float, default=0.01,
                      help="probability a frame is corrupted (default 0.01)")
    soak.add_argument("--drop", type=float, default=0.01,
                      help="probability a frame is dropped (default 0.01)")
    soak.add_argument("--duplicate", type=float, default=0.0,
                      help="probability a frame is sent twice (default 0)")
    soak.add_argument("--seed", type=int, default=1, help="seed of the fault injector")
    soak.add_argument("--json", action="store_true", help="print the report as JSON")
    soak.set_defaults(func=_soak)


MAX_SOAK_CARDS = 10_000_000  # about a day of soak; more is a typo


def check_soak_args(args: argparse.Namespace) -> None:
    """Reject impossible soak arguments before anything starts.

    Raises:
        InvalidInputError: ``--cards`` outside 0..10,000,000, or a probability
            (``--corrupt``, ``--drop``, ``--duplicate``) outside [0, 1) or not a number.
    """
    from engine.errors import InvalidInputError

    if not 0 <= args.cards <= MAX_SOAK_CARDS:
        raise InvalidInputError(f"--cards must be 0..{MAX_SOAK_CARDS:,}, got {args.cards:,}")
    for name in ("corrupt", "drop", "duplicate"):
        p = getattr(args, name)
        if not 0.0 <= p < 1.0:  # also false for nan
            raise InvalidInputError(f"--{name} must be a probability in [0, 1), got {p}")


def _soak(args: argparse.Namespace) -> int:
    from hardware.shoe.soak import run_soak

    check_soak_args(args)

    report = run_soak(args.cards, corrupt=args.corrupt, drop=args.drop, seed=args.seed,
                      duplicate=args.duplicate)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>17}: {value}")
    return 0 if report["lost"] == 0 and report["duplicates"] == 0 and not report["misordered"] else 1
