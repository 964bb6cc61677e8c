"""``pokertable run [--config FILE]``: run the table.

* With a table's config (real devices), this is the service a venue's Pi runs under
  systemd: one loop, the journal, the devices, until SIGTERM.
* With the embedded default config (``--config`` left out) the table is the simulated one:
  every device mocked, bots at the seats.  The simulated tournament is played through every
  layer (simulated shoe over the wire protocol, mocked keys, loop, journal, screens) until a
  player has every chip.  With a display present the TV opens in a window; without one the
  TV and seat-display pictures are written to a folder, and the command says where.
  The simulated run is journaled: run again to resume it (--fresh starts over; --seed
  other than the journal's is refused until then).  A finished tournament is played
  again: its journal is moved aside (to <state>/previous/<time>/, with its hand histories
  and pictures), never deleted; if its run was stopped before it printed the result, the
  next run prints that result from the journal instead, and the one after plays again.
  An unreadable journal is moved aside too; one that lost records is refused (add
  --accept-journal-loss to go on from its last intact record, or --fresh); one that is a
  symbolic link, a folder or a pipe (or whose -wal or -shm is) is refused, as everywhere
  else, and nothing is moved.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import shutil
import sys
from pathlib import Path

from engine.errors import InvalidInputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run the table (default: the simulated table)",
                       description=__doc__.replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", help="the table's TOML config (default: the embedded "
                                    "simulated table)")
    p.add_argument("--headless", action="store_true", help="never open a window")
    p.add_argument("--screenshots", metavar="DIR", help="where the simulated table writes "
                                                       "its pictures (default: <state>/screens)")
    p.add_argument("--seed", type=int, default=None, help="seed of the simulated table")
    p.add_argument("--speed", type=float, default=20.0,
                   help="simulated table in a window: table seconds per real second "
                        "(default 20; a hand takes a few seconds)")
    p.add_argument("--service", action="store_true",
                   help="run the service loop on the configured devices even when all are "
                        "mocked (no bots; stop with Ctrl-C or SIGTERM)")
    p.add_argument("--accept-journal-loss", action="store_true",
                   help="open a journal that lost records knowingly: go on from its last "
                        "intact record (what was lost is logged)")
    p.add_argument("--fresh", action="store_true",
                   help="simulated table: start over instead of resuming its journal")
    p.set_defaults(func=_handler)


def is_simulated(config) -> bool:
    """True when every device is mocked, the shoe is the simulator and no console drives
    the table: bots play."""
    return (config.shoe_port == "sim" and all(v == "mock" for v in config.backends.values())
            and getattr(config, "console", None) is None
            and getattr(config, "venue", None) is None)


def _handler(args: argparse.Namespace) -> int:
    from pi_app.service.config import load_config

    if args.speed is not None and args.speed <= 0:
        raise InvalidInputError(f"--speed must be above 0, got {args.speed}")
    # a resume plays the structure its journal recorded: the file is needed only to start
    config = load_config(args.config, structure_optional=True)
    if args.service or not is_simulated(config):
        sim_only = [f for f, v in (("--fresh", args.fresh), ("--seed", args.seed is not None),
                                   ("--screenshots", args.screenshots)) if v]
        if sim_only:
            raise InvalidInputError(f"{', '.join(sim_only)}: only for the simulated table "
                                    "(the default config), not for the service")
        from pi_app.service.journal import Journal

        if not Journal.exists(config.journal_path):
            config.require_structure()

        logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from pi_app.console.server import start_console
        from pi_app.service.daemon import run_daemon
        from pi_app.service.heap import freeze_startup_heap

        freeze_startup_heap()  # imports done, the journal not recovered yet
        return run_daemon(config, start_console=start_console,
                          accept_loss=args.accept_journal_loss)
    return _run_simulated(config, args)


def _run_simulated(config, args: argparse.Namespace) -> int:
    from pi_app.service.heap import freeze_startup_heap
    from pi_app.sim.simulator import SimOptions

    freeze_startup_heap()  # imports done, the journal not read yet
    window = not args.headless and bool(os.environ.get("DISPLAY")
                                         or os.environ.get("WAYLAND_DISPLAY"))
    seed, state_dir, shots = _check_sim_options(config, args)
    journal, unshown = _prepare_sim_journal(config, args, state_dir, shots)
    resume = journal.exists()
    players = len(config.seats)
    opts = SimOptions(preset=config.structure, players=players, seed=seed, until_winner=True,
                      journal=str(journal), resume=resume, screenshots=str(shots),
                      show_window=window, headless=not window, profile=config.house_profile,
                      layout=config.tv_layout, tv_size=(config.tv_width, config.tv_height),
                      speed=args.speed if window else None, name=config.name,
                      accept_journal_loss=args.accept_journal_loss and resume,
                      progress=_progress_line)
    doing = (" (its result, from " if unshown else " (resuming ") + str(journal) + ")"
    header = (f"Simulated table '{config.name}': {players} seats, structure "
              f"'{config.structure}', seed {seed}{doing if resume else ''}")
    summary = _play(opts, args, journal, header)
    if isinstance(summary, int):
        return summary
    places = sorted(summary["places"].items(), key=lambda kv: kv[1])
    print(f"{summary['hands_played']} hands played; "
          + ", ".join(f"{p}. seat {s}" for s, p in places[:3]))
    print(f"TV and seat-display pictures: {shots}  (index.txt lists them)")
    print(f"hand histories: {state_dir / 'sim-journal-hands'}")
    print(json.dumps(summary, sort_keys=True))
    sys.stdout.flush()
    _result_path(journal).write_text(json.dumps(summary, sort_keys=True) + "\n")
    return 0


def _play(opts, args: argparse.Namespace, journal: Path, header: str) -> dict | int:
    """Build the simulated table (a journal it cannot resume is refused here, before a
    word is printed), print ``header``, play; the summary, or the exit status when
    stopped."""
    from pi_app.sim.simulator import ResumeMismatchError, SimError, Simulation

    try:
        try:
            sim = Simulation(opts)
        except ResumeMismatchError as exc:
            raise InvalidInputError(
                f"{journal} holds an unfinished tournament of '{exc.structure}' with seed "
                f"{exc.seed}, started with other settings than these (seed, seats or "
                f"structure): run again without --seed (or with --seed {exc.seed}) and the "
                "config it was started with to resume it, or add --fresh to start a new one "
                "(the unfinished one is moved aside, not deleted)") from None
        except SimError as exc:
            if opts.resume:
                raise SimError(f"{exc}; or add --fresh to start a new tournament") from None
            raise
        print(header, flush=True)
        return sim.run()
    except KeyboardInterrupt as exc:
        print(f"stopped; the tournament is journaled in {journal}: run again to resume it",
              file=sys.stderr)
        return int(getattr(exc, "exit_status", 130))


def _result_path(journal: Path) -> Path:
    """Written once a run has printed its result: a finished tournament without it (the
    run was stopped before) prints its result at the next run instead of playing again."""
    return journal.with_name(journal.name + ".result")


def _progress_line(line: str) -> None:
    """A line of progress on stderr (stdout ends with the JSON summary), at once."""
    print(line, file=sys.stderr, flush=True)


def _check_sim_options(config, args: argparse.Namespace) -> tuple[int, Path, Path]:
    """``(seed, state directory, pictures folder)``: every option is checked before
    anything on disk changes (InvalidInputError naming the option)."""
    seed = args.seed if args.seed is not None else int(getattr(config, "seed", 1) or 1)
    if seed < 0:
        raise InvalidInputError(f"--seed must be 0 or more, got {seed}")
    if not math.isfinite(args.speed) or args.speed <= 0:
        raise InvalidInputError(f"--speed must be a number above 0, got {args.speed}")
    if len(config.seats) < 2:
        raise InvalidInputError("the simulated table needs at least 2 seats")
    state_dir = Path(config.state_dir)
    shots = Path(args.screenshots) if args.screenshots else state_dir / "screens"
    for folder, what in ((state_dir, "the state directory"), (shots, "--screenshots")):
        if folder.exists() and not folder.is_dir():
            raise InvalidInputError(f"{folder}: {what} must be a folder, and this is not one")
    return seed, state_dir, shots


def _prepare_sim_journal(config, args: argparse.Namespace, state_dir: Path,
                         shots: Path) -> tuple[Path, bool]:
    """The simulated table's journal path, after moving aside a finished or unreadable
    tournament (or any with ``--fresh``) with its hand histories and pictures; and
    whether it holds a finished tournament whose result was never printed.

    Raises:
        JournalPathError: the journal (or its ``-wal``/``-shm``) is a symbolic link, a
            folder, a pipe...: refused as everywhere else, nothing moved or created.
        JournalSizeError: the journal is larger than a journal can be.
    """
    from pi_app.service.journal import Journal, check_journal_path

    journal = state_dir / "sim-journal.db"
    if not check_journal_path(journal):
        config.require_structure()  # a new tournament: nothing is created without one
    state_dir.mkdir(parents=True, exist_ok=True)
    hands = state_dir / "sim-journal-hands"

    if Journal.in_use(journal):
        raise InvalidInputError(f"{journal} is in use by another run of the table")
    why, finished = ("--fresh", False) if args.fresh else _why_start_over(
        journal, args.accept_journal_loss)
    if why is not None:
        config.require_structure()  # a new tournament: nothing is moved aside without one
        moved = _move_aside(journal, hands, shots)
        if moved is not None:
            print(f"{journal}: {why}; moved it aside, with its hand histories and pictures, "
                  f"to {moved}", file=sys.stderr if why.startswith("unreadable") else sys.stdout,
                  flush=True)
    return journal, finished and why is None


def _why_start_over(journal: Path, accept_loss: bool) -> tuple[str | None, bool]:
    """Why the simulated table's journal is not resumed (None: it is, or there is none),
    and whether its tournament is finished: a finished tournament whose result was printed
    is played again (one whose run was stopped before prints it); an unreadable journal
    is kept aside.

    Raises:
        JournalLossError: records were lost (``accept_loss`` goes on from the last intact
            one): nothing is moved, the user chooses.
    """
    if not os.path.lexists(journal):
        return None, False
    from pi_app.cli.state import recovered_state
    from pi_app.service.journal import JournalLossError

    logging.disable(logging.WARNING)  # the run tells what it accepts, once
    try:
        state = recovered_state(str(journal), accept_loss=accept_loss)
    except JournalLossError as exc:
        raise JournalLossError(f"{exc}; or add --fresh to start a new tournament (this one "
                               "is then moved aside, not deleted)", exc.missing) from None
    except Exception as exc:  # noqa: BLE001 - whatever is wrong, the file is kept aside
        text = re.sub(r"[;,:]? the files? (was|were) not changed", "", str(exc))
        return "unreadable (" + " ".join(text.split())[:300] + ")", False
    finally:
        logging.disable(logging.NOTSET)
    if not state["summary"].get("finished"):
        return None, False
    if not _result_path(journal).exists():
        return None, True
    return "the tournament there is finished", True


def _move_aside(journal: Path, hands: Path, shots: Path) -> Path | None:
    """Move the simulated table's journal (with its -wal, -shm, mark and lock), its hand
    histories and its pictures into ``<state>/previous/<UTC time>/``; nothing is deleted.
    Returns that folder (None when there was nothing to move)."""
    import datetime

    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    dest = journal.parent / "previous" / stamp
    items = [journal.with_name(journal.name + s)
             for s in ("", "-wal", "-shm", ".mark", ".lock", ".result")]
    items = [p for p in items + [hands] if os.path.lexists(p)]
    pictures = [f for f in shots.iterdir() if (f.is_file() and (
        f.suffix == ".png" or f.name == "index.txt")) or (f.is_dir() and f.name == "seats")
        ] if shots.is_dir() else []
    if not items and not pictures:
        return None
    dest.mkdir(parents=True, mode=0o700)
    for item in items:
        os.rename(item, dest / item.name)
    if pictures:
        (dest / "screens").mkdir(mode=0o700)
        for f in pictures:
            shutil.move(str(f), dest / "screens" / f.name)
    return dest
