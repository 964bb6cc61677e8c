"""Shared helpers for the whole-table tests."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    """``../shared`` beside the repository (CI lays a copy there), or $POKERTABLE_SHARED."""
    env = os.environ.get("POKERTABLE_SHARED")
    if env:
        return Path(env)
    return REPO.parent / "shared"


def phh_files() -> list[Path]:
    files = sorted((shared_dir() / "data" / "phh").glob("*.phh*"))
    assert files, f"no PHH files under {shared_dir()}"
    return files
