"""``pokertable venue check FILE`` and ``pokertable venue broker-files FILE DIR``.

``check`` validates a venue file without starting anything: exit 0 and a one-line summary
when valid; exit 2 and one line naming the file and the key when not
(:mod:`pi_app.venue.config`).  The password files are not read: they live on the machines
that use them.

``broker-files`` writes Mosquitto's ``mosquitto.conf``, hashed ``passwords`` and ``acl``
for the venue into DIR (:func:`pi_app.venue.broker.write_broker_files`): it reads every
password file, so it runs where they all are (the director's machine); the listener is
the broker URL's host and port unless ``--listen HOST:PORT`` says otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import InvalidInputError
from pi_app.venue.config import load_venue


def _check(args: argparse.Namespace) -> int:
    cfg = load_venue(args.file)
    tables = ", ".join(f"{t.number} ({t.seats} seats)" for t in cfg.tables)
    print(f"{args.file}: valid: venue {cfg.name!r}, tables {tables}, broker "
          f"{cfg.broker_host}:{cfg.broker_port}{' with TLS' if cfg.tls else ''}, "
          f"structure {cfg.structure}, break order {list(cfg.break_order)}, "
          f"max difference {cfg.max_difference}")
    return 0


def _broker_files(args: argparse.Namespace) -> int:
    from pi_app.service.unit_network import split_host_port
    from pi_app.venue.broker import write_broker_files

    cfg = load_venue(args.file)
    host, port = cfg.broker_host, cfg.broker_port
    if args.listen:
        host, port = split_host_port(args.listen, "--listen")
        if not host:
            raise InvalidInputError(f"--listen must be HOST:PORT with a host, got "
                                    f"{args.listen!r}")
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"{folder}: not a folder")
    conf = write_broker_files(cfg, folder, port, host)
    print(f"{conf}: Mosquitto listens on {host}:{port} with {len(cfg.tables) + 1} users "
          f"(passwords hashed) and their access list; start it with mosquitto -c {conf}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("venue", help="a venue of several tables (venue.toml)")
    sub = p.add_subparsers(dest="venue_command", metavar="ACTION", required=True)
    c = sub.add_parser("check", help="validate FILE without starting anything")
    c.add_argument("file", metavar="FILE")
    c.set_defaults(func=_check)
    b = sub.add_parser("broker-files", help="write Mosquitto's conf, hashed passwords and "
                                            "access list for FILE into DIR")
    b.add_argument("file", metavar="FILE")
    b.add_argument("dir", metavar="DIR")
    b.add_argument("--listen", metavar="HOST:PORT", help="the broker's listener (default: "
                                                         "the host and port of [broker] url)")
    b.set_defaults(func=_broker_files)
