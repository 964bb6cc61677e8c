"""``pokertable director --config venue.toml``: the director node of a venue.

It connects to the venue's broker as the director's user, draws the opening seats, plays
the venue with the tables through the broker (:mod:`pi_app.venue.director`) and, when a
winner is known, prints the result as its last line on stdout, one JSON object::

    {"hands_played": int, "places": {player: place}, "moves": int, "tables_broken": int,
     "history_sha256": str}

and writes it to ``result.json`` in ``[director] state_directory`` (or ``--state-dir``).
Run again after a crash, it resumes from its journal there.  Registration through the
console is not built yet: ``--sim-players N`` enters ``P01``..``PNN``.  A bad venue file,
a missing password file or a journal of another night: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from pathlib import Path

from engine.errors import InvalidInputError
from pi_app.venue.config import MAX_SEATS, MAX_TABLES, load_venue


def sim_players(count: int) -> list[str]:
    """``P01``..``PNN`` (two digits at least, so they sort as numbers)."""
    return [f"P{i:02d}" for i in range(1, count + 1)]


def _seconds(text: str) -> float:
    """``--timeout``: a finite number of seconds above 0 (``nan`` and ``inf`` are not)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, "
                                         f"got {text!r}")
    return value


def _director(args: argparse.Namespace) -> int:
    from pi_app.venue.director import Director

    venue = load_venue(args.config)
    if args.sim_players is None:
        raise InvalidInputError("registration through the console is not built yet: give "
                                "--sim-players N")
    room = sum(venue.seats)
    if not 2 <= args.sim_players <= min(room, MAX_TABLES * MAX_SEATS):
        raise InvalidInputError(f"--sim-players must be 2..{room} (the venue's seats), got "
                                f"{args.sim_players}")
    logging.basicConfig(level=logging.WARNING, format="director: %(levelname)s %(message)s")
    state_dir = Path(args.state_dir) if args.state_dir else venue.state_directory
    seed = venue.seed if args.seed is None else args.seed
    director = Director(venue, sim_players(args.sim_players), seed, state_dir)
    try:
        result = director.run(timeout=args.timeout)
    except TimeoutError as exc:
        print(f"pokertable: director: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, separators=(", ", ": ")), flush=True)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("director", help="the director node of a venue of several "
                                               "tables (venue.toml)")
    p.add_argument("--config", required=True, metavar="FILE", help="the venue file")
    p.add_argument("--sim-players", type=int, metavar="N",
                   help="enter the simulated players P01..PNN")
    p.add_argument("--seed", type=int, metavar="S",
                   help="the seat draws' seed (default: tournament.seed)")
    p.add_argument("--state-dir", metavar="DIR",
                   help="the journal's folder (default: director.state_directory)")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="give up (exit 1) when no winner is known after this long")
    p.set_defaults(func=_director)
