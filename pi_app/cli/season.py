"""``pokertable season ...``: the league's season (standings, CSV import, merging spellings).

The season lives in ``season.db`` in the table's state directory: the one of ``--config
FILE`` when given, else ``$STATE_DIRECTORY``, else ``./state``.  Each night ended from the
director's console adds its results there by itself.

* ``season standings [--json | --csv]``: the standings by points with the league's
  tie-break (:mod:`engine.tournament.season`).  ``--json`` prints one JSON list in rank
  order, each entry ``{"rank", "player", "points", "nights", "wins", "best", "knockouts",
  "bounties"}``; ``points`` is exact, a string with two decimals.  ``--csv`` prints the
  same as CSV with a header row.
* ``season import FILE.csv``: adds the nights of a CSV (header ``date,player,place,points``
  and optionally ``event,knockouts,bounty``).  A malformed file is one error line naming the
  row, exit status 2, and the season unchanged: the import is one transaction.
* ``season merge SPELLING INTO``: two spellings of one player become one (``INTO``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.tournament.season import TIE_BREAK, standings_csv
from pi_app.service.season_store import Season, default_state_dir, read_standings, season_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("season", help="the league's season: standings, CSV import",
                              description="The league's season, kept in the state directory.")
    p.set_defaults(func=lambda a: p.error("missing season command: one of standings, "
                                          "import, merge"))
    sub = p.add_subparsers(dest="season_command", metavar="SEASON_COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_text, description=help_text)
        c.add_argument("--config", metavar="FILE",
                       help="the table's TOML config (its state directory); default "
                            "$STATE_DIRECTORY, else ./state")
        return c

    s = command("standings", "the standings by points, with the league's tie-break")
    fmt = s.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="one JSON list in rank order")
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    s.set_defaults(func=standings)
    i = command("import", "add the nights of a CSV file (date,player,place,points[,...])")
    i.add_argument("file", metavar="FILE.csv")
    i.set_defaults(func=import_csv)
    m = command("merge", "merge two spellings of one player's name")
    m.add_argument("spelling", help="the name to merge away")
    m.add_argument("into", help="the name to keep")
    m.set_defaults(func=merge)


def state_dir(args: argparse.Namespace) -> Path:
    """The state directory of ``--config`` or the default (module docstring)."""
    if args.config:
        from pi_app.service.config import load_config

        return Path(load_config(args.config).state_dir)
    return default_state_dir()


def standings(args: argparse.Namespace) -> int:
    table, next_night = read_standings(state_dir(args))
    if args.json:
        print(json.dumps([s.as_json() for s in table]))
    elif args.csv:
        print(standings_csv(table), end="")
    else:
        for s in table:
            print(f"{s.rank:>3}  {s.player:<24} {s.points:>10} pts  {s.nights} nights, "
                  f"{s.wins} won")
        print(f"(ranked by {TIE_BREAK}; next night "
              f"{next_night.isoformat() if next_night else 'not set'})")
    return 0


def import_csv(args: argparse.Namespace) -> int:
    with Season(season_path(state_dir(args))) as season:
        nights, rows = season.import_csv(args.file)
    print(f"imported {rows} result{'s' * (rows != 1)} of {nights} "
          f"night{'s' * (nights != 1)}")
    return 0


def merge(args: argparse.Namespace) -> int:
    with Season(season_path(state_dir(args))) as season:
        moved = season.merge(args.spelling, args.into)
    print(f"{args.spelling!r} merged into {args.into!r} ({moved} results moved)")
    return 0
