"""``pokertable sim``: a whole simulated table through every layer.

    pokertable sim --preset NAME --players N --seed S [--hands H | --until-winner]
                   [--journal FILE [--resume]] [--json] [--realtime]
                   [--headless] [--screenshots DIR] [--direct]
    pokertable sim --phh FILE... [--json] [--screenshots DIR]
    pokertable sim --demo exposed-second-card|premature-flop|all [--screenshots DIR]
    pokertable sim --venue-table N --venue-config venue.toml --seed S --journal FILE
                   [--broker URL] [--resume]
    pokertable sim --venue --tables 3 --players 24 --seed S --until-winner --json
                   [--broker URL --venue-config FILE]

Bots press the mocked seat keys, the simulated shoe deals over the real wire protocol, the
loop journals every event; virtual time unless ``--realtime``.  The run is deterministic
for a seed: with ``--json`` the last line is ``{"hands_played", "final_stacks",
"places", "history_sha256"}``, the same after a kill and ``--resume``.

``--phh`` replays recorded hands through the same layers instead and prints one JSON line
per hand plus a closing count line.

``--venue-table`` plays one table of a venue (pi_app/sim/venue_table.py): the director
seats the players and says when each hand is dealt; the last line is the table's
``{"table", "hands_played", "history_sha256"}``.
``--venue`` runs a whole venue (pi_app/sim/venue.py): a broker, the director and each table
as separate processes; the last line is ``{"hands_played", "places", "moves",
"tables_broken", "history_sha256"}``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from engine.errors import InvalidInputError


def _int_in(lo: int, hi: int | None, what: str):
    """An argparse ``type``: a whole number lo..hi (hi None: no upper bound)."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            shown = text if len(text) <= 24 else text[:20] + "..."
            raise argparse.ArgumentTypeError(f"{what}: not a whole number: {shown!r}") from None
        if v < lo or (hi is not None and v > hi):
            span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            got = text if len(text) <= 24 else f"a number of {len(text)} digits"
            raise argparse.ArgumentTypeError(f"{what} must be {span}, got {got}")
        return v
    parse.__name__ = what  # argparse names the type in its messages
    return parse


def _players(text: str) -> int:
    """``--players``: a whole number; its range (one table or a venue) is checked by
    :func:`_check_players` once the other options are known."""
    try:
        return int(text)
    except ValueError:
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise argparse.ArgumentTypeError(f"players: not a whole number: {shown!r}") from None


