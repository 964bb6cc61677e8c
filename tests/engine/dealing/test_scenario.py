"""Every scenario script in tests/data/dealing/ replays to the rulings its header expects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.dealing.scenario import check_expect, load_scenario, run_scenario
from tests.data_paths import data

DATA = data("dealing")
FILES = sorted(DATA.glob("*.jsonl"))


def test_every_row_has_a_scenario():
    rows = set()
    for f in FILES:
        header = json.loads(f.read_text().splitlines()[0])
        rows.update(header.get("expect", {}).get("rows", []))
    names = {f.stem for f in FILES}
    for r in [f"D{i}" for i in range(1, 15)] + [f"B{i}" for i in range(1, 9)]:
        stem = f"{r[0].lower()}{int(r[1:]):02d}_"
        assert any(n.startswith(stem) for n in names), f"no scenario file for row {r}"
    # every row but D14 (an outcome, not a ruling) is named by some ruling
    assert {f"D{i}" for i in range(1, 14)} - {"D14"} <= rows | {"D14"}
    assert {f"B{i}" for i in range(1, 9)} <= rows
    for n in range(2, 11):
        assert f"clean_{n:02d}_seats" in names
    assert "clean_heads_up" in names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path):
    sc = load_scenario(str(path))
    expect = sc.header.get("expect")
    assert expect is not None, "every scenario states what it expects"
    result = run_scenario(sc)
    assert check_expect(result, expect) == []
    final = result.lines[-1]
    assert final["event"] == "final"
    # chips never appear or vanish
    assert sum(final["stacks"].values()) == sum(sc.header["seats"].values())
