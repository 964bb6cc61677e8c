"""The daemon life cycle: READY/WATCHDOG/STOPPING over a real notify socket, clean stop on
SIGTERM and SIGINT, a final snapshot, and a resume from the same journal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_app.service.core_identity import CoreMismatchError
from pi_app.service.journal import Journal
from pi_app.service.recovery import recover
from pi_app.service.wiring import JournalExistsError, build_service
from tests.pi_app.service.fake_core import FakeCore
from tests.pi_app.service.helpers import REPO, env_with


def start(journal: Path, sock_name: str, watchdog_usec: int = 200_000) -> subprocess.Popen:
    env = env_with(NOTIFY_SOCKET=sock_name, WATCHDOG_USEC=str(watchdog_usec))
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen([sys.executable, "-m", "tests.pi_app.service.service_driver", "--journal",
                             str(journal)], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def receive(sock: socket.socket, until: str, timeout: float = 20) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = sock.recv(4096).decode()
        except TimeoutError:
            break
        got.extend(data.split("\n"))
        if until in data:
            return got
    raise AssertionError(f"never got {until!r}; got {got}")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_ready_watchdog_and_clean_stop(tmp_path: Path, sig: int) -> None:
    name = f"@pokertable-test-{os.getpid()}-{sig}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name[1:].encode())
    journal = tmp_path / "state" / "journal.db"
    proc = start(journal, name)
    try:
        msgs = receive(sock, "READY=1")
        msgs += receive(sock, "WATCHDOG=1")
        time.sleep(0.5)
        msgs += receive(sock, "WATCHDOG=1")
        proc.send_signal(sig)
        msgs += receive(sock, "STOPPING=1")
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert proc.returncode == 0, err
    assert "ready" in out and "exit 0" in out and "closed after" in err
    assert msgs.index("READY=1") < msgs.index("STOPPING=1")
    assert msgs.count("WATCHDOG=1") >= 3  # 0.1 s pings over more than half a second
    assert any(m.startswith("STATUS=table ready") for m in msgs)
    wal = journal.with_name("journal.db-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed on close
    # stopped cleanly: a final snapshot of the last record; resumable to the same state
    with Journal.open(journal) as j:
        scan = j.scan()
        assert scan.snapshot_seq == j.last_seq and scan.events == []
        core = recover(j, FakeCore).core
        assert core.s["hand"] is not None and core.s["applied"] == j.last_seq


def test_build_service_resume_rules(tmp_path: Path) -> None:
    j = tmp_path / "j.db"
    s = build_service(None, journal_path=j, core_factory=FakeCore)
    assert s.recovered is None and s.journal.meta["core"] == "tests.pi_app.service.fake_core:FakeCore"
    s.close()
    with pytest.raises(JournalExistsError, match="already exists"):
        build_service(None, journal_path=j, core_factory=FakeCore, resume=False)
    with pytest.raises(CoreMismatchError, match="written by the core tests.pi_app.service"):
        build_service(None, journal_path=j)  # the real core does not read the fake's journal
    s = build_service(None, journal_path=j, core_class=FakeCore)
    assert isinstance(s.core, FakeCore) and s.recovered is not None
    s.close()
