"""The blind clock: pure, driven by monotonic time passed in, never counting down.

Remaining time on a time-based entry is *derived*::

    elapsed   = (paused_at or now) - level_start - pause_total
    remaining = max(0, level_seconds + adjust - elapsed)

When an entry's time runs out, the next one starts at the exact instant the previous one
ended (``level_start + pause_total + level_seconds + adjust``), not at the instant
:meth:`Clock.update` happened to be called, so no drift can build up however irregularly the
clock is polled.

Rules (seed 000 for "blinds up next hand"):

* a time-based level that ends during a hand changes the clock at once, but the hand in
  progress keeps the blinds it was dealt with; the new blinds apply to the next hand
  (:attr:`ClockStatus.blinds_up_next_hand`);
* a hand-based level ends when its number of hands has been finished;
* a break that falls due during a hand starts when that hand ends (and then lasts its full
  length);
* when the last entry runs out, the clock holds it (``finished``), showing 0.

Every method that takes ``now`` returns the :class:`ClockAlert` list it caused.  Each alert
kind fires at most once per visit of an entry (a visit starts whenever an entry is entered,
by time, by hands or by an operator command).  Alerts carry the instant they fell due
(``t``), which for a catch-up after a restart may be in the past.

Snapshot: :meth:`Clock.to_dict` / :meth:`Clock.from_dict` (JSON-able), with the restore
policy ``"paused"`` (default: the clock comes back paused with the remaining time it had when
saved) or ``"catch_up"`` (it keeps running and catches up across the entries that elapsed).
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict, dataclass
from typing import Any

from engine.errors import IllegalActionError, InvalidInputError
from engine.tournament.structure import Level, Structure

ONE_MINUTE = 60.0
TEN_SECONDS = 10.0

ALERT_KINDS = (
    "level_start", "level_end", "one_minute", "ten_seconds", "last_hand",
    "break_start", "break_end", "break_after_hand", "blinds_up_next_hand", "color_up_due",
    "late_registration_closing", "late_registration_closed", "structure_end",
    # emitted by engine.tournament.tournament:
    "bonus_wheel", "eliminated", "heads_up_limit", "heads_up_last_hand", "sudden_death",
    "round_over", "tournament_over",
)
RESTORE_POLICIES = ("paused", "catch_up")


class ClockError(IllegalActionError):
    """A clock command that is not possible now (e.g. resume a running clock).  Raising it
    changes nothing."""


class SnapshotError(InvalidInputError):
    """A clock/tournament snapshot that does not fit the structure or is malformed."""


@dataclass(frozen=True)
class ClockAlert:
    """Something the room should hear or see.  ``kind`` in :data:`ALERT_KINDS`; ``t`` the
    monotonic instant it fell due; ``level_index`` the entry (0-based) it belongs to;
    ``level_number`` its blind-level number; ``message`` plain words for screens and logs."""

    kind: str
    t: float
    level_index: int
    level_number: int
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ClockStatus:
    """The clock at one instant (see :meth:`Clock.status`)."""

    index: int
    level: Level
    next_level: Level | None
    next_entry: Level | None
    remaining_seconds: float | None
    hands_remaining: int | None
    running: bool
    started: bool
    finished: bool
    break_pending: bool
    blinds_up_next_hand: bool
    seconds_to_break: float | None


class Clock:
    """The blind clock over a :class:`Structure` (see module docstring).

    Attributes (read-only for callers): ``index`` current entry (0-based), ``started``,
    ``hand_count`` hands started so far, ``in_hand``.
    """

    def __init__(self, structure: Structure):
        if not structure.levels:
            raise ClockError("the structure has no levels")
        self.structure = structure
        self.index = 0
        self.started = False
        self.level_start = 0.0
        self.pause_total = 0.0
        self.paused_at: float | None = None
        self.adjust = 0.0
        self.hand_adjust = 0
        self.level_hands = 0
        self.hand_count = 0
        self.in_hand = False
        self.hand_index: int | None = None  # entry the hand in progress was dealt at
        self.break_pending = False
        self.finished = False
        self.fired: set[str] = set()
        self._now = 0.0

    # ------------------------------------------------------------------ derived values
    @property
    def level(self) -> Level:
        return self.structure.levels[self.index]

    @property
    def running(self) -> bool:
        return self.started and self.paused_at is None

    def _budget(self) -> float:
        secs = self.level.seconds
        return 0.0 if secs is None else secs + self.adjust

    def elapsed(self, now: float) -> float:
        """Running seconds spent on the current entry (0 before start)."""
        if not self.started:
            return 0.0
        end = self.paused_at if self.paused_at is not None else now
        return max(0.0, end - self.level_start - self.pause_total)

    def remaining(self, now: float) -> float | None:
        """Seconds left on a time-based entry (never negative), None on a hand-based one."""
        if self.level.seconds is None:
            return None
        return max(0.0, self._budget() - self.elapsed(now))

    def hands_remaining(self) -> int | None:
        """Hands left on a hand-based level, None on a time-based one."""
        if self.level.hands is None:
            return None
        return max(0, self.level.hands + self.hand_adjust - self.level_hands)

    def _next_blind_index(self, start: int) -> int | None:
        for i in range(start, len(self.structure.levels)):
            if not self.structure.levels[i].is_break:
                return i
        return None

    def playing_level(self) -> Level:
        """The blind level the next hand is dealt at (the level after a break while on one;
        the last blind level if the structure ends on a break)."""
        if not self.level.is_break:
            return self.level
        i = self._next_blind_index(self.index + 1)
        if i is None:
            i = max(j for j, lv in enumerate(self.structure.levels) if not lv.is_break)
        return self.structure.levels[i]

    def seconds_to_break(self, now: float) -> float | None:
        """Seconds until the next break starts, counting only time-based entries; None when
        no break is ahead or a hand-based level comes first.  0 while on a break."""
        if self.level.is_break:
            return 0.0
        total = self.remaining(now)
        ahead = self.structure.seconds_to_next_break[self.index]
        if total is None or ahead is None:
            return None
        for seconds in ahead:  # in order, as the entries run: the same float sum
            total += seconds
        return total

    def status(self, now: float) -> ClockStatus:
        """Everything a screen needs.  Does not change the clock (call :meth:`update` first)."""
        nxt_i = self._next_blind_index(self.playing_level().index + 1)
        return ClockStatus(
            index=self.index, level=self.level,
            next_level=None if nxt_i is None else self.structure.levels[nxt_i],
            next_entry=(self.structure.levels[self.index + 1]
                        if self.index + 1 < len(self.structure.levels) else None),
            remaining_seconds=self.remaining(now), hands_remaining=self.hands_remaining(),
            running=self.running, started=self.started, finished=self.finished,
            break_pending=self.break_pending,
            blinds_up_next_hand=(self.in_hand and self.hand_index is not None
                                 and self.hand_index != self.playing_level().index),
            seconds_to_break=self.seconds_to_break(now))

    def peek(self, now: float) -> Clock:
        """A copy of this clock brought up to ``now`` (for queries that must not change the
        clock or swallow its alerts)."""
        c = copy.copy(self)
        c.fired = set(self.fired)
        c.update(now)
        return c

    def at(self, now: float) -> Clock:
        """This clock as it is at ``now``: itself when no entry ends by then (nearly always:
        the loop ticks it every second), else a :meth:`peek`.  Changes nothing."""
        if not self.started or self.finished or self.break_pending or \
                self.level.seconds is None or self.elapsed(now) < self._budget():
            return self
        return self.peek(now)

    # ------------------------------------------------------------------ alerts
    def _fire(self, out: list[ClockAlert], kind: str, t: float, message: str,
              index: int | None = None) -> None:
        key = kind if index is None or index == self.index else f"{kind}@{index}"
        if key in self.fired:
            return
        self.fired.add(key)
        lv = self.structure.levels[self.index if index is None else index]
        out.append(ClockAlert(kind, t, lv.index, lv.number, message))

    def _enter(self, index: int, t: float, out: list[ClockAlert]) -> None:
        """Make entry ``index`` current, starting at instant ``t``."""
        was_paused = self.paused_at is not None
        self.index = index
        self.level_start = t
        self.pause_total = 0.0
        self.paused_at = t if was_paused else None
        self.adjust = 0.0
        self.hand_adjust = 0
        self.level_hands = 0
        self.break_pending = False
        self.finished = False
        self.fired = set()
        lv = self.level
        if lv.is_break:
            self._fire(out, "break_start", t, f"Break: {lv.minutes:g} minutes")
        else:
            self._fire(out, "level_start", t, f"Level {lv.number}: {lv.blinds_text()}")
        if lv.color_up:
            names = ", ".join(f"{d:,} ({self.structure.color(d)})" for d in lv.color_up)
            self._fire(out, "color_up_due", t, f"Color-up: remove the {names} chips")

    def _leave(self, t: float, out: list[ClockAlert]) -> None:
        lv = self.level
        if lv.is_break:
            self._fire(out, "break_end", t, "Break over")
        else:
            self._fire(out, "level_end", t, f"Level {lv.number} over")
            late = self.structure.late_registration.last_level
            if late and lv.number == late:
                self._fire(out, "late_registration_closed", t, "Late registration closed")

    def _warnings(self, out: list[ClockAlert]) -> None:
        """Time warnings due on the current time-based entry (called from update)."""
        budget = self._budget()
        end_at = self.level_start + self.pause_total + budget
        el = self.elapsed(self._now)
        late = self.structure.late_registration.last_level
        closing = bool(late) and not self.level.is_break and self.level.number == late
        for kind, before in (("one_minute", ONE_MINUTE), ("ten_seconds", TEN_SECONDS)):
            if budget > before and el >= budget - before:
                t = min(end_at - before, self._now) if self.paused_at is None else self._now
                what = "One minute left" if before == ONE_MINUTE else "Ten seconds left"
                self._fire(out, kind, t, what)
                if closing and kind == "one_minute":
                    self._fire(out, "late_registration_closing", t,
                               "Late registration closes in one minute")

    # ------------------------------------------------------------------ time
    def update(self, now: float) -> list[ClockAlert]:
        """Advance to ``now``: fire warnings, end entries whose time ran out (several, when
        catching up), defer a break due mid-hand.  Idempotent for the same ``now``."""
        out: list[ClockAlert] = []
        if not self.started:
            return out
        self._now = now
        minutes = self.structure.levels[self.index].minutes
        if minutes is not None and not (self.finished or self.break_pending):
            # nothing can be due: no warning (the first is a minute before), no end (the
            # entry's seconds and elapsed(now), inline, as the loop below reckons them)
            end = self.paused_at if self.paused_at is not None else now
            if max(0.0, end - self.level_start - self.pause_total) < \
                    minutes * 60.0 + self.adjust - ONE_MINUTE:
                return out
        while not (self.finished or self.break_pending):
            if self.level.seconds is None:
                break
            self._warnings(out)
            budget = self._budget()
            if self.elapsed(now) < budget:
                break
            t_end = now if self.paused_at is not None else (
                self.level_start + self.pause_total + budget)
            self._advance(t_end, out)
        return out

    def _advance(self, t: float, out: list[ClockAlert]) -> None:
        """The current entry is over at ``t``: go to the next (or wait / finish)."""
        self._leave(t, out)
        nxt = self.index + 1
        if nxt >= len(self.structure.levels):
            self.finished = True
            self._fire(out, "structure_end", t, "Last level: the clock holds it")
            return
        if self.structure.levels[nxt].is_break and self.in_hand:
            self.break_pending = True
            self._fire(out, "break_after_hand", t, "Break after this hand")
            return
        self._enter(nxt, t, out)
        if self.in_hand and not self.level.is_break:
            self._fire(out, "blinds_up_next_hand", t, "Blinds up next hand")

    # ------------------------------------------------------------------ hands
    def hand_started(self, now: float) -> list[ClockAlert]:
        """A hand is dealt at ``now``.  Raises :class:`ClockError` during a break or when a
        hand is already in progress."""
        self.verify_hand_started(now)
        out = self.update(now)
        self.in_hand = True
        self.hand_index = self.index
        self.hand_count += 1
        return out

    def verify_hand_started(self, now: float) -> None:
        """Raises :class:`ClockError` as :meth:`hand_started` at ``now`` would (a hand in
        progress, a break at ``now``); changes nothing."""
        if self.in_hand:
            raise ClockError("a hand is already in progress")
        at = self.at(now)
        if at.level.is_break:
            raise ClockError(f"on a break ({at.remaining(now) or 0:.0f} s left)")

    def hand_finished(self, now: float) -> list[ClockAlert]:
        """The hand in progress ended at ``now``: count it for a hand-based level, start a
        pending break, apply any level change that fell due."""
        if not self.in_hand:
            raise ClockError("no hand is in progress")
        out = self.update(now)
        self.in_hand = False
        counted_here = self.hand_index == self.index
        self.hand_index = None
        if self.break_pending:
            self._leave_pending(now, out)
        elif self.level.hands is not None and counted_here:
            self.level_hands += 1
            left = self.hands_remaining()
            if left == 1:
                self._fire(out, "last_hand", now, f"Last hand of level {self.level.number}")
                late = self.structure.late_registration.last_level
                if late and self.level.number == late:
                    self._fire(out, "late_registration_closing", now,
                               "Late registration closes after the next hand")
            if left == 0 and not self.finished:
                self._advance(now, out)
        out += self.update(now)
        return out

    def _leave_pending(self, now: float, out: list[ClockAlert]) -> None:
        self.break_pending = False
        self._enter(self.index + 1, now, out)

    # ------------------------------------------------------------------ controls
    def start(self, now: float) -> list[ClockAlert]:
        """Start the clock on the first entry at ``now``."""
        if self.started:
            raise ClockError("the clock is already started")
        out: list[ClockAlert] = []
        self.started = True
        self._enter(self.index, now, out)
        return out + self.update(now)

    def verify_pause(self) -> None:
        """Raises :class:`ClockError` as :meth:`pause` would: not started, or paused."""
        if not self.started:
            raise ClockError("the clock is not started")
        if self.paused_at is not None:
            raise ClockError("the clock is already paused")

    def pause(self, now: float) -> list[ClockAlert]:
        self.verify_pause()
        out = self.update(now)
        self.paused_at = max(now, self.level_start + self.pause_total)
        return out

    def verify_resume(self, now: float) -> None:
        """Raises :class:`ClockError` as :meth:`resume` at ``now`` would: not started, not
        paused, or ``now`` before the pause."""
        if not self.started:
            raise ClockError("the clock is not started")
        if self.paused_at is None:
            raise ClockError("the clock is not paused")
        if now < self.paused_at:
            raise ClockError(f"time went backwards ({now} < {self.paused_at})")

    def resume(self, now: float) -> list[ClockAlert]:
        self.verify_resume(now)
        assert self.paused_at is not None  # verified
        self.pause_total += now - self.paused_at
        self.paused_at = None
        return self.update(now)

    def add_time(self, now: float, seconds: float) -> list[ClockAlert]:
        """Add (``seconds`` > 0) or remove (< 0) time on the current time-based entry.  The
        remaining time never goes below 0 (removing more ends the entry now)."""
        self.verify_add_time(now, seconds)
        out = self.update(now)
        assert self.level.seconds is not None  # verified
        base = self.level.seconds
        new_adjust = self.adjust + seconds
        el = self.elapsed(now)
        if base + new_adjust <= el:  # nothing left: the entry ends now
            self.adjust = el - base
            if not self.finished:
                self._advance(now, out)
            return out + self.update(now)
        self.adjust = new_adjust
        self.finished = False
        return out + self.update(now)

    def verify_add_time(self, now: float, seconds: float) -> None:
        """Raises :class:`ClockError` as :meth:`add_time` at ``now`` would: the entry then
        is counted in hands, its break waits for the hand, or ``seconds`` is not finite."""
        at = self.at(now)
        if at.level.seconds is None:
            raise ClockError(f"{at.level.label} is counted in hands; use add_hands")
        if at.break_pending:
            raise ClockError("the level is over; the break starts after this hand")
        if not math.isfinite(seconds):
            raise ClockError(f"bad number of seconds {seconds!r}")

    def add_hands(self, now: float, hands: int) -> list[ClockAlert]:
        """Add or remove hands on the current hand-based level (never below the hands played;
        reaching 0 ends the level at once)."""
        out = self.update(now)
        if self.level.hands is None:
            raise ClockError(f"{self.level.label} is timed; use add_time")
        self.hand_adjust = max(self.level_hands - self.level.hands, self.hand_adjust + hands)
        if self.hands_remaining() == 0 and not self.in_hand:
            self._advance(now, out)
        return out + self.update(now)

    def verify_jump_to(self, index: int) -> None:
        """Raises :class:`ClockError` unless ``index`` (0-based) is an entry of the
        structure (what :meth:`jump_to` checks)."""
        if not 0 <= index < len(self.structure.levels):
            raise ClockError(f"no entry {index}; entries are 0..{len(self.structure.levels) - 1}")

    def jump_to(self, now: float, index: int) -> list[ClockAlert]:
        """Operator: go to entry ``index`` (0-based) now, with its full time."""
        self.verify_jump_to(index)
        out = self.update(now) if self.started else []
        if not self.started:
            self.index = index
            return out
        if self.paused_at is not None:
            self.paused_at = now
        self._enter(index, now, out)
        return out + self.update(now)

    def next_level(self, now: float) -> list[ClockAlert]:
        if self.index + 1 >= len(self.structure.levels):
            raise ClockError("already on the last level")
        return self.jump_to(now, self.index + 1)

    def previous_level(self, now: float) -> list[ClockAlert]:
        if self.index == 0:
            raise ClockError("already on the first level")
        return self.jump_to(now, self.index - 1)

    # ------------------------------------------------------------------ snapshot
    _FIELDS = ("index", "started", "level_start", "pause_total", "paused_at", "adjust",
               "hand_adjust", "level_hands", "hand_count", "in_hand", "hand_index",
               "break_pending", "finished")

    def to_dict(self, now: float) -> dict[str, Any]:
        """JSON-able snapshot taken at ``now`` (monotonic)."""
        d: dict[str, Any] = {k: getattr(self, k) for k in self._FIELDS}
        d["fired"] = sorted(self.fired)
        d["saved_at"] = now
        d["structure"] = self.structure.name
        d["entries"] = len(self.structure.levels)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], structure: Structure, *, now: float,
                  policy: str = "paused", offline_seconds: float | None = None) -> Clock:
        """Restore a snapshot.

        ``offline_seconds``: the time that passed since the snapshot when the monotonic base
        changed (reboot; the caller measures it from wall time); ``None`` means ``now`` is on
        the same monotonic base as ``saved_at``.  ``policy``: ``"paused"`` (the clock comes
        back paused with the time it had when saved) or ``"catch_up"`` (still running; call
        :meth:`update` to catch up and get the alerts of the entries that elapsed).

        Raises:
            SnapshotError: wrong structure, unknown policy or malformed snapshot.
        """
        if policy not in RESTORE_POLICIES:
            raise SnapshotError(f"restore policy must be one of {RESTORE_POLICIES}, "
                                f"got {policy!r}")
        try:
            if d["entries"] != len(structure.levels) or d["structure"] != structure.name:
                raise SnapshotError(f"snapshot of {d['structure']!r} does not fit the "
                                    f"structure {structure.name!r}")
            c = cls(structure)
            for k in cls._FIELDS:
                setattr(c, k, d[k])
            c.fired = set(d["fired"])
            saved_at = float(d["saved_at"])
        except (KeyError, TypeError) as exc:
            raise SnapshotError(f"malformed clock snapshot: {exc}") from None
        shift = 0.0 if offline_seconds is None else (now - offline_seconds) - saved_at
        if shift:
            c.level_start += shift
            if c.paused_at is not None:
                c.paused_at += shift
        if policy == "paused" and c.started and c.paused_at is None:
            c.paused_at = saved_at + shift
        return c
