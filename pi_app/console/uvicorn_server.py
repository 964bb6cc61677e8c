"""uvicorn's ``Server`` with a main loop that wakes once a second rather than ten times.

uvicorn 0.5x's ``Server.main_loop`` sleeps a fixed 0.1 s between ``on_tick`` calls, and no
``Config`` option changes it (``timeout_notify`` only spaces the ``callback_notify`` calls
made inside the ticks).  ``on_tick`` does its work (the ``date`` header, the
``callback_notify``) when its counter is a multiple of 10, i.e. once a second, and between
those only reads ``should_exit``.  :class:`QuietServer` steps the counter by 10 with a
:data:`TICK_SECONDS` wait, so every tick does that once-a-second work, and :meth:`wake`
(on the server's asyncio loop) cuts the wait short once ``should_exit`` is set, so a stop
is as quick as before.  An idle table's console thread wakes once a second (issue 14,
idle CPU).
"""

from __future__ import annotations

import asyncio
import contextlib

import uvicorn

TICK_SECONDS = 1.0  #: seconds between the server's ticks (uvicorn's own: 0.1 s)


class QuietServer(uvicorn.Server):
    """``uvicorn.Server`` ticking every :data:`TICK_SECONDS`; :meth:`wake` ends a wait."""

    _wake: asyncio.Event | None = None

    def wake(self) -> None:
        """End the current wait (call it on the server's loop, after ``should_exit``)."""
        if self._wake is not None:
            self._wake.set()

    async def main_loop(self) -> None:
        self._wake = asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 10) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK_SECONDS)
