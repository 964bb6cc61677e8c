"""Hand histories on disk that go past the journal: records the journal no longer has.

A hand's history (``<journal stem>-hands/hand-NNNNNN.phh``, and its public copy under
``public/``) is written only after the record that ended the hand was committed, so a
journal always holds every hand whose history is on disk.  A history of a later hand than
the journal's last finished one means the journal lost records (restored from an older
backup with its mark, or its mark lost too): that is refused like any other loss
(:class:`JournalLossError`), before anything is written.  With ``--accept-journal-loss``
those histories are moved aside (``past-journal-<UTC time>/`` in the same folder), never
overwritten by the hands played again.
"""

from __future__ import annotations

import datetime
import logging
import os
import re
from pathlib import Path
from typing import Any

from pi_app.service.journal_files import JournalLossError

log = logging.getLogger(__name__)

_NAME = re.compile(r"hand-(\d{1,9})\.phh")


def hands_on_disk(history_dir: Path) -> dict[int, list[Path]]:
    """Hand number -> its history files (private and public) in ``history_dir``."""
    out: dict[int, list[Path]] = {}
    for folder in (history_dir, history_dir / "public"):
        try:
            names = os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            m = _NAME.fullmatch(name)
            if m is not None:
                out.setdefault(int(m.group(1)), []).append(folder / name)
    return out


def hands_in_journal(core: Any) -> int | None:
    """The last hand the recovered ``core`` finished (None: a core without hands)."""
    number = getattr(core, "hand_number", None)
    if not isinstance(number, int):
        return None
    return number - 1 if getattr(core, "in_hand", False) else number


def check_histories(core: Any, history_dir: Path, journal: Path, *, accept_loss: bool,
                    move: bool) -> list[int]:
    """Refuse a journal that ends before the hand histories beside it.

    ``core`` is the core recovered from ``journal`` (a new journal's fresh core: hand 0).
    Returns the hand numbers past the journal (empty: none).  With ``accept_loss`` they are
    logged and, with ``move``, their files moved aside.

    Raises:
        JournalLossError: histories past the journal, without ``accept_loss``; the
            message names the newest history file and how many hands are missing.
    """
    last = hands_in_journal(core)
    if last is None:
        return []
    past = sorted(n for n in hands_on_disk(history_dir) if n > last)
    if not past:
        return []
    files = hands_on_disk(history_dir)
    newest = min(files[past[-1]], key=lambda p: len(p.parts))
    held = f"ends in hand {last}" if last else "holds no finished hand"
    text = (f"{newest} records hand {past[-1]}, but the journal {journal} {held}: "
            f"{len(past)} hand{'s' if len(past) != 1 else ''} missing from it")
    if not accept_loss:
        raise JournalLossError(f"{text}; restore the journal from a backup, or add "
                               "--accept-journal-loss to go on without them", len(past))
    if move:
        text += f"; their histories moved to {_move_aside(history_dir, past, files)}"
    log.warning("journal loss accepted (--accept-journal-loss): %s", text)
    return past


def _move_aside(history_dir: Path, past: list[int], files: dict[int, list[Path]]) -> Path:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    dest = history_dir / f"past-journal-{stamp}"
    dest.mkdir(mode=0o700)
    (dest / "public").mkdir(mode=0o700)
    for number in past:
        for f in files[number]:
            os.rename(f, dest / f.relative_to(history_dir))
    return dest
