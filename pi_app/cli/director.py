"""``pokertable director --config venue.toml``: the director node of a venue.

It connects to the venue's broker as the director's user, draws the opening seats, plays
the venue with the tables through the broker (:mod:`pi_app.venue.director`) and, when a
winner is known, prints the result as its last line on stdout, one JSON object::

    {"hands_played": int, "places": {player: place}, "moves": int, "tables_broken": int,
     "history_sha256": str}

and writes it to ``result.json`` in ``[director] state_directory`` (or ``--state-dir``).
Run again after a crash, it resumes from its journal there.  It answers each table's hand
boundary as it arrives, its clock on wall time; ``--rounds`` plays the deterministic rounds
of the simulated venue instead.  The players register on the
venue's console (``--console HOST:PORT``: :mod:`pi_app.console.venue`) until a director
starts the night there; meanwhile the night's state is on the broker already
(:mod:`pi_app.venue.registration`: tables join it); ``--sim-players N`` enters ``P01``..``PNN`` and starts at once.  A bad venue file,
a missing password file or a journal of another night: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from pathlib import Path
from typing import Any

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


SEED_MAX = 2**63 - 1  #: as ``tournament.seed`` in the venue file (pi_app/venue/config.py)


def _seed(text: str) -> int:
    """``--seed``: a whole number 0..2**63-1, the bound the venue file's seed has."""
    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be a whole number 0..{SEED_MAX}, got "
                                         f"{text[:40]!r}")
    return value


def _director(args: argparse.Namespace) -> int:
    from pi_app.venue.director import Director

    venue = load_venue(args.config)
    room = sum(venue.seats)
    if args.sim_players is not None and not 2 <= args.sim_players <= min(
            room, MAX_TABLES * MAX_SEATS):
        raise InvalidInputError(f"--sim-players must be 2..{room} (the venue's seats), got "
                                f"{args.sim_players}")
    logging.basicConfig(level=logging.WARNING, format="director: %(levelname)s %(message)s")
    state_dir = Path(args.state_dir) if args.state_dir else venue.state_directory
    seed = venue.seed if args.seed is None else args.seed
    journal = state_dir / "director.sqlite3"
    if args.sim_players is None and args.console is None and not journal.exists():
        raise InvalidInputError("register the players on the venue's console (--console "
                                "HOST:PORT), or give --sim-players N")
    console = _console(args.console, state_dir) if args.console else None
    try:
        players = _players(args, venue, journal, console)
        director = Director(venue, players, seed, state_dir, live=not args.rounds)
        if console is not None:
            _hand_over(console, director)
        result = director.run(timeout=args.timeout)
    except TimeoutError as exc:
        print(f"pokertable: director: {exc}", file=sys.stderr)
        return 1
    finally:
        if console is not None:
            console.stop()
    print(json.dumps(result, separators=(", ", ": ")), flush=True)
    return 0


def _console(listen: str, state_dir: Path) -> Any:
    """The venue's console on ``listen``, started; its pairing code on stderr."""
    from pi_app.console.venue import VenueConsole
    from pi_app.service.unit_network import split_host_port

    host, port = split_host_port(listen, "--console")
    console = VenueConsole(host=host or "127.0.0.1", port=port, state_dir=state_dir,
                           submit=lambda _request: None)
    console.start()
    code = console.gate.pairing.current()
    print(f"director: the venue's console: {console.pairing_url(code or '')}", file=sys.stderr,
          flush=True)
    return console


def _players(args: argparse.Namespace, venue: Any, journal: Path, console: Any) -> list[str]:
    """The players of the opening draw: ``--sim-players``, the journaled start of a night
    already begun, or those registered on the console until a director starts it."""
    from engine.tournament.structure_file import load_structure
    from pi_app.console.venue_state import registration_document
    from pi_app.venue.desk import Desk
    from pi_app.venue.director_journal import DirectorJournal
    from pi_app.venue.registration import announce_night

    if args.sim_players is not None:
        return sim_players(args.sim_players)
    j = DirectorJournal(journal)
    try:
        begun = j.start_record()
        if begun is not None:
            return list(begun["players"])
        if console is None:
            raise InvalidInputError("this night has not started: register its players on "
                                    "the venue's console (--console HOST:PORT)")
        node = announce_night(venue, j)  # tonight's state replaces last night's at once
        desk = Desk(j, load_structure(venue.structure), sum(venue.seats))
        desk.observer = lambda d: console.show(registration_document(d, venue)
                                               | {"night": node.night})
        console.submit = desk.events.put
        try:
            players = desk.run(args.timeout)
        finally:
            node.close()  # the director's own node takes over (the same client id)
        console.submit = lambda request: None  # until the director takes them
        console.late = list(_drain(desk.events))
        return players
    finally:
        j.close()


def _drain(q: Any) -> Any:
    import queue

    while True:
        try:
            yield q.get_nowait()
        except queue.Empty:
            return


def _hand_over(console: Any, director: Any) -> None:
    """From now on the console's requests go to the director (those the desk did not
    take first), and each of its events pushes the room's document."""
    from pi_app.console.venue_state import director_document

    director.observer = lambda d: console.show(director_document(d))
    for request in getattr(console, "late", []):
        director.events.put(request)
    console.submit = director.events.put


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("director", help="the director node of a venue of several "
                                               "tables (venue.toml)")
    p.add_argument("--config", required=True, metavar="FILE", help="the venue file")
    p.add_argument("--sim-players", type=int, metavar="N",
                   help="enter the simulated players P01..PNN")
    p.add_argument("--console", metavar="HOST:PORT",
                   help="serve the venue's console there: the room, registration, late "
                        "entries, payouts (its pairing link is printed on stderr)")
    p.add_argument("--seed", type=_seed, metavar="S",
                   help="the seat draws' seed (default: tournament.seed)")
    p.add_argument("--state-dir", metavar="DIR",
                   help="the journal's folder (default: director.state_directory)")
    p.add_argument("--rounds", action="store_true",
                   help="play in deterministic rounds, the clock on the tables' hand times "
                        "(the simulated venue); default: live, each table's hand boundary "
                        "answered as it arrives, the clock on wall time")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="give up (exit 1) when no winner is known after this long")
    p.set_defaults(func=_director)
