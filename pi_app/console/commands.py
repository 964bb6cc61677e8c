"""From a console request to the service loop and back: :class:`Gate`.

A request's command becomes an :class:`engine.events.ConsoleCommand` (stamped with the
service clock, the role, the token id, the UTC time and the request id) put on the loop's
one queue; the request waits for the loop's verdict, which the loop hands back through
:meth:`Gate.resolve` (an observer of the loop, on the loop's thread).  The gate also builds
the role documents (on the loop's thread) and keeps the full audit list for ``/api/audit``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from engine.events import ConsoleCommand, Event
from engine.table.core import TableCore
from pi_app.console.auth import Pairing, TokenInfo, TokenStore

ANSWER_TIMEOUT = 10.0  #: seconds a request waits for the loop
ROLE_DOCS = ("director", "dealer")  #: the roles with a document of their own
#: what a role's document leaves out of the console part (the rule of the reads: only the
#: director may read the audit list, ``GET /api/audit``)
ROLE_HIDDEN = {"director": (), "dealer": ("audit",)}
STATUS = {"bad_request": 400, "forbidden": 403, "refused": 409}


@dataclass(frozen=True)
class Verdict:
    """The loop's answer: ``verdict`` (applied, rejected, refused), ``reason`` (one line),
    ``status`` (HTTP), ``seq`` (journal record of an applied command), ``detail`` (audit)."""

    verdict: str
    reason: str | None
    status: int
    seq: int | None = None
    detail: str | None = None


class Gate:
    """Commands in, verdicts and role documents out (see the module docstring)."""

    def __init__(self, loop: Any, state_dir: Any) -> None:
        self.loop = loop
        self.tokens = TokenStore(state_dir)
        self.pairing = Pairing()
        self._pending: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future[Verdict]]] = {}
        self._lock = threading.Lock()
        self.audit: list[dict[str, Any]] = []

    # --- commands -----------------------------------------------------------------------
    async def submit(self, command: str, args: dict[str, Any], who: TokenInfo,
                     request: str | None) -> Verdict:
        """Put the command on the loop's queue and wait for its verdict."""
        rid = request or uuid.uuid4().hex
        aloop = asyncio.get_running_loop()
        fut: asyncio.Future[Verdict] = aloop.create_future()
        with self._lock:
            if rid in self._pending:
                return Verdict("refused", "the same request is being applied", 409)
            self._pending[rid] = (aloop, fut)
        at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        event = ConsoleCommand(t=self.loop.clock.now(), command=command, args=args,
                               role=who.role, token=who.id, at=at, request=rid)
        self.loop.put(event)
        try:
            return await asyncio.wait_for(fut, ANSWER_TIMEOUT)
        except TimeoutError:
            return Verdict("timeout", "the table did not answer in time", 503)
        finally:
            with self._lock:
                self._pending.pop(rid, None)

    def resolve(self, event: Event, verdict: str | None, reason: str | None,
                detail: str | None = None) -> None:
        """The loop's verdict on ``event`` (loop thread): answers its request, if waiting."""
        if not isinstance(event, ConsoleCommand):
            return
        with self._lock:
            waiting = self._pending.get(event.request)
        if waiting is None:
            return
        if verdict == "applied":
            audit = self.loop.core.console.audit
            answer = Verdict("applied", None, 200, self.loop.journal.last_seq,
                             detail or (audit[-1]["detail"] if audit else None))
        else:
            kind = getattr(reason, "kind", "refused")
            status = 503 if reason and reason.startswith("journal unavailable") else \
                STATUS.get(kind, 409)
            answer = Verdict(verdict or "refused", str(reason or "refused"), status)
        aloop, fut = waiting
        aloop.call_soon_threadsafe(_settle, fut, answer)

    # --- documents (loop thread) --------------------------------------------------------
    def console_part(self, core: TableCore) -> dict[str, Any]:
        """The ``console`` object of the role documents, before :func:`role_part` takes out
        what a role may not see (on the loop's thread)."""
        from engine.table.console_args import hand_refusal, table_seats
        from engine.table.console_commands import next_hand_applies, undo_applies
        from engine.table.console_players import (
            between_rounds,
            late_entry_preview,
            registration_refusal,
            undo_elimination_applies,
        )

        console = core.console
        if len(console.audit) != len(self.audit):
            self.audit = [dict(a) for a in console.audit]
        hand = core.hand if core.in_hand else None
        legal = hand.legal_actions() if hand is not None and hand.actor is not None else None
        ruling = core.proc.ruling_view() if core.proc is not None else None
        extra = {
            "audit": self.audit[-50:], "waiting": list(console.waiting),
            "late_entry": late_entry_preview(core),
            "actor": hand.actor if hand is not None else None,
            "legal": None if legal is None else {
                "can_fold": legal.can_fold, "can_check": legal.can_check,
                "call_amount": legal.call_amount, "min_raise_to": legal.min_raise_to,
                "max_raise_to": legal.max_raise_to},
            "ruling": None if ruling is None else {"words": ruling.words, "rule": ruling.rule,
                                                   "instruction": ruling.instruction,
                                                   "status": ruling.status},
            "color_up_pending": console.color_up_pending,
            "shoe_online": "shoe" not in core.offline,
            "keyed_hand": bool(hand is not None and console.keyed_hand == core.hand_number),
            "away": sorted(console.away),
            "in_hand": core.in_hand,
            "registration": registration_refusal(core) is None,
            "next_hand": next_hand_applies(core),
            "void_hand": bool(core.proc is not None and core.proc.stopped),
            "hand_refusal": hand_refusal(core),
            "between_hands": hand_refusal(core) is None,
            "undo_elimination": undo_elimination_applies(core),
            "undo": undo_applies(core),
            "seats": list(table_seats(core)),
            "rounds": core.tournament.structure.qualifiers is not None,
            "round_start": between_rounds(core),
        }
        return extra


def role_part(part: dict[str, Any], role: str) -> dict[str, Any]:
    """The console part as ``role``'s document carries it (:data:`ROLE_HIDDEN` left out)."""
    hidden = ROLE_HIDDEN[role]
    return {k: v for k, v in part.items() if k not in hidden} if hidden else part


def _settle(fut: asyncio.Future[Verdict], answer: Verdict) -> None:
    if not fut.done():
        fut.set_result(answer)
