"""Pixel-by-pixel golden-image comparison for the hardware renderers.

Goldens live in tests/data/hardware/<name>.png.  Run with ``UPDATE_GOLDEN=1`` to (re)write
them after an intended change, then look at them before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

from tests.data_paths import data

GOLDEN_DIR = data("hardware")


def assert_golden(image: Image.Image, name: str, tmp_dir: Path | None = None) -> None:
    """Fail unless ``image`` equals the golden ``name`` pixel for pixel (both as mode "1")."""
    path = GOLDEN_DIR / f"{name}.png"
    actual = image.convert("1")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        actual.save(path)
        return
    assert path.exists(), f"golden {path} missing: run the tests with UPDATE_GOLDEN=1"
    expected = Image.open(path).convert("1")
    assert expected.size == actual.size, f"{name}: size {actual.size} != golden {expected.size}"
    if expected.tobytes() != actual.tobytes():
        diff = ImageChops.difference(expected.convert("L"), actual.convert("L"))
        n = diff.size[0] * diff.size[1] - diff.histogram()[0]
        where = ""
        if tmp_dir is not None:
            out = Path(tmp_dir) / f"{name}.actual.png"
            actual.save(out)
            where = f"; actual image written to {out}"
        raise AssertionError(f"{name}: {n} pixel(s) differ from {path}{where}")
