"""Pure debounce of one push button over timestamps, with press-versus-hold decisions.

gpiozero's ``bounce_time`` is ignored by the mock pin (and is done differently by each real
pin factory), so debounce is done here, over the edge timestamps, the same way for every
backend, in tests, in simulation and on the Pi.

Algorithm (stable-time, not lock-out): a raw level counts only after it has lasted
``bounce_time`` seconds without another edge.  So contact bounce (a burst of edges shorter
than ``bounce_time``) gives one press, and a glitch shorter than ``bounce_time`` gives
nothing.  A debounced press that ends before ``hold_time`` is a ``"press"`` (decided when the
release has been stable for ``bounce_time``); one that lasts ``hold_time`` is a ``"hold"``,
decided as soon as :meth:`Debouncer.poll` sees ``hold_time`` elapsed (or at the release if
nobody polled); a hold is never also a press.

Times are float seconds from one monotonic clock, passed in; nothing here reads a clock.
Typical contact bounce of a tactile or arcade switch lasts 1-10 ms, hence the 20 ms default;
the 0.8 s hold default is near a deliberate long press and far from a tap (~0.1-0.2 s).

>>> d = Debouncer(bounce_time=0.02, hold_time=0.8)
>>> d.edge(True, 0.000) + d.edge(False, 0.001) + d.edge(True, 0.002)   # bounce on press
[]
>>> d.edge(False, 0.120)                  # release; press is certain at 0.120 + 0.02
[]
>>> [(x.kind, round(x.t, 3), round(x.duration, 3)) for x in d.poll(0.140)]
[('press', 0.14, 0.118)]
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidInputError

DEFAULT_BOUNCE_TIME = 0.02
DEFAULT_HOLD_TIME = 0.8
#: Float slack when comparing elapsed times, so a deadline computed as ``t0 + bounce_time``
#: counts as reached at exactly that time.
EPSILON = 1e-9


@dataclass(frozen=True)
class Decision:
    """A debounced decision.

    ``kind``: ``"press"`` or ``"hold"``; ``t``: seconds, when it became certain (release time
    plus ``bounce_time`` for a press, press start plus ``hold_time`` for a hold);
    ``pressed_at``: when the debounced press began; ``duration``: how long it was held (for a
    hold: ``hold_time``, the length at the moment of the decision).
    """

    kind: str
    t: float
    pressed_at: float
    duration: float


class Debouncer:
    """Debounce state of one button.  Not thread-safe: the caller holds a lock.

    Args:
        bounce_time: seconds a level must last to count (> 0).
        hold_time: seconds a press must last to be a hold (> bounce_time).

    Raises:
        InvalidInputError: bounce_time <= 0 or hold_time <= bounce_time.
    """

    def __init__(self, bounce_time: float = DEFAULT_BOUNCE_TIME,
                 hold_time: float = DEFAULT_HOLD_TIME) -> None:
        if not bounce_time > 0:
            raise InvalidInputError(f"bounce_time must be > 0 seconds, got {bounce_time!r}")
        if not hold_time > bounce_time:
            raise InvalidInputError(
                f"hold_time ({hold_time!r} s) must be longer than bounce_time ({bounce_time!r} s)"
            )
        self.bounce_time = float(bounce_time)
        self.hold_time = float(hold_time)
        self._raw = False           # last raw level seen (True = pressed)
        self._raw_since = float("-inf")
        self._stable = False        # debounced level
        self._pressed_at = 0.0      # start of the current debounced press
        self._hold_fired = False
        self._last_t = float("-inf")

    # --- queries ---------------------------------------------------------------------
    @property
    def pressed(self) -> bool:
        """The debounced level (True while a press is in progress)."""
        return self._stable

    @property
    def raw(self) -> bool:
        """The last raw level fed in."""
        return self._raw

    def pressed_for(self, now: float) -> float:
        """Seconds the current debounced press has lasted at ``now`` (0.0 when released)."""
        return max(0.0, now - self._pressed_at) if self._stable else 0.0

    def earliest_next_edge(self) -> float:
        """The earliest time a new edge can be fed without merging with the last one's
        settling (last raw edge plus ``bounce_time``, and not before the last time seen)."""
        return max(self._raw_since + self.bounce_time, self._last_t)

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`poll` can decide something, or None."""
        deadlines = []
        if self._raw != self._stable:
            deadlines.append(self._raw_since + self.bounce_time)
        if self._stable and self._raw and not self._hold_fired:
            deadlines.append(self._pressed_at + self.hold_time)
        return min(deadlines) if deadlines else None

    # --- inputs ----------------------------------------------------------------------
    def edge(self, pressed: bool, t: float) -> list[Decision]:
        """Feed a raw level change seen at ``t``; returns the decisions made up to ``t``.

        A repeated level (no change) is ignored.  A ``t`` earlier than the last one seen is
        treated as the last one (clocks must not run backwards, but a late callback must not
        break the state).
        """
        t = max(float(t), self._last_t)
        out = self.poll(t)
        pressed = bool(pressed)
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = t
        return out

    def poll(self, now: float) -> list[Decision]:
        """Decide what time alone decides by ``now`` (a level lasting ``bounce_time``, a hold
        reaching ``hold_time``); returns the decisions, oldest first."""
        now = max(float(now), self._last_t)
        self._last_t = now
        out: list[Decision] = []
        # A hold may have been reached before a pending raw change settles.
        self._check_hold(min(now, self._raw_since) if self._raw != self._stable else now, out)
        if self._raw != self._stable and now - self._raw_since >= self.bounce_time - EPSILON:
            self._commit(out)
        self._check_hold(now, out)
        return out

    # --- internals -------------------------------------------------------------------
    def _check_hold(self, until: float, out: list[Decision]) -> None:
        if (self._stable and not self._hold_fired
                and until - self._pressed_at >= self.hold_time - EPSILON):
            self._hold_fired = True
            out.append(Decision("hold", self._pressed_at + self.hold_time,
                                self._pressed_at, self.hold_time))

    def _commit(self, out: list[Decision]) -> None:
        self._stable = self._raw
        if self._stable:
            self._pressed_at = self._raw_since
            self._hold_fired = False
            return
        duration = self._raw_since - self._pressed_at
        if self._hold_fired:
            return
        if duration >= self.hold_time - EPSILON:
            out.append(Decision("hold", self._pressed_at + self.hold_time,
                                self._pressed_at, self.hold_time))
        else:
            out.append(Decision("press", self._raw_since + self.bounce_time,
                                self._pressed_at, duration))
