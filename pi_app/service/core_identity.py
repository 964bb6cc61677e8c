"""Which table core wrote a journal.

A journal records the name of the core class that wrote it (``meta["core"]``, e.g.
``"engine.table.core:TableCore"``).  The service restores it with a class it was given (the
real :class:`engine.table.core.TableCore` unless a test or a bench passes its own), and
refuses a journal written by another class instead of misreading it.  Nothing is imported
by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.errors import PokerTableError


class CoreMismatchError(PokerTableError, ValueError):
    """A journal written by another table core class than the one restoring it."""


def core_name(cls: type) -> str:
    """``"module:QualName"`` of a core class, as a journal's meta records it."""
    return f"{cls.__module__}:{cls.__qualname__}"


def check_core(meta: Mapping[str, str], cls: type, path: str | Path) -> None:
    """Raise :class:`CoreMismatchError` unless the journal at ``path`` (its ``meta``) was
    written by ``cls`` (a journal without the record is taken as written by it)."""
    wrote = meta.get("core")
    if wrote and wrote != core_name(cls):
        raise CoreMismatchError(f"{path}: this journal was written by the core {wrote}, "
                                f"not {core_name(cls)}; it was not changed")
