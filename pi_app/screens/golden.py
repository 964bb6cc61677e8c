"""Golden images of the TV screens: render, compare with a tolerance, regenerate.

Usage::

    .venv/bin/python -m pi_app.screens.golden --update      # rewrite tests/data/screens/*.png
    .venv/bin/python -m pi_app.screens.golden --check       # compare, exit 1 on a mismatch
    .venv/bin/python -m pi_app.screens.golden --out DIR     # render every case into DIR

(``UPDATE_GOLDEN=1`` with the golden tests does the same as ``--update``.)  Runs on SDL's
dummy video driver; no window is opened.

Tolerance (font rasterising differs slightly between FreeType builds): a pixel *differs*
when any channel differs by more than :data:`CHANNEL_TOL`; an image matches when at most
:data:`MAX_DIFF_FRACTION` of its pixels differ.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from PIL import Image, ImageChops  # noqa: E402

from pi_app.screens import regressions, samples  # noqa: E402
from pi_app.screens.render import draw_screen  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "screens"
CHANNEL_TOL = 40
MAX_DIFF_FRACTION = 0.004


def cases() -> dict[str, tuple[object, tuple[int, int]]]:
    """Every golden case: the literal samples (:mod:`pi_app.screens.samples`) and the states
    the engine makes for the issue-15 display bugs (:mod:`pi_app.screens.regressions`)."""
    return {**samples.cases(), **regressions.cases()}


@dataclass(frozen=True)
class Comparison:
    """Result of comparing a frame with its golden PNG."""

    ok: bool
    differing: int
    total: int
    reason: str = ""

    @property
    def fraction(self) -> float:
        return self.differing / self.total if self.total else 1.0


def render(name: str) -> pygame.Surface:
    """Render golden case ``name`` (see :func:`pi_app.screens.samples.cases`).

    Raises:
        KeyError: unknown case name.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    state, size = cases()[name]
    surf = pygame.Surface(size)
    draw_screen(surf, state)  # type: ignore[arg-type]
    return surf


def to_image(surface: pygame.Surface) -> Image.Image:
    return Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))


def compare(surface: pygame.Surface, golden: Path) -> Comparison:
    """Compare ``surface`` with the PNG at ``golden`` under the tolerance above."""
    if not golden.exists():
        return Comparison(False, 0, 0, f"missing {golden} (run with --update)")
    want = Image.open(golden).convert("RGB")
    got = to_image(surface)
    total = got.width * got.height
    if want.size != got.size:
        return Comparison(False, total, total, f"size {got.size} != golden {want.size}")
    diff = ImageChops.difference(got, want)
    # a pixel differs when its largest channel difference exceeds the tolerance
    r, g, b = diff.split()
    mx = ImageChops.lighter(ImageChops.lighter(r, g), b)
    hist = mx.histogram()
    differing = sum(hist[CHANNEL_TOL + 1:])
    ok = differing <= MAX_DIFF_FRACTION * total
    return Comparison(ok, differing, total,
                      "" if ok else f"{differing} of {total} pixels differ by > {CHANNEL_TOL}")


def save(surface: pygame.Surface, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    to_image(surface).save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pi_app.screens.golden",
                                description="Golden images of the TV screens.")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--update", action="store_true", help="rewrite the golden PNGs")
    g.add_argument("--check", action="store_true", help="compare with the golden PNGs")
    g.add_argument("--out", metavar="DIR", help="render every case into DIR")
    p.add_argument("--dir", default=str(GOLDEN_DIR), help="golden folder (default: %(default)s)")
    args = p.parse_args(argv)
    pygame.init()
    bad = 0
    for name in cases():
        surf = render(name)
        if args.update:
            save(surf, Path(args.dir) / f"{name}.png")
            print(f"wrote {Path(args.dir) / (name + '.png')}")
        elif args.out:
            save(surf, Path(args.out) / f"{name}.png")
            print(f"wrote {Path(args.out) / (name + '.png')}")
        else:
            c = compare(surf, Path(args.dir) / f"{name}.png")
            print(f"{'ok  ' if c.ok else 'FAIL'} {name}: {c.fraction:.5f} differing {c.reason}")
            bad += not c.ok
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
