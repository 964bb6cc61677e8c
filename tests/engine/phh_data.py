"""Where the PHH test data live: our own fixtures and the real hands, all in tests/data/."""

from __future__ import annotations

from pathlib import Path

from tests.data_paths import DATA, REAL_PHH, real_phh_files

FIXTURES = DATA / "phh"


def shared_phh_dir() -> Path:
    """The real hands (``tests/data/phh/real``, with their SOURCE.md and MIT license)."""
    return REAL_PHH


def real_files() -> list[Path]:
    return real_phh_files()
