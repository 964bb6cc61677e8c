"""The WebSocket push: every connected page gets the state document when it changes.

The service loop's thread calls :meth:`Pusher.publish` (thread-safe) with the new
documents, serialised once; they go out on the console's own asyncio loop.  A page that
sent a valid token as its first message also gets the role document of its role, until the
token is revoked or expires (the page is then sent the 401 error, and public documents
only).  Slow pages never hold up the others: each client has a one-slot mailbox that keeps only the newest
document (a page needs the state now, not every state in between).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("pokertable.console.push")


@dataclass(eq=False)
class Client:
    """One connected page: its ``role`` (``public`` until it authenticates) and its
    mailbox (the newest document not yet sent)."""

    send: Callable[[str], Any]
    role: str = "public"
    token_id: str | None = None  #: the id of the token that gave it ``role``
    expires: float | None = None  #: when that token expires (epoch seconds)
    pending: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Pusher:
    """Holds the connected clients and the latest documents (JSON text) per role."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock  #: epoch seconds, for the tokens' expiry
        self.clients: set[Client] = set()
        self.latest: dict[str, str] = {}
        self.aloop: asyncio.AbstractEventLoop | None = None
        self.sent = 0

    def bind(self, aloop: asyncio.AbstractEventLoop) -> None:
        """The asyncio loop the clients live on (the console's thread)."""
        self.aloop = aloop

    def publish(self, texts: dict[str, str]) -> None:
        """From any thread: ``{"public": JSON text, "director": ..., ...}``; only the
        documents that changed are sent, the same text to every page of a role."""
        changed = {r: t for r, t in texts.items() if self.latest.get(r) != t}
        if not changed:
            return
        self.latest.update(changed)
        if self.aloop is not None and not self.aloop.is_closed():
            self.aloop.call_soon_threadsafe(self._deliver, changed)

    def _deliver(self, changed: dict[str, str]) -> None:
        now = self.clock()
        for c in self.clients:
            if c.expires is not None and now >= c.expires:
                self._drop(c)  # its token expired while the page was open
                continue
            text = changed.get(c.role)
            if text is not None:
                c.pending = text
                c.wake.set()

    def document(self, role: str) -> str | None:
        """The newest document for ``role`` (JSON text), if any."""
        return self.latest.get(role)

    async def serve(self, client: Client) -> None:
        """Send ``client`` its documents until the connection fails (run as a task)."""
        self.clients.add(client)
        try:
            first = self.latest.get(client.role)
            if first is not None:
                client.pending = first
                client.wake.set()
            while True:
                await client.wake.wait()
                client.wake.clear()
                text, client.pending = client.pending, None
                if text is not None:
                    await client.send(text)
                    self.sent += 1
        finally:
            self.clients.discard(client)

    def revoke(self, token_id: str) -> int:
        """On the console's loop, once the token ``token_id`` is revoked: every page that
        authenticated with it gets the 401 error (a page then forgets its token) and only
        the public documents from then on.  Returns how many pages."""
        dropped = [c for c in self.clients if c.token_id == token_id]
        for c in dropped:
            self._drop(c)
        return len(dropped)

    @staticmethod
    def _drop(client: Client) -> None:
        """``client``'s token is no longer good: the 401 error, then public documents."""
        client.role, client.token_id, client.expires = "public", None, None
        client.pending = json.dumps({"type": "error", "status": 401,
                                     "error": "unknown, expired or revoked token"})
        client.wake.set()

    def set_role(self, client: Client, role: str, token_id: str | None = None,
                 expires: float | None = None) -> None:
        """After a page authenticated: it gets ``role``'s documents from now on, until the
        token ``token_id`` is revoked (:meth:`revoke`) or ``expires`` has passed."""
        client.role = role
        client.token_id = token_id
        client.expires = expires
        text = self.latest.get(role)
        if text is not None:
            client.pending = text
            client.wake.set()
