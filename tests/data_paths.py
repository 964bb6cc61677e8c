"""The one locator for test data: everything a test reads lives under ``tests/data/``.

Tests never read outside the repository, so a clone with nothing beside it passes.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
REAL_PHH = DATA / "phh" / "real"  # real hands from uoftcprg/phh-dataset (MIT), see SOURCE.md there


def data(*parts: str) -> Path:
    """A path under ``tests/data/`` (``data("phh", "broken.phh")``)."""
    return DATA.joinpath(*parts)


def real_phh_files() -> list[Path]:
    """The real PHH hand-history files shipped in ``tests/data/phh/real``."""
    files = sorted(list(REAL_PHH.glob("*.phh")) + list(REAL_PHH.glob("*.phhs")))
    assert files, f"no PHH files under {REAL_PHH}"
    return files
