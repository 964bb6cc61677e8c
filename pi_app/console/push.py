"""The WebSocket push: every connected page gets the state document when it changes.

The service loop's thread calls :meth:`Pusher.publish` (thread-safe) with the new
documents, serialised once; they go out on the console's own asyncio loop.  A page that
sent a valid token as its first message also gets the role document of its role.  Slow pages
never hold up the others: each client has a one-slot mailbox that keeps only the newest
document (a page needs the state now, not every state in between).
"""

from __future__ import annotations

import asyncio
import json
import logging
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
    pending: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Pusher:
    """Holds the connected clients and the latest documents (JSON text) per role."""

    def __init__(self) -> None:
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
        for c in self.clients:
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
        text = json.dumps({"type": "error", "status": 401,
                           "error": "unknown, expired or revoked token"})
        dropped = [c for c in self.clients if c.token_id == token_id]
        for c in dropped:
            c.role, c.token_id = "public", None
            c.pending = text
            c.wake.set()
        return len(dropped)

    def set_role(self, client: Client, role: str, token_id: str | None = None) -> None:
        """After a page authenticated: it gets ``role``'s documents from now on."""
        client.role = role
        client.token_id = token_id
        text = self.latest.get(role)
        if text is not None:
            client.pending = text
            client.wake.set()
