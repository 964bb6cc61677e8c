"""Helpers for the tournament tests: reading the venues' seed sheets and driving hands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "tournament"
SEEDS = REPO.parent / "shared" / "seeds"
WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "first": 1, "second": 2, "third": 3}


def seed_text(prefix: str) -> str:
    """The text of seed ``prefix`` (``"000"``); skips the test when the seeds are absent."""
    files = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS.is_dir() else []
    if not files:
        pytest.skip(f"seed {prefix} not available under {SEEDS}")
    return " ".join(files[0].read_text(encoding="utf-8", errors="replace").split())


def number(text: str) -> int:
    """``"1,800"`` -> 1800, ``"two"`` -> 2."""
    t = text.strip().lower()
    return WORD_NUMBERS[t] if t in WORD_NUMBERS else int(t.replace(",", ""))


def find(pattern: str, text: str) -> re.Match:
    m = re.search(pattern, text, flags=re.IGNORECASE)
    assert m, f"pattern {pattern!r} not found in the seed"
    return m


def play_hand(t, now: float, winner_seat: int | None = None, amount: int = 0,
              loser_seat: int | None = None, duration: float = 30.0) -> list:
    """Start a hand at ``now``, move ``amount`` chips from ``loser_seat`` to ``winner_seat``
    (plus any bonus to the winner, or to the lowest seat) and finish it ``duration`` later."""
    setup = t.next_hand(now)
    alerts = t.hand_started(now)
    stacks = t.stacks()
    stacks = {s: c for s, c in stacks.items() if s in t.hand_start_chips}
    if winner_seat is not None and loser_seat is not None:
        moved = min(amount, stacks[loser_seat])
        stacks[loser_seat] -= moved
        stacks[winner_seat] += moved
    target = winner_seat if winner_seat is not None else min(stacks)
    stacks[target] += setup.bonus
    return alerts + t.hand_finished(now + duration, stacks)
