"""``pokertable run``: the simulated table from the embedded default config, and the service
loop on mocked devices, started and stopped cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from pi_app.service.config import default_config_text
from tests.pi_app.cli.helpers import assert_one_error_line, run_main


def _config(tmp_path, **replace) -> str:
    text = default_config_text().replace('directory = ""', f'directory = "{tmp_path / "state"}"')
    for old, new in replace.items():
        text = text.replace(old, new)
    path = tmp_path / "table.toml"
    path.write_text(text)
    return str(path)


def _cli(*args, env=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_run_plays_the_simulated_table_and_says_where_the_pictures_are(tmp_path):
    cfg = _config(tmp_path, **{"count = 6": "count = 4"})
    r = _cli("run", "--config", cfg, "--headless")
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.strip().splitlines()
    summary = json.loads(lines[-1])
    assert len(summary["final_stacks"]) == 1 and sorted(summary["places"].values()) == [1, 2, 3, 4]
    shots = tmp_path / "state" / "screens"
    assert str(shots) in r.stdout
    assert (shots / "index.txt").exists() and list(shots.glob("tv-*-level-01.png"))
    # a second run starts a new tournament (the finished one is not resumed)
    r2 = _cli("run", "--config", cfg, "--headless")
    assert r2.returncode == 0 and json.loads(r2.stdout.strip().splitlines()[-1]) == summary


def test_service_on_mock_devices_starts_notifies_and_stops_on_sigterm(tmp_path):
    cfg = _config(tmp_path)
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(30)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="2000000",
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    p = subprocess.Popen([sys.executable, "-m", "pi_app.cli.main", "run", "--service", "--config",
                          cfg, "--headless"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    try:
        got = []
        deadline = time.monotonic() + 60
        while "READY=1" not in "".join(got) and time.monotonic() < deadline:
            got.append(sock.recv(4096).decode())
        assert "READY=1" in "".join(got)
        got.append(sock.recv(4096).decode())  # a watchdog ping while healthy
        assert any("WATCHDOG=1" in g for g in got)
        time.sleep(1.0)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        sock.close()
    assert p.returncode == 0, err[-3000:]
    journal = tmp_path / "state" / "journal.db"
    assert journal.exists() and (journal.stat().st_mode & 0o777) == 0o600
    state = _cli("state", "--journal", str(journal), "--json")
    assert state.returncode == 0, state.stderr
    report = json.loads(state.stdout)
    assert report["recovery"]["last_seq"] >= 1  # the restart command at least


def test_bad_config_is_one_line_exit_2(tmp_path):
    cfg = _config(tmp_path, **{"count = 6": "count = 12"})
    r = _cli("run", "--config", cfg)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "seats.count" in r.stderr
    r = _cli("run", "--config", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_restart_pauses_the_clock_as_of_the_stop_not_of_the_restart(tmp_path):
    """The time the service was down does not come off the level (docs/operations.md)."""
    import pytest

    from pi_app.cli.state import recovered_state
    from pi_app.service.clock_source import VirtualClock
    from pi_app.service.daemon import _after_restart
    from pi_app.service.wiring import build_service
    from pi_app.sim.simulator import SimOptions, Simulation

    j = tmp_path / "j.db"
    Simulation(SimOptions(players=4, seed=2, hands=2, backend="direct", journal=str(j))).run()
    before = recovered_state(str(j))["screen"]["clock"]
    assert before["running"] is True
    svc = build_service(None, clock=VirtualClock(before["remaining_seconds"] + 50_000.0),
                        journal_path=j)
    try:
        _after_restart(svc)
        svc.loop.pump()  # the first clock tick, long after the stop
        clock = svc.loop.screen_state().clock
        assert clock.running is False
        assert clock.level_number == before["level_number"]
        assert clock.remaining_seconds == pytest.approx(before["remaining_seconds"], abs=0.01)
    finally:
        svc.close()


def _entries(*folders):
    """Every entry below ``folders``, links not followed: (mode, bytes or link target)."""
    out = {}
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            st = p.lstat()
            what = os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file() else b""
            out[str(p)] = (st.st_mode, what)
    return out


@pytest.mark.parametrize(("linked", "kind"), [
    ("sim-journal.db", "symbolic link"), ("sim-journal.db-wal", "symbolic link"),
    ("sim-journal.db.mark", "symbolic link"), ("sim-journal.db.mark", "named pipe"),
    ("sim-journal.db.lock", "symbolic link")])
def test_a_symlinked_simulator_journal_is_refused_not_moved_aside(tmp_path, capsys, linked,
                                                                  kind):
    """As everywhere else: one line, exit 2; the link (or pipe) stays, nothing is moved
    aside, a link's target is neither written nor moved (it once went to previous/ as
    "unreadable", the high-water mark's too)."""
    cfg = _config(tmp_path)
    state, away = tmp_path / "state", tmp_path / "away"
    state.mkdir()
    away.mkdir()
    if linked != "sim-journal.db":
        (state / "sim-journal.db").write_bytes(b"")
    (away / "target").write_bytes(b"the night's record" * 10)
    if kind == "named pipe":
        os.mkfifo(state / linked, 0o600)
    else:
        (state / linked).symlink_to(away / "target")
    before = _entries(state, away)
    for extra in ([], ["--fresh"]):
        rc, out, err = run_main(["run", "--config", cfg, "--headless", *extra], capsys)
        assert rc == 2 and out == "", (extra, out)
        assert_one_error_line(err, f"{state / linked}: is a {kind}, not a regular file")
        assert _entries(state, away) == before, extra
    assert not (state / "previous").exists()
