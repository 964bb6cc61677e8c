"""``pokertable venue check FILE``, ``pokertable venue broker-files FILE DIR`` and
``pokertable venue ca DIR --host HOST``.

``check`` validates a venue file without starting anything: exit 0 and a one-line summary
when valid; exit 2 and one line naming the file and the key when not
(:mod:`pi_app.venue.config`).  It checks every password file the venue names as the
director's machine holds them (each there, a regular file only its owner may read, holding
a password; :func:`pi_app.venue.config.check_password_files`); on a table's Pi, ``--table
N`` checks that table's only.  When none of those files is on this machine (checked away
from the machines that hold them), a second line says so and the exit is still 0.  A
password is never printed.

``broker-files`` writes Mosquitto's ``mosquitto.conf``, hashed ``passwords`` and ``acl``
for the venue into DIR (:func:`pi_app.venue.broker.write_broker_files`): it reads every
password file, so it runs where they all are (the director's machine); the listener is
the broker URL's host and port unless ``--listen HOST:PORT`` names an address of this
machine (an interface's, loopback, or all of them) on that same port (:func:`listen_address`).
With an ``mqtts://`` broker, ``--certs CERTS`` names the folder ``ca`` wrote.

``ca`` makes the venue's own certificate authority and the broker's certificate for each
``--host`` with ``openssl`` (:mod:`pi_app.venue.tls`); it overwrites nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import InvalidInputError
from pi_app.venue.config import VenueConfig, check_password_files, load_venue


def _check(args: argparse.Namespace) -> int:
    cfg = load_venue(args.file)
    absent = check_password_files(cfg, args.table)
    tables = ", ".join(f"{t.number} ({t.seats} seats)" for t in cfg.tables)
    print(f"{args.file}: valid: venue {cfg.name!r}, tables {tables}, broker "
          f"{cfg.broker_host}:{cfg.broker_port}{' with TLS' if cfg.tls else ''}, "
          f"structure {cfg.structure}, break order {list(cfg.break_order)}, "
          f"max difference {cfg.max_difference}")
    if absent:
        where = f" in {absent[0].parent}" if len({p.parent for p in absent}) == 1 else ""
        what = ("the password file" if len(absent) == 1
                else f"none of the {len(absent)} password files")
        print(f"{what}{where}: not on this machine (each is read when its director or table "
              f"starts): make them there (docs/venue.md, section 2) and check again there")
    return 0


def listen_address(listen: str, venue: VenueConfig) -> tuple[str, int]:
    """``--listen HOST:PORT`` checked for the broker of ``venue``: HOST an IP address this
    machine holds (an interface's, a loopback one, or 0.0.0.0 / :: for all) or
    ``localhost``, PORT the port of ``broker.url`` (where the tables connect).

    Raises:
        InvalidInputError: spaces, no host, a host name, an address off this machine, or
            another port.
    """
    import ipaddress

    from pi_app.service.unit_network import local_interfaces, split_host_port

    if listen != "".join(listen.split()):
        raise InvalidInputError(f"--listen must be HOST:PORT without spaces, got {listen!r}")
    host, port = split_host_port(listen, "--listen")
    if not host:
        raise InvalidInputError(f"--listen must be HOST:PORT with a host, got {listen!r}")
    if port != venue.broker_port:
        raise InvalidInputError(f"--listen: the port must be broker.url's, {venue.broker_port}"
                                f" (where the tables connect), got {port}")
    if host == "localhost":
        return host, port
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise InvalidInputError(f"--listen: give an IP address of this machine, got "
                                f"{host!r}") from None
    if not (ip.is_loopback or ip.is_unspecified
            or ip in {i.ip for i in local_interfaces()}):
        raise InvalidInputError(f"--listen: {host} is not an address of this machine (its "
                                f"interfaces or loopback)")
    return host, port


def _broker_files(args: argparse.Namespace) -> int:
    from pi_app.venue.broker import write_broker_files

    cfg = load_venue(args.file)
    host, port = cfg.broker_host, cfg.broker_port
    if args.listen is not None:
        host, port = listen_address(args.listen, cfg)
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"{folder}: not a folder")
    certs = None if args.certs is None else Path(args.certs)
    conf = write_broker_files(cfg, folder, port, host, certs=certs)
    print(f"{conf}: Mosquitto listens on {host}:{port}{' with TLS' if certs else ''} with "
          f"{len(cfg.tables) + 1} users (passwords hashed) and their access list")
    print(broker_start_hint(conf.resolve()))  # systemd needs an absolute path
    return 0


def broker_start_hint(conf: Path) -> str:
    """How to start Mosquitto on ``conf`` (docs/venue.md, "The broker"): the files are
    the writer's, mode 600, and Mosquitto started as root drops to the ``mosquitto`` user,
    so they are given to that user first and the system's service runs on ``conf``."""
    return (f"next: sudo chown -R mosquitto: {conf.parent} && sudo systemctl edit mosquitto "
            f"(a drop-in: [Service] ExecStart= then ExecStart=/usr/sbin/mosquitto -c {conf}) "
            f"&& sudo systemctl restart mosquitto; see docs/venue.md, \"The broker\"")


def _ca(args: argparse.Namespace) -> int:
    from pi_app.venue.tls import make_ca

    written = make_ca(Path(args.dir), args.host, args.days)
    print(f"{args.dir}: the venue's CA and the broker's certificate for "
          f"{', '.join(args.host)}: {', '.join(p.name for p in written)} (keys mode 600; "
          f"keep {written[0].name} off the network, copy {written[1].name} to every Pi)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("venue", help="a venue of several tables (venue.toml)")
    sub = p.add_subparsers(dest="venue_command", metavar="ACTION", required=True)
    c = sub.add_parser("check", help="validate FILE without starting anything")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--table", type=int, metavar="N",
                   help="on table N's Pi: check its password file only")
    c.set_defaults(func=_check)
    b = sub.add_parser("broker-files", help="write Mosquitto's conf, hashed passwords and "
                                            "access list for FILE into DIR")
    b.add_argument("file", metavar="FILE")
    b.add_argument("dir", metavar="DIR")
    b.add_argument("--listen", metavar="HOST:PORT", help="the broker's listener (default: "
                                                         "the host and port of [broker] url)")
    b.add_argument("--certs", metavar="CERTS", help="with an mqtts:// broker: the folder "
                                                    "pokertable venue ca wrote")
    b.set_defaults(func=_broker_files)
    a = sub.add_parser("ca", help="make the venue's CA and the broker's TLS certificate "
                                  "in DIR (openssl)")
    a.add_argument("dir", metavar="DIR")
    a.add_argument("--host", action="append", required=True, metavar="HOST",
                   help="a name or address the tables reach the broker by (repeat)")
    a.add_argument("--days", type=int, default=825, metavar="N",
                   help="how long the certificates are valid (default 825)")
    a.set_defaults(func=_ca)
