"""``pokertable venue check FILE``: validate a venue file without starting anything.

Exit 0 and a one-line summary when valid; exit 2 and one line naming the file and the key
when not (:mod:`pi_app.venue.config`).  The password files are not read: they live on the
machines that use them.
"""

from __future__ import annotations

import argparse

from pi_app.venue.config import load_venue


def _check(args: argparse.Namespace) -> int:
    cfg = load_venue(args.file)
    tables = ", ".join(f"{t.number} ({t.seats} seats)" for t in cfg.tables)
    print(f"{args.file}: valid: venue {cfg.name!r}, tables {tables}, broker "
          f"{cfg.broker_host}:{cfg.broker_port}{' with TLS' if cfg.tls else ''}, "
          f"structure {cfg.structure}, break order {list(cfg.break_order)}, "
          f"max difference {cfg.max_difference}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("venue", help="a venue of several tables (venue.toml)")
    sub = p.add_subparsers(dest="venue_command", metavar="ACTION", required=True)
    c = sub.add_parser("check", help="validate FILE without starting anything")
    c.add_argument("file", metavar="FILE")
    c.set_defaults(func=_check)
