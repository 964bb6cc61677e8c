"""Shared helpers for the whole-table tests."""

from __future__ import annotations

from pathlib import Path

from tests.data_paths import real_phh_files


def phh_files() -> list[Path]:
    """The real PHH hand histories shipped in tests/data/phh/real."""
    return real_phh_files()
