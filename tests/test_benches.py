"""Every bench runs once in a tiny size, so that none can rot (bench/run_all.py TINY).

Nothing here judges a figure: speed is measured in bench/, never asserted by a test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from run_all import SHORT, TINY  # noqa: E402

HELPERS = {"run_all.py", "common.py"}


def test_every_bench_has_a_tiny_and_a_make_bench_form():
    scripts = {p.name for p in BENCH.glob("*.py")} - HELPERS
    assert scripts == set(TINY), "a bench without a tiny form in bench/run_all.py"
    assert scripts == {name for name, _ in SHORT}, "a bench left out of make bench"


@pytest.mark.parametrize("name", sorted(TINY))
def test_bench_runs_once_in_a_tiny_size(name, tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(tmp_path))
    r = subprocess.run([sys.executable, str(BENCH / name), *TINY[name]], env=env,
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, f"{name} failed:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{name} printed no figure"
    assert "Traceback" not in r.stderr


def test_the_venue_bench_times_a_move_from_the_bust_to_its_announcement_and_its_seat():
    from bench_venue_live import move_latencies

    def public(t, table, players, moves=(), planned=()):
        return (t, f"pokertable/1/table/{table}/public",
                {"kind": "table_public", "body": {"players": [[p, 1, 5] for p in players],
                                                  "moves": [list(m) for m in moves],
                                                  "planned": [list(m) for m in planned]}})

    bust = (10.0, "pokertable/1/table/1/report",
            {"kind": "hand_finished", "body": {"busted": [["Cy", 100]]}})
    move = (10.2, "pokertable/1/table/1/command",
            {"kind": "move", "body": {"player": "Bob", "to_table": 2}})
    announced = (("Bob", 1, 2),)
    messages = [bust, move, public(10.3, 1, ["Ann", "Bob"], announced),
                public(10.5, 2, ["Dee"], announced), public(12.0, 1, ["Ann"], announced),
                public(13.0, 2, ["Dee", "Bob"])]
    [(shown, seated, from_command, _decided)] = move_latencies(messages)
    assert (round(shown, 3), round(seated, 3), round(from_command, 3)) == (0.5, 3.0, 2.8)
    unannounced = [bust, move, public(12.0, 1, ["Ann"]), public(13.0, 2, ["Dee", "Bob"])]
    assert [round(x, 3) for x in move_latencies(unannounced)[0]] == [3.0, 3.0, 2.8, 0.2]
    # decided at the bust (table 1 gives one to table 2), named at table 1's boundary;
    # a later bust elsewhere is not the one that made the move due
    other = (10.5, "pokertable/1/table/3/report",
             {"kind": "hand_finished", "body": {"busted": [["Zed", 100]]}})
    later = (11.0, move[1], move[2])
    state = (10.02, "pokertable/1/director/state",
             {"kind": "venue_state", "body": {"pending": [], "planned": [[1, 2]]}})
    planned = [bust, state, public(10.05, 2, ["Dee"], planned=((1, 2),)),
               public(10.08, 1, ["Ann", "Bob"], planned=((1, 2),)), other, later,
               public(11.1, 1, ["Ann", "Bob"], announced), public(11.1, 2, ["Dee"], announced),
               public(12.0, 1, ["Ann"], announced), public(13.0, 2, ["Dee", "Bob"])]
    assert [round(x, 3) for x in move_latencies(planned)[0]] == [0.08, 3.0, 2.0, 0.02]
    final = (14.0, "pokertable/1/table/2/command",
             {"kind": "move", "body": {"player": "Dee", "to_table": 2}})
    assert len(move_latencies([*planned, final, public(15.0, 2, ["Bob"])])) == 1


@pytest.mark.parametrize(("name", "ending"), [
    ("bench_service.py", "renderer at 1920x1080 on SDL's ``dummy`` driver."),
    ("bench_idle.py", "with the clock running (issue 14, item 2), on the issue's own recipe.")])
def test_help_describes_the_bench_in_a_whole_sentence(name, ending):
    """``--help`` once cut its description at the docstring's first line break ("(WAL,")."""
    r = subprocess.run([sys.executable, str(BENCH / name), "--help"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    description = " ".join(r.stdout.split("\n\n")[1].split())
    assert description.endswith(ending) and description.count(".") == 1, r.stdout
