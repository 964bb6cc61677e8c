"""The table process freezes its startup heap once, after its imports and before its
journal is recovered (pi_app/service/heap.py).

A freeze lasts for the whole process, so every check that freezes runs in a process of
its own: the test process's heap is never frozen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pi_app.cli import run as run_cli_module
from pi_app.cli.main import main
from tests.pi_app.service.helpers import REPO, env_with

# ``main(argv)`` in a fresh process; the freeze count when the journal's recovery starts
# (the service's build calls ``recover``; None when nothing was recovered) and at the end.
DRIVER = """
import gc, sys
import pi_app.service.wiring as wiring
from pi_app.cli.main import main

at_recover = []
real = wiring.recover

def recover(*a, **kw):
    at_recover.append(gc.get_freeze_count())
    return real(*a, **kw)

wiring.recover = recover
before = gc.get_freeze_count()
rc = main(sys.argv[1:])
print("FREEZE", rc, before, at_recover[0] if at_recover else None, gc.get_freeze_count())
"""


def _freeze_counts(argv: list[str], cwd: Path) -> tuple[int, int, int | None, int]:
    """``(exit status, frozen before main, frozen when recovery began, frozen at the end)``
    of ``pokertable argv`` run by :data:`DRIVER` in a new process."""
    proc = subprocess.run([sys.executable, "-c", DRIVER, *argv], cwd=cwd, check=False,
                          env=env_with(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
                          capture_output=True, text=True, timeout=180)
    line = [x for x in proc.stdout.splitlines() if x.startswith("FREEZE ")]
    assert line, proc.stdout[-2000:] + proc.stderr[-2000:]
    rc, before, at_recover, after = line[-1].split()[1:]
    return (int(rc), int(before), None if at_recover == "None" else int(at_recover),
            int(after))


def test_freeze_startup_heap_freezes_what_is_alive_in_its_process():
    code = ("import gc\nfrom pi_app.service.heap import freeze_startup_heap\n"
            "keep = [[i] for i in range(5000)]\n"
            "before = gc.get_freeze_count()\nn = freeze_startup_heap()\n"
            "print(before, n, gc.get_freeze_count(), gc.get_count()[0])\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env_with(),
                          capture_output=True, text=True, timeout=60, check=True)
    before, n, count, young = (int(x) for x in proc.stdout.split())
    assert before == 0
    assert n == count and n > 5000  # the 5,000 lists kept alive are among them
    assert young == 0  # nothing is left for the young generation's next pass


def test_a_resumed_simulated_table_is_frozen_before_its_journal_is_recovered(tmp_path):
    journal = str(tmp_path / "j.db")
    first = _freeze_counts(["sim", "--seed", "3", "--hands", "1", "--direct",
                            "--journal", journal, "--json"], REPO)
    assert first[0] == 0 and first[1] == 0
    assert first[2] is None  # a new journal: nothing to recover
    assert first[3] > 0
    rc, before, at_recover, _ = _freeze_counts(
        ["sim", "--seed", "3", "--hands", "2", "--direct", "--journal", journal, "--resume",
         "--json"], REPO)
    assert (rc, before) == (0, 0)
    assert at_recover is not None and at_recover > 10_000  # the imports, frozen already


def _record_calls(monkeypatch: pytest.MonkeyPatch, target: str, name: str,
                  calls: list[str]) -> None:
    """Replace ``target.name`` by a stand-in that records ``"run"`` and returns what each
    entry point expects (0, or a summary)."""
    def stand_in(*_a, **_kw):
        calls.append("run")
        if name == "run_daemon":
            return 0
        return {"hands_played": 0, "places": {}, "final_stacks": {}, "history_sha256": ""}

    monkeypatch.setattr(f"{target}.{name}", stand_in)


@pytest.mark.parametrize("argv, target, name", [
    (["sim", "--hands", "1", "--direct"], "pi_app.sim.simulator", "run_sim"),
    (["sim", "--venue-table", "1", "--venue-config", "v.toml"], "pi_app.sim.venue_table",
     "run_venue_table"),
    (["run", "--headless", "--fresh"], "pi_app.cli.run", "_play"),  # builds, then plays
    (["run", "--service"], "pi_app.service.daemon", "run_daemon"),
], ids=["sim", "venue-table", "run-simulated", "run-service"])
def test_each_table_entry_point_freezes_once_before_the_table_starts(
        argv, target, name, tmp_path, monkeypatch, capsys):
    calls: list[str] = []
    monkeypatch.setattr("pi_app.service.heap.freeze_startup_heap",
                        lambda: calls.append("freeze") or 1)
    _record_calls(monkeypatch, target, name, calls)
    monkeypatch.setattr(run_cli_module, "_prepare_sim_journal",
                        lambda *a: (tmp_path / "sim-journal.db", False))
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0, capsys.readouterr().err
    assert calls == ["freeze", "run"]
