"""Issue 10's league night on a real table service (mock hardware, loopback), through
``pokertable ctl`` and HTTP; and the same night SIGKILLed in the middle and restarted gives
the same results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.pi_app.console.night import first_half, load_script, second_half
from tests.pi_app.console.table_process import Table

pytestmark = pytest.mark.slow


def _places(results: dict) -> dict[str, int]:
    return {r["name"]: r["place"] for r in results["results"]}


def _whole_night(folder: Path, script: dict) -> dict:
    """The night played through on a table of its own; its ``results --json``."""
    folder.mkdir()
    table = Table(folder).start()
    try:
        dealer, _ = first_half(table, script)
        results = second_half(table, script, dealer)
        assert table.stop() == 0
    finally:
        table.close()
    return results


def _night_killed_and_restarted(folder: Path, script: dict) -> dict:
    """The same night on another table, SIGKILLed in the middle and restarted."""
    folder.mkdir()
    again = Table(folder).start()
    try:
        dealer, _ = first_half(again, script)
        again.kill()  # SIGKILL in the middle of the night
        again.start()
        status, doc = again.get("/api/status")
        assert status == 200 and doc["clock"]["running"] is False  # paused by the restart
        assert again.ctl("resume").returncode == 0
        return second_half(again, script, dealer)
    finally:
        again.close()


def test_a_whole_league_night_then_the_same_night_killed_and_restarted(tmp_path):
    script = load_script()
    # two tables of their own (folders, ports): both nights are played at once
    with ThreadPoolExecutor(max_workers=2) as pool:
        whole = pool.submit(_whole_night, tmp_path / "a", script)
        killed = pool.submit(_night_killed_and_restarted, tmp_path / "b", script)
        results, results2 = whole.result(), killed.result()
    places = _places(results)
    assert sorted(places.values()) == list(range(1, len(script["walk_ins"]) + 2))
    assert (tmp_path / "a" / "results.csv").read_text().count("\n") == len(places) + 1
    assert _places(results2) == places
    assert results2["results"] == results["results"]
