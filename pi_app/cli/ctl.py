"""``pokertable ctl --config FILE VERB ... [--json]``: drive a running table from a shell.

Sends one request to the director's console of the table (``[console] listen`` of the
config, loopback by default) and prints the answer: one line, or with ``--json`` the JSON
document.  A user who can read the table's state directory is its director: ctl keeps
its own director token there (``console-ctl.token``), minting a new one when needed.
A refused command prints the table's reason on one line and exits with status 2.

Examples::

    pokertable ctl --config table.toml register "Ann"
    pokertable ctl --config table.toml seat-draw
    pokertable ctl --config table.toml start
    pokertable ctl --config table.toml late-entry "Gus"             # shows the stack
    pokertable ctl --config table.toml late-entry "Gus" --chips 9700  # confirms it
    pokertable ctl --config table.toml add-time 120
    pokertable ctl --config table.toml status --json
    pokertable ctl --config table.toml results --csv > results.csv

With ``--venue venue.toml --console HOST:PORT`` (the director's ``--console``) it drives
the venue's console instead, from the director's machine: ``pair``, ``token`` and
``revoke`` only; its token is kept in the director's state folder (``[director]
state_directory``, or ``--state-dir``)::

    pokertable ctl --venue venue.toml --console 127.0.0.1:8766 pair
    pokertable ctl --venue venue.toml --console 127.0.0.1:8766 token --role dealer
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from engine.errors import DeviceError, InvalidInputError


class CtlRefused(InvalidInputError):
    """The console refused the request (its one-line reason)."""


class ConsoleUnreachable(DeviceError):
    """Nothing answers at ``[console] listen``."""


def _seat(p: argparse.ArgumentParser) -> argparse.Action:
    return p.add_argument("seat", type=int, help="seat number (1-based)")


#: verb -> (API path, positional/option builder, body from args); None path = special
VERBS: dict[str, tuple[str, Any, Any, str]] = {
    "register": ("register", lambda p: p.add_argument("name"),
                 lambda a: {"name": a.name}, "register a player by name"),
    "seat-draw": ("seat-draw", None, None, "draw seats at random for the players waiting"),
    "start": ("start", None, None, "start the tournament"),
    "late-entry": ("late-entry", lambda p: (p.add_argument("name"), p.add_argument(
        "--chips", type=int, help="confirm the stack shown without it")),
        lambda a: {"name": a.name, "chips": a.chips}, "a late entry"),
    "away": ("away", _seat, lambda a: {"seat": a.seat}, "a player is away"),
    "back": ("back", _seat, lambda a: {"seat": a.seat}, "a player is back"),
    "remove": ("remove", lambda p: (_seat(p), p.add_argument("reason")),
               lambda a: {"seat": a.seat, "reason": a.reason}, "remove a player"),
    "eliminate": ("eliminate", lambda p: (_seat(p), p.add_argument(
        "--by", type=int, help="the seat of the player who knocked them out")),
        lambda a: {"seat": a.seat, "by": a.by}, "a player is out"),
    "undo-elimination": ("undo-elimination", None, None, "undo the last elimination"),
    "bet": ("bet", lambda p: (_seat(p), p.add_argument("amount", type=int)),
            lambda a: {"seat": a.seat, "amount": a.amount},
            "an exact bet or raise to AMOUNT for the seat to act"),
    "all-in": ("all-in", _seat, lambda a: {"seat": a.seat}, "all-in for the seat to act"),
    "fold": ("fold", _seat, lambda a: {"seat": a.seat}, "fold for the seat to act"),
    "call": ("call", _seat, lambda a: {"seat": a.seat}, "check or call for the seat to act"),
    "show": ("show", _seat, lambda a: {"seat": a.seat}, "show a hand at showdown"),
    "muck": ("muck", _seat, lambda a: {"seat": a.seat}, "muck a hand at showdown"),
    "stack": ("stack", lambda p: (_seat(p), p.add_argument("chips", type=int),
                                  p.add_argument("reason")),
              lambda a: {"seat": a.seat, "chips": a.chips, "reason": a.reason},
              "correct a stack to the count on the felt"),
    "award": ("award", lambda p: p.add_argument("seats", type=int, nargs="+"),
              lambda a: {"seats": a.seats}, "award the pot by hand (shoe offline)"),
    "confirm-color-up": ("color-up/confirm", None, None, "confirm the color-up"),
    "pause": ("pause", None, None, "pause the clock"),
    "resume": ("resume", None, None, "resume the clock"),
    "add-time": ("add-time", lambda p: p.add_argument("seconds", type=int),
                 lambda a: {"seconds": a.seconds}, "add time to the level"),
    "remove-time": ("remove-time", lambda p: p.add_argument("seconds", type=int),
                    lambda a: {"seconds": a.seconds}, "remove time from the level"),
    "jump-level": ("jump-level", lambda p: p.add_argument("level", type=int),
                   lambda a: {"level": a.level}, "jump to a level (its number)"),
    "level-length": ("level-length", lambda p: p.add_argument("minutes", type=int),
                     lambda a: {"minutes": a.minutes}, "the remaining levels' length"),
    "declare": ("declare", lambda p: (p.add_argument("kind"), p.add_argument(
        "--seat", type=int), p.add_argument("--draw", type=int)),
        lambda a: {"kind": a.kind, "seat": a.seat, "draw": a.draw},
        "declare boxed_card, wrong_seat, seat_skipped, button_out_of_position, exposed_card"),
    "confirm-ruling": ("ruling/confirm", None, None, "confirm the pending ruling"),
    "override-ruling": ("ruling/override", lambda p: p.add_argument("note"),
                        lambda a: {"note": a.note}, "override the pending ruling"),
    "next-hand": ("next-hand", None, None, "the dealer box's NEXT HAND"),
    "card": ("card", lambda p: p.add_argument("card"), lambda a: {"card": a.card},
             "key in a card drawn by hand (shoe offline)"),
    "undo": ("undo", None, None, "undo the last player action"),
    "start-round": ("round/start", None, None, "start the next qualifier or the final"),
    "new-tournament": ("new-tournament", lambda p: p.add_argument(
        "--structure", help="a preset for the new tournament (default: the same)"),
        lambda a: {"structure": a.structure},
        "end the tournament, archive it and start a new one"),
}
READS = {"status": "status the public state", "results": "results the results so far",
         "audit": "audit every command applied", "pair": "pair open a pairing code",
         "token": "token a new token for a role", "revoke": "revoke a token by id"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ctl", help="drive a running table through its console",
                       description=__doc__.replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", help="the table's TOML config")
    which.add_argument("--venue", metavar="FILE", help="the venue file: drive the venue's "
                                                       "console (pair, token, revoke)")
    p.add_argument("--console", metavar="HOST:PORT",
                   help="with --venue: where the director serves its console")
    p.add_argument("--state-dir", metavar="DIR",
                   help="with --venue: the director's state folder (default: "
                        "director.state_directory)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    for verb, (_path, build, _body, words) in VERBS.items():
        vp = verbs.add_parser(verb, help=words)
        if build is not None:
            build(vp)
        vp.add_argument("--json", action="store_true", help="print the JSON answer")
    for verb, words in READS.items():
        vp = verbs.add_parser(verb, help=words.split(" ", 1)[1])
        vp.add_argument("--json", action="store_true", help="print the JSON answer")
        if verb == "results":
            vp.add_argument("--csv", action="store_true", help="CSV instead")
        if verb == "token":
            vp.add_argument("--role", required=True, choices=("director", "dealer"))
            vp.add_argument("--ttl", type=int, default=24 * 3600, help="seconds (default a day)")
        if verb == "revoke":
            vp.add_argument("id")
    p.set_defaults(func=_handler, parser=p)


def _handler(args: argparse.Namespace) -> int:
    from pi_app.service.config import load_config

    if not args.verb:
        args.parser.missing_subcommand()
    if args.venue is not None:
        return _read(Client(_venue_target(args)), args)
    config = load_config(args.config, structure_optional=True)  # the table has its own copy
    if config.console is None:
        raise InvalidInputError(f"{args.config}: no [console] section: the table serves "
                                "no console")
    client = Client(config)
    if args.verb in VERBS:
        return _command(client, args)
    return _read(client, args)


VENUE_VERBS = ("pair", "token", "revoke")


def _venue_target(args: argparse.Namespace) -> Any:
    """What :class:`Client` reads of a config, for the venue's console: ``console.host``
    and ``.port`` from ``--console``, ``state_dir`` (the director's).

    Raises:
        InvalidInputError: a verb the venue's console has not, or no ``--console``.
    """
    from types import SimpleNamespace

    from pi_app.service.unit_network import split_host_port
    from pi_app.venue.config import load_venue

    if args.verb not in VENUE_VERBS:
        raise InvalidInputError(f"with --venue the verbs are {', '.join(VENUE_VERBS)} (the "
                                f"room is on the venue console's page), got {args.verb!r}")
    if args.console is None:
        raise InvalidInputError("with --venue give --console HOST:PORT, as the director's")
    venue = load_venue(args.venue)
    host, port = split_host_port(args.console, "--console")
    state = Path(args.state_dir) if args.state_dir else venue.state_directory
    return SimpleNamespace(console=SimpleNamespace(host=host, port=port), state_dir=state)


class Client:
    """HTTP to the console of ``config`` with ctl's director token."""

    def __init__(self, config: Any) -> None:
        c = config.console
        host = "127.0.0.1" if c.host in ("0.0.0.0", "") else "::1" if c.host == "::" else c.host
        self.base = f"http://[{host}]:{c.port}" if ":" in host else f"http://{host}:{c.port}"
        self.state_dir = config.state_dir
        self._token: str | None = None

    @property
    def token(self) -> str:
        if self._token is None:
            from pi_app.console.auth import ctl_token

            try:
                self._token = ctl_token(self.state_dir)
            except FileNotFoundError:
                raise CtlRefused(f"{self.state_dir}: not the state folder of a table that has "
                                 "run its console (no console-tokens.db there): set "
                                 "STATE_DIRECTORY or the config's state.directory to the "
                                 "running table's") from None
            except (OSError, sqlite3.Error) as exc:
                why = getattr(exc, "strerror", None) or exc
                raise CtlRefused(f"{self.state_dir}: cannot keep ctl's token there ({why}): "
                                 "only a user who can read the state directory is the "
                                 "director") from None
        return self._token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, str]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ConsoleUnreachable(f"no console at {self.base} ({reason}): is the table "
                                     "running with this config?") from None

    def json(self, method: str, path: str, body: Any = None) -> Any:
        status, text = self.call(method, path, body)
        try:
            doc = json.loads(text)
        except ValueError:
            doc = {"error": text.strip()[:200]}
        if status == 401:
            raise CtlRefused(f"{doc.get('error', 'refused')} (HTTP 401): the console at "
                             f"{self.base} does not know ctl's token from {self.state_dir}; "
                             "is that the running table's state folder?")
        if status != 200:
            raise CtlRefused(f"{doc.get('error', 'refused')} (HTTP {status})")
        return doc


