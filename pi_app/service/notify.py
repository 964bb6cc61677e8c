"""systemd service notifications (``sd_notify``): READY=1, WATCHDOG=1, STOPPING=1, STATUS=.

Choice: our own ~40 lines over :mod:`socket` rather than a package.  ``sdnotify`` (pure
Python) has had no release since 2017; the maintained bindings (``systemd-python``,
``cysystemd``) are C/Cython extensions that need libsystemd headers to build on the Pi,
a heavy dependency for one datagram.  The protocol is stable and documented in
sd_notify(3): send newline-separated ``KEY=VALUE`` lines as one datagram to the Unix
socket named by ``$NOTIFY_SOCKET``; a name starting with ``@`` is in the abstract
namespace (leading NUL byte).  ``$WATCHDOG_USEC`` (and ``$WATCHDOG_PID``, when set, must
be our pid) gives the watchdog interval; we ping at half of it, as sd_watchdog_enabled(3)
recommends.

Outside systemd (no ``$NOTIFY_SOCKET``) every call is a no-op.  Sending never raises: a
failure is logged once.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def socket_address(name: str) -> str | bytes:
    """The ``sendto`` address for ``$NOTIFY_SOCKET`` (``@name`` -> abstract ``b"\\0name"``)."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


class Notifier:
    """Talks to systemd's notify socket.

    Args:
        socket_name: the value of ``$NOTIFY_SOCKET`` (None: disabled).
        watchdog_usec: the value of ``$WATCHDOG_USEC`` in microseconds (None: no watchdog).
        monotonic: the time source for pacing pings (seconds).
    """

    def __init__(self, socket_name: str | None, watchdog_usec: int | None = None, *,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.socket_name = socket_name or None
        self.watchdog_usec = watchdog_usec if watchdog_usec and watchdog_usec > 0 else None
        self._monotonic = monotonic
        self._last_ping: float | None = None
        self._warned = False
        self.sent: list[str] = []  # the last few messages, for diagnostics and tests

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Notifier:
        """From ``$NOTIFY_SOCKET``, ``$WATCHDOG_USEC`` and ``$WATCHDOG_PID``."""
        env = os.environ if env is None else env
        usec: int | None = None
        try:
            usec = int(env.get("WATCHDOG_USEC", "") or 0) or None
        except ValueError:
            usec = None
        pid = env.get("WATCHDOG_PID")
        if usec and pid and pid.isdigit() and int(pid) != os.getpid():
            usec = None  # the watchdog is meant for another process
        return cls(env.get("NOTIFY_SOCKET"), usec)

    @property
    def enabled(self) -> bool:
        return self.socket_name is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pings: half of ``WatchdogSec``; None without a watchdog."""
        return None if self.watchdog_usec is None else self.watchdog_usec / 2e6

    def send(self, *lines: str) -> bool:
        """Send ``lines`` as one datagram; True if it was sent."""
        if self.socket_name is None:
            return False
        payload = "\n".join(lines).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
                s.sendto(payload, socket_address(self.socket_name))
        except OSError as exc:
            if not self._warned:
                log.warning("cannot notify systemd at %s: %s", self.socket_name, exc)
                self._warned = True
            return False
        self.sent = (self.sent + list(lines))[-20:]
        return True

    def ready(self, status: str | None = None) -> bool:
        """READY=1 (after the devices are initialised)."""
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        """WATCHDOG=1 now."""
        self._last_ping = self._monotonic()
        return self.send("WATCHDOG=1")

    def watchdog_if_due(self) -> bool:
        """WATCHDOG=1 if half the watchdog interval has passed since the last ping."""
        interval = self.watchdog_interval
        if interval is None or self.socket_name is None:
            return False
        now = self._monotonic()
        if self._last_ping is not None and now - self._last_ping < interval:
            return False
        return self.watchdog()