def _check_players(args: argparse.Namespace) -> None:
    """``--players`` within 2..10 at one table, 2..9 x ``--tables`` with ``--venue``; one
    message for both, exit 2 (a venue from ``--venue-config`` counts its own seats)."""
    n = args.players
    if n is None or (args.venue and args.venue_config):
        return
    if args.venue:
        from pi_app.sim.venue import TABLE_SEATS

        hi, where = args.tables * TABLE_SEATS, f"at {args.tables} tables of {TABLE_SEATS}"
    else:
        hi, where = 10, "at one table"
    if not 2 <= n <= hi:
        got = str(n) if len(str(n)) <= 24 else f"a number of {len(str(n))} digits"
        args.sim_parser.error(f"--players must be 2..{hi} {where}, got {got}")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="play a whole simulated table (bots, simulated shoe)",
                       description=__doc__.replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="gunpowder",
                   help="structure preset or file (gunpowder, phat-ace, mini)")
    p.add_argument("--players", type=_players, default=None,
                   help="players, 2..10 at one table (default 6); with --venue 2..9 x --tables "
                        "(default 24)")
    p.add_argument("--seed", type=_int_in(0, None, "seed"), default=1, help="seed of the whole run (default 1)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--hands", type=_int_in(1, None, "hands"), help="stop after this many hands")
    g.add_argument("--until-winner", action="store_true", help="play until one player is left")
    p.add_argument("--journal", help="journal file (SQLite); default: a temporary one")
    p.add_argument("--resume", action="store_true", help="continue the run in --journal")
    p.add_argument("--accept-journal-loss", action="store_true",
                   help="with --resume: open a journal that lost records knowingly and go "
                        "on from its last intact record (what was lost is logged)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    p.add_argument("--realtime", action="store_true", help="run on the wall clock")
    p.add_argument("--headless", action="store_true", help="never open a window")
    p.add_argument("--screenshots", metavar="DIR",
                   help="write TV pictures at level changes and rulings, seat displays at "
                        "showdowns")
    p.add_argument("--direct", action="store_true",
                   help="skip the simulated devices: events go straight to the loop (fast)")
    p.add_argument("--profile", default=None,
                   help="house profile for dealing rulings (default: the preset's own)")
    p.add_argument("--phh", nargs="+", metavar="FILE",
                   help="replay recorded hands (PHH) through the service instead")
    p.add_argument("--demo", choices=("exposed-second-card", "premature-flop", "all"),
                   help="play one hand with a deliberate dealing error (misdeal demo)")
    p.add_argument("--venue-table", type=_int_in(1, 64, "venue-table"), metavar="N",
                   help="play table N of a venue: seats, moves and go from its director")
    p.add_argument("--venue", action="store_true",
                   help="a whole simulated venue: a director and --tables tables as "
                        "separate processes through a broker (pi_app/sim/venue.py)")
    p.add_argument("--tables", type=_int_in(1, 64, "tables"), default=3,
                   help="with --venue: tables of nine seats (default 3)")
    p.add_argument("--venue-config", metavar="FILE", help="the venue.toml of --venue-table")
    p.add_argument("--broker", metavar="URL",
                   help="the venue's broker (mqtt://HOST:PORT); default: venue.toml's")
    p.set_defaults(func=_handler, sim_parser=p)


def _venue(args: argparse.Namespace) -> int:
    """``--venue``: the whole simulated venue; its result is the last stdout line."""
    from pi_app.sim.venue import VenueSimOptions, run_venue

    if args.hands is not None:
        raise InvalidInputError("--venue plays until a winner: --hands does not apply")
    result = run_venue(VenueSimOptions(tables=args.tables, players=args.players or 24,
                                       seed=args.seed, broker=args.broker,
                                       config=args.venue_config))
    print(json.dumps(result))
    sys.stdout.flush()
    return 0


def _handler(args: argparse.Namespace) -> int:
    _check_players(args)
    if args.venue:
        return _venue(args)
    if args.players is None:
        args.players = 6
    if args.demo:
        from pi_app.sim.demos import DEMOS, run_demo

        for name in (DEMOS if args.demo == "all" else (args.demo,)):
            shots = os.path.join(args.screenshots, name) if args.screenshots else None
            print(json.dumps(run_demo(name, screenshots=shots, seed=args.seed).to_dict()))
        return 0
    if args.venue_table is not None or args.venue_config:
        return _venue_table(args)
    if args.phh:
        from pi_app.cli.phh import check_phh_files
        from pi_app.sim.phh_sim import run_phh_files

        check_phh_files(args.phh)
        return run_phh_files(args.phh, screenshots=args.screenshots, as_json=True)
    return _one_table(args)


def _one_table(args: argparse.Namespace) -> int:
    """The simulated table: played, then its summary printed (``--json``: one line)."""
    from pi_app.service.heap import freeze_startup_heap
    from pi_app.sim.simulator import SimOptions, run_sim

    if args.resume and not args.journal:
        raise InvalidInputError("--resume needs --journal FILE")
    _check_journal_folder(args.journal)
    if args.accept_journal_loss and not args.resume:
        raise InvalidInputError("--accept-journal-loss goes with --resume")
    if args.hands is not None and args.hands < 1:
        raise InvalidInputError(f"--hands must be at least 1, got {args.hands}")
    if args.hands is None and not args.until_winner:
        args.hands = 20
    window = not args.headless and bool(os.environ.get("DISPLAY")
                                         or os.environ.get("WAYLAND_DISPLAY"))
    opts = SimOptions(preset=args.preset, players=args.players, seed=args.seed,
                      hands=args.hands, until_winner=args.until_winner, journal=args.journal,
                      resume=args.resume, realtime=args.realtime, headless=not window,
                      screenshots=args.screenshots, show_window=window,
                      backend="direct" if args.direct else "hardware", profile=args.profile,
                      accept_journal_loss=args.accept_journal_loss)
    freeze_startup_heap()  # imports done, the journal not recovered yet
    try:
        summary = run_sim(opts)
    except KeyboardInterrupt as exc:
        where = f" in {args.journal}: add --resume to go on" if args.journal else ""
        print(f"stopped{where}", file=sys.stderr)
        return getattr(exc, "exit_status", 130)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"{summary['hands_played']} hands played")
        places = sorted(summary["places"].items(), key=lambda kv: kv[1])
        print("places: " + (", ".join(f"{p}. seat {s}" for s, p in places)
                            or "none decided yet"))
        print("stacks: " + ", ".join(f"seat {s}: {c}" for s, c in
                                     summary["final_stacks"].items()))
        if args.screenshots:
            print(f"screenshots in {args.screenshots}")
    sys.stdout.flush()
    return 0


def _check_journal_folder(journal: str | None) -> None:
    """A ``--journal`` FILE must be in a folder that exists: the command makes no folders.

    Raises:
        InvalidInputError: the folder of FILE does not exist or is not a folder (exit 2).
    """
    if journal is None:
        return
    folder = os.path.dirname(os.path.abspath(journal))
    if not os.path.isdir(folder):
        raise InvalidInputError(f"--journal {journal}: no folder {folder} (make it first, "
                                "or give a file in a folder that exists)")


def _venue_table(args: argparse.Namespace) -> int:
    """``--venue-table N --venue-config FILE``: one simulated table of a venue."""
    from pi_app.service.heap import freeze_startup_heap
    from pi_app.sim.venue_table import VenueTableOptions, run_venue_table

    if args.venue_table is None or not args.venue_config:
        raise InvalidInputError("--venue-table N and --venue-config FILE go together")
    if args.resume and not args.journal:
        raise InvalidInputError("--resume needs --journal FILE")
    _check_journal_folder(args.journal)
    opts = VenueTableOptions(table=args.venue_table, config=args.venue_config,
                             seed=args.seed, journal=args.journal, broker=args.broker,
                             resume=args.resume)
    freeze_startup_heap()  # imports done, the journal not recovered yet
    try:
        summary = run_venue_table(opts)
    except KeyboardInterrupt as exc:
        print(f"stopped in {args.journal}: add --resume to go on" if args.journal
              else "stopped", file=sys.stderr)
        return getattr(exc, "exit_status", 130)
    print(json.dumps(summary, sort_keys=True))
    sys.stdout.flush()
    return 0