def _command(client: Client, args: argparse.Namespace) -> int:
    path, _build, body_of, _words = VERBS[args.verb]
    body = {k: v for k, v in (body_of(args) if body_of else {}).items() if v is not None}
    if args.verb == "late-entry" and args.chips is None:
        return _late_entry_preview(client, args)
    doc = client.json("POST", f"/api/{path}", body)
    print(json.dumps(doc, sort_keys=True) if args.json else doc.get("detail") or "done")
    return 0


def _late_entry_preview(client: Client, args: argparse.Namespace) -> int:
    """The stack a late entry would get now, for a name the table has checked (a name it
    would refuse is refused here too, exit status 2); nothing changes."""
    try:
        args.name.encode("utf-8")
    except UnicodeEncodeError:  # a byte a Latin-1 terminal typed: no URL can carry it
        raise CtlRefused("the name is not valid Unicode (a byte that is not UTF-8, such as "
                         "one typed in a Latin-1 terminal)") from None
    preview = client.json("GET", "/api/late-entry?" + urllib.parse.urlencode(
        {"name": args.name}))
    if not preview["open"]:
        raise CtlRefused(preview.get("reason") or "late entry is not open now")
    if args.json:
        print(json.dumps(preview, sort_keys=True))
    else:
        print(f"{preview['name']} would start with {preview['chips']} chips (level "
              f"{preview['level']}, deduction {preview['deduction']}); confirm with "
              f"--chips {preview['chips']}")
    return 0


