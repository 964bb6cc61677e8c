"""Whether a device works, with the retry back-off and the status events: one helper for
every adapter (keys, seat displays, TV).

A :class:`Health` is told what happens (:meth:`Health.failed`, :meth:`Health.works`) and
puts a :class:`engine.events.DeviceStatus` on the loop's queue when the device goes offline
(or fails for a new reason) and when it is back.  While offline, the next attempt is due
after a back-off that doubles from ``retry_initial`` up to ``retry_max`` seconds
(:meth:`Health.retry_due`); a success resets it.  Nothing here raises.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.events import DeviceStatus
from hardware.enqueue import enqueue

log = logging.getLogger("hardware")


class Health:
    """The health of one device.

    Args:
        name: the device as the TV names it (``"tv"``, ``"display:3"``,
            ``"button:3:fold"``).
        queue: where status events go (anything with ``put``), or None.
        retry_initial, retry_max: back-off bounds in seconds.
        online: the state before anything is known (a device not yet opened starts
            offline without a reason, and its first failure is reported).
    """

    def __init__(self, name: str, queue: Any = None, *, retry_initial: float = 1.0,
                 retry_max: float = 30.0, online: bool = True) -> None:
        self.name = name
        self.queue = queue
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self.online = online
        self.reason = ""
        self.failures = 0
        self.retry_at = 0.0
        self.backoff = retry_initial

    def failed(self, now: float, reason: str) -> None:
        """The device failed at ``now`` (seconds) for ``reason``: offline, reported if it
        was online or failed for another reason; the next attempt is due after the
        back-off, which doubles."""
        self.failures += 1
        if self.online or self.reason != reason:
            log.warning("%s offline: %s", self.name, reason)
            enqueue(self.queue, DeviceStatus(t=now, device=self.name, online=False,
                                             detail=reason))
        self.online = False
        self.reason = reason
        self.retry_at = now + self.backoff
        self.backoff = min(self.backoff * 2, self.retry_max)

    def works(self, now: float, detail: str) -> bool:
        """The device works at ``now``: online again (reported, with ``detail``, when it
        had been reported offline), back-off reset.  Returns True when it came back."""
        came_back = not self.online and self.reason != ""
        self.online = True
        self.reason = ""
        self.backoff = self.retry_initial
        if came_back:
            log.info("%s online (%s) after %d failure(s)", self.name, detail, self.failures)
            enqueue(self.queue, DeviceStatus(t=now, device=self.name, online=True,
                                             detail=detail))
        return came_back

    def retry_due(self, now: float) -> bool:
        """Offline and the back-off has elapsed: time for another attempt."""
        return not self.online and now >= self.retry_at


class HasHealth:
    """An adapter whose :class:`Health` is its ``health``: ``online``, ``reason`` and
    ``failures`` read from it."""

    health: Health

    @property
    def online(self) -> bool:
        """The device works now."""
        return self.health.online

    @property
    def reason(self) -> str:
        """Why the device is offline ("" when online)."""
        return self.health.reason

    @property
    def failures(self) -> int:
        """Failures seen since the adapter was made."""
        return self.health.failures
