"""The end of a night: archive the tournament and start a new one, on the loop's thread.

When the ``end_tournament`` command has been applied (journaled first, like every
command), :func:`archive_and_renew` closes the journal (with a final snapshot), moves it,
its hand histories and the results (``results.json``, ``results.csv``) into
``<state>/archive/<YYYY-MM-DD-HHMMSS>/`` (UTC; a second archive the same second gets a
``-2`` suffix), and opens a new journal with a fresh core for the config (with the
``structure`` the director chose, if any).  Nothing is deleted: files are renamed within
the state directory, so an archive is the old files as they were.

The night's results (places, points, bounty, knockouts) are then added to the league's
season (:mod:`pi_app.service.season_store`, ``<state>/season.db``) as one night, labelled
with the archive folder's name and dated by :func:`night_date`.  A season that cannot take
them is logged, not fatal: the results stay in the archive either way.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

from engine.tournament.results import results, results_csv
from pi_app.service.core_identity import core_name
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal
from pi_app.service.season_store import Season, season_path, tournament_rows
from pi_app.service.wiring import history_dir_for

log = logging.getLogger("pokertable.console")


def archive_folder(state_dir: Path, now: dt.datetime) -> Path:
    """A new folder ``<state>/archive/<date-time>[-n]`` (mode 0700)."""
    base = state_dir / "archive" / now.strftime("%Y-%m-%d-%H%M%S")
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    folder.mkdir(parents=True, mode=0o700)
    return folder


#: A night that ends before 06:00 local time belongs to the evening before (our choice).
NIGHT_ROLLOVER = dt.timedelta(hours=6)


def night_date(now_local: dt.datetime) -> dt.date:
    """The date of the league night ending at ``now_local`` (local time): the calendar
    date, or the day before before 06:00 (:data:`NIGHT_ROLLOVER`)."""
    return (now_local - NIGHT_ROLLOVER).date()


def record_season(state_dir: Path, rows: list[dict[str, Any]], event: str,
                  now_local: dt.datetime) -> None:
    """Add one ended tournament's results to the season in ``state_dir`` (one
    transaction); a refusal or a database error is logged and changes nothing."""
    try:
        with Season(season_path(state_dir)) as season:
            season.add_results(tournament_rows(rows, night_date(now_local), event), "table")
    except (ValueError, OSError, sqlite3.Error) as exc:
        log.error("the night's results were not added to the season: %s", exc)


def archive_and_renew(service: Any, config: Any, structure: str | None = None) -> Path:
    """Archive the service's tournament and start a new one in its place (see the module
    docstring); returns the archive folder.  Runs on the loop's thread, between events."""
    loop = service.loop
    old = loop.core
    folder = archive_folder(Path(config.state_dir), dt.datetime.now(dt.UTC))
    rows = results(old.tournament)
    (folder / "results.json").write_text(json.dumps(
        {"table": config.name, "tournament": old.tournament.name,
         "results": rows, "payouts": old.tournament.payouts(),
         "summary": old.summary()}, indent=2, sort_keys=True))
    (folder / "results.csv").write_text(results_csv(old.tournament))
    record_season(Path(config.state_dir), rows, folder.name, dt.datetime.now())
    loop.final_snapshot()
    journal_path = Path(loop.journal.path)
    loop.journal.close()
    for suffix in ("", "-wal", "-shm", ".mark"):  # the journal, its WAL and high-water mark
        src = Path(f"{journal_path}{suffix}")
        if src.exists():
            os.replace(src, folder / f"{journal_path.name}{suffix}")
    hands = history_dir_for(journal_path)
    if hands.exists():
        os.replace(hands, folder / hands.name)
    new_config = dataclasses.replace(config, structure=structure) if structure else config
    core = type(old).from_config(new_config)
    meta = {"core": core_name(type(core)), "table": config.name}
    journal = Journal.create(journal_path, core.snapshot(), meta=meta,
                             snapshot_every=config.snapshot_every)
    loop.core, loop.journal, service.journal = core, journal, journal
    runner = loop.effects
    if isinstance(runner, EffectRunner):
        runner.history_dir = history_dir_for(journal_path)
    loop.render(force=True)
    log.info("tournament archived in %s; a new one is set up", folder)
    return folder