def _read(client: Client, args: argparse.Namespace) -> int:
    verb = args.verb
    if verb == "results" and args.csv:
        status, text = client.call("GET", "/api/results.csv")
        if status != 200:
            raise CtlRefused(f"results refused (HTTP {status})")
        sys.stdout.write(text)
        return 0
    if verb == "status":
        doc = client.json("GET", "/api/status")
        doc["registered"] = [p["name"] for p in doc["players"]]
        text = _status_line(doc)
    elif verb == "results":
        doc = client.json("GET", "/api/results")
        text = "\n".join(_result_line(r, doc.get("currency", "")) for r in doc["results"])
    elif verb == "audit":
        doc = client.json("GET", "/api/audit")
        text = "\n".join(_audit_line(a) for a in doc["audit"])
    elif verb == "pair":
        doc = client.json("POST", "/api/pairing", {})
        text = f"pairing code {doc['code']} ({doc['url']})"
    elif verb == "token":
        doc = client.json("POST", "/api/tokens", {"role": args.role, "ttl_seconds": args.ttl})
        text = doc["token"]
    else:
        doc = client.json("POST", "/api/tokens/revoke", {"id": args.id})
        text = f"token {doc['id']} revoked"
    print(json.dumps(doc, sort_keys=True) if args.json else text)
    return 0


def _audit_line(a: dict[str, Any]) -> str:
    """One applied command in words: ``"12:01 director ab12 seat draw: ..."`` (the API's
    ``seat_draw`` written as the words it names)."""
    return f"{a['at']} {a['role']:<8} {a['token']} {a['command'].replace('_', ' ')}: {a['detail']}"


def _result_line(row: dict[str, Any], currency: str) -> str:
    """One place: ``"  1 Ann    seat 4     $70  12"`` (money after the structure's
    currency symbol, as the TV and the pages write it)."""
    money = f"{currency}{row['payout']:,}" if row["payout"] else ""
    return (f"{row['place'] or '-':>3} {row['name']:<24} seat {row['seat'] or '-'}"
            f"  {money:>8}  {row['points'] or ''}")


def _status_line(doc: dict[str, Any]) -> str:
    c = doc["clock"]
    left = c["remaining_seconds"]
    time_left = "" if left is None else f", {left // 60}:{left % 60:02d} left"
    return (f"{doc['table']}: level {c['level']} {c['small_blind']}/{c['big_blind']}"
            f"{time_left}{'' if c['running'] else ' (not running)'}; "
            f"{doc['players_left']} {'player' if doc['players_left'] == 1 else 'players'} "
            f"left of {doc['entries']}; registered: "
            f"{', '.join(doc['registered']) or 'nobody'}")
