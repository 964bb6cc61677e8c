"""Where the PHH test data live: our own fixtures and the shared real hands."""

from __future__ import annotations

import os
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "phh"


def shared_phh_dir() -> Path:
    """../shared/data/phh beside the clone (CI keeps a copy there), or $POKERTABLE_SHARED/data/phh.

    Fails loudly (rather than skipping) when the real hands are missing: they are part
    of what the suite must prove.
    """
    env = os.environ.get("POKERTABLE_SHARED")
    candidates = ([Path(env) / "data" / "phh"] if env else []) + [
        Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "phh",
    ]
    for c in candidates:
        if (c / "SOURCE.md").is_file():
            return c.resolve()
    raise FileNotFoundError(
        "real PHH hands not found; looked in " + ", ".join(map(str, candidates))
        + " (set POKERTABLE_SHARED to the shared folder)")


def real_files() -> list[Path]:
    d = shared_phh_dir()
    return sorted(list(d.glob("*.phh")) + list(d.glob("*.phhs")))
