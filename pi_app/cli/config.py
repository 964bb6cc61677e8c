"""``pokertable config check FILE`` / ``pokertable config default``.

``check`` validates a table configuration without starting anything: exit 0 and a one-line
summary when valid; exit 2 and one line naming the file and the key when not.
``default`` prints the embedded default configuration (a simulated table, mock hardware).
``network`` prints the systemd drop-in that opens what FILE's console and shoe need, and
nothing else (:mod:`pi_app.service.unit_network`; ``systemd/install.sh`` writes it).
"""

from __future__ import annotations

import argparse
import sys

from pi_app.service.config import default_config_text, load_config


def _check(args: argparse.Namespace) -> int:
    cfg = load_config(args.file)
    real = [d for d, b in cfg.backends.items() if b == "real"]
    v = cfg.venue
    structure = cfg.structure if v is None else v.structure
    venue = "" if v is None else (f", venue table {v.table} of {v.file} (broker "
                                  f"{v.broker_url}, user {v.username})")
    print(f"{args.file}: valid: table {cfg.name!r}, seats {', '.join(map(str, cfg.seats))}, "
          f"structure {structure}, profile {cfg.house_profile}{venue}, "
          f"real devices: {', '.join(real) or 'none'}, state {cfg.state_dir}")
    return 0


def _default(args: argparse.Namespace) -> int:
    sys.stdout.write(default_config_text())
    return 0


def _network(args: argparse.Namespace) -> int:
    from pi_app.service.unit_network import (
        DEFAULT_CONSOLE_LISTEN,
        allow_list,
        drop_in,
        local_interfaces,
    )

    cfg = load_config(args.file)
    console = cfg.raw.get("console")   # no [console] section: no console is served
    listen = console.get("listen", DEFAULT_CONSOLE_LISTEN) if isinstance(console, dict) \
        else None
    if listen is not None and not isinstance(listen, str):
        from pi_app.service.config import ConfigError
        raise ConfigError(f"{args.file}: console.listen must be \"HOST:PORT\"")
    sys.stdout.write(drop_in(args.file, allow_list(listen, cfg.shoe_port, local_interfaces())))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("config", help="check a table configuration file")
    sub = p.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    c = sub.add_parser("check", help="validate FILE without starting anything")
    c.add_argument("file", metavar="FILE")
    c.set_defaults(func=_check)
    d = sub.add_parser("default", help="print the embedded default configuration")
    d.set_defaults(func=_default)
    n = sub.add_parser("network", help="print the systemd drop-in with the IP traffic FILE "
                                       "needs (its console and shoe)")
    n.add_argument("file", metavar="FILE")
    n.set_defaults(func=_network)
