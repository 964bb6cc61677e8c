"""The table's public notices as the TV shows them: what the loop keeps of the engine's
:class:`engine.effects.Notice` effects ("Last action undone", "Ann joins in seat 4 with
12,000", "Bonus 1,500 in this pot"...), and for how long.

A notice stands :data:`NOTICE_SECONDS` seconds of table time (the loop's injected clock,
so a simulated night is reproducible) from the event that made it, and never past the
hand it came in: when a new hand starts (the core's ``hand_number`` moves on) the notices
of the hands before it go, while those the new hand's own first event made (its bonus)
stay.  At most :data:`MAX_NOTICES` stand at once, newest first: a newer one pushes the
oldest out.  The loop puts them into :attr:`engine.views.ScreenState.notices`
(:mod:`pi_app.screens.toasts` draws them) and wakes once at :attr:`NoticeBoard.next_expiry`
to draw the frame without the one that timed out: no polling.

A replay of the journal never posts here: :meth:`pi_app.service.effect_runner.EffectRunner.run`
with ``replay`` drops every effect but the hand histories, and the loop posts only the
effects of the events it applies live, so a restart flashes no old notice.

>>> board = NoticeBoard()
>>> board.post("Last action undone", now=10.0, hand=3)
>>> board.shown(12.0, hand=3), board.next_expiry
(('Last action undone',), 16.0)
>>> board.shown(16.0, hand=3), board.shown(12.0, hand=4)
((), ())
"""

from __future__ import annotations

from dataclasses import dataclass

NOTICE_SECONDS = 6.0
"""Seconds of table time a notice stays on the TV (long enough to read a line twice from
across the room; short enough that the next one does not wait behind it)."""

MAX_NOTICES = 3
"""Notices standing at once, newest first; a newer one pushes the oldest out (the TV
draws as many of them as fit its notice area: :mod:`pi_app.screens.toasts`)."""


@dataclass(frozen=True)
class Posted:
    """One notice: its ``text``, the table time ``until`` which it stands (seconds) and
    the ``hand`` it came in (None: the core has no hand number; it only times out)."""

    text: str
    until: float
    hand: int | None


class NoticeBoard:
    """The notices standing now, newest first (see the module docstring).

    Args:
        seconds: how long each stands, seconds of table time (> 0).
        limit: how many stand at once (>= 1).

    Raises:
        ValueError: ``seconds`` <= 0 or ``limit`` < 1.
    """

    def __init__(self, seconds: float = NOTICE_SECONDS, limit: int = MAX_NOTICES) -> None:
        if seconds <= 0 or limit < 1:
            raise ValueError(f"a notice needs seconds > 0 and limit >= 1, got {seconds}, "
                             f"{limit}")
        self.seconds = float(seconds)
        self.limit = int(limit)
        self.posted: list[Posted] = []  # newest first

    def post(self, text: str, now: float, hand: int | None) -> None:
        """Put ``text`` up at table time ``now`` (seconds) in hand ``hand``; an empty text
        is ignored, the same text again is moved to the top with a new time."""
        if not text.strip():
            return
        rest = [p for p in self.posted if p.text != text]
        self.posted = [Posted(text, now + self.seconds, hand)] + rest[:self.limit - 1]

    def shown(self, now: float, hand: int | None) -> tuple[str, ...]:
        """The texts standing at table time ``now`` in hand ``hand``, newest first; drops
        the others."""
        if self.posted:
            self.expire(now, hand)
        return tuple(p.text for p in self.posted)

    def expire(self, now: float, hand: int | None) -> bool:
        """Drop what timed out by ``now`` or came before hand ``hand``; True if any went."""
        kept = [p for p in self.posted if p.until > now and
                (hand is None or p.hand is None or p.hand >= hand)]
        gone = len(kept) != len(self.posted)
        self.posted = kept
        return gone

    @property
    def next_expiry(self) -> float | None:
        """The table time at which the next notice times out (None: none stands)."""
        return min((p.until for p in self.posted), default=None)

    def due(self, now: float) -> bool:
        """Whether a notice timed out by ``now`` (the loop then draws the TV again)."""
        nxt = self.next_expiry
        return nxt is not None and nxt <= now
