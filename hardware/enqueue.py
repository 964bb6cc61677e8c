"""Handing device events to the loop.

Adapters run on their own threads (or inside a library callback); whatever goes wrong with
the hand-over must never raise there.  :func:`enqueue` is the one way they put an event on
the loop's queue.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("hardware")


def enqueue(queue: Any, event: Any) -> None:
    """``queue.put(event)`` (``queue`` may be None: no loop attached); a failure is logged,
    never raised into the device thread."""
    if queue is None:
        return
    try:
        queue.put(event)
    except Exception:  # noqa: BLE001 - a device thread must survive a failing hand-over
        log.exception("could not enqueue %r", event)
