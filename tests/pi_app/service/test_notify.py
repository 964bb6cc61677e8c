"""sd_notify over a real Unix datagram socket (path and abstract namespace)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from pi_app.service.notify import Notifier, socket_address


def bound(addr) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(addr)
    s.settimeout(2)
    return s


def test_path_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify.sock")
    with bound(path) as s:
        n = Notifier(path)
        assert n.ready(status="hello") and s.recv(100) == b"READY=1\nSTATUS=hello"
        assert n.stopping() and s.recv(100) == b"STOPPING=1"


def test_abstract_socket() -> None:
    name = f"@pokertable-notify-{os.getpid()}"
    assert socket_address(name) == b"\0" + name[1:].encode()
    with bound(socket_address(name)) as s:
        assert Notifier(name).watchdog() and s.recv(100) == b"WATCHDOG=1"


def test_watchdog_paced_at_half_the_interval(tmp_path: Path) -> None:
    path = str(tmp_path / "n.sock")
    now = [0.0]
    with bound(path) as s:
        n = Notifier(path, watchdog_usec=10_000_000, monotonic=lambda: now[0])
        assert n.watchdog_interval == 5.0
        assert n.watchdog_if_due()          # first ping at once
        now[0] = 4.9
        assert not n.watchdog_if_due()
        now[0] = 5.0
        assert n.watchdog_if_due()
        assert [s.recv(100), s.recv(100)] == [b"WATCHDOG=1", b"WATCHDOG=1"]


def test_from_env() -> None:
    n = Notifier.from_env({"NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "4000000"})
    assert n.enabled and n.watchdog_interval == 2.0
    other = Notifier.from_env({"NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "4000000",
                               "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other.watchdog_interval is None  # meant for another process
    off = Notifier.from_env({})
    assert not off.enabled and not off.ready() and not off.watchdog_if_due()


def test_missing_socket_never_raises(tmp_path: Path, caplog) -> None:
    n = Notifier(str(tmp_path / "nobody-listens"))
    assert not n.ready() and not n.ready()
    assert caplog.text.count("cannot notify systemd") == 1
