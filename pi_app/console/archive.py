"""The end of a night: archive the tournament and start a new one, on the loop's thread.

When the ``end_tournament`` command has been applied (journaled first, like every
command), :func:`archive_and_renew` closes the journal (with a final snapshot), moves it,
its hand histories and the results (``results.json``, ``results.csv``) into
``<state>/archive/<YYYY-MM-DD-HHMMSS>/`` (UTC; a second archive the same second gets a
``-2`` suffix), and opens a new journal with a fresh core for the config (with the
``structure`` the director chose, if any).  Nothing is deleted: files are renamed within
the state directory, so an archive is the old files as they were.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import os
from pathlib import Path
from typing import Any

from engine.tournament.results import results, results_csv
from pi_app.service.core_identity import core_name
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal
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


def archive_and_renew(service: Any, config: Any, structure: str | None = None) -> Path:
    """Archive the service's tournament and start a new one in its place (see the module
    docstring); returns the archive folder.  Runs on the loop's thread, between events."""
    loop = service.loop
    old = loop.core
    folder = archive_folder(Path(config.state_dir), dt.datetime.now(dt.UTC))
    (folder / "results.json").write_text(json.dumps(
        {"table": config.name, "tournament": old.tournament.name,
         "results": results(old.tournament), "payouts": old.tournament.payouts(),
         "summary": old.summary()}, indent=2, sort_keys=True))
    (folder / "results.csv").write_text(results_csv(old.tournament))
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
