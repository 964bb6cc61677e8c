"""``pokertable shoe``: card-shoe tools.

``pokertable shoe soak --cards N --corrupt P --drop P --seed S [--json]`` runs the real host
client against the simulated shoe over a pty with faults injected, and prints
``{"sent", "delivered", "lost", "duplicates", "corrupt_rejected", "replays", ...}``.
Exit status 0 when nothing was lost or duplicated, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("shoe", help="card-shoe tools (soak test of the link)")
    sub = parser.add_subparsers(dest="shoe_command", metavar="SHOE_COMMAND")
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
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _soak(args: argparse.Namespace) -> int:
    from hardware.shoe.soak import run_soak

    report = run_soak(args.cards, corrupt=args.corrupt, drop=args.drop, seed=args.seed,
                      duplicate=args.duplicate)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>17}: {value}")
    return 0 if report["lost"] == 0 and report["duplicates"] == 0 and not report["misordered"] else 1
