"""Shared helpers for the whole-table tests."""

from __future__ import annotations

import os
from pathlib import Path

from tests.data_paths import real_phh_files

REPO = Path(__file__).resolve().parents[2]


def phh_files() -> list[Path]:
    """The real PHH hand histories shipped in tests/data/phh/real."""
    return real_phh_files()
