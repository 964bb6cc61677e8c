"""Seat buttons and the dealer button box over gpiozero, turned into events on a queue.

Each key is a :class:`gpiozero.DigitalInputDevice` (wired GPIO -> key -> GND, internal
pull-up; not a ``Button``, whose hold thread would wake ten times a second per key).  Its
``when_activated``/``when_deactivated`` edge callbacks only feed the edge, stamped by the
injected monotonic clock, to a pure :class:`hardware.debounce.Debouncer` and put the resulting
:class:`engine.events.SeatButton` / :class:`engine.events.DealerButton` events on the queue.
No game logic lives here: what a press means is decided by the loop (for seats, by
:mod:`engine.betting.seat_input`).

Time: a release is certain only ``bounce_time`` after it and a hold only once ``hold_time``
has passed, so something must call :meth:`ButtonBank.poll` then: the simulator does, in its
virtual time; on the Pi the bank's own thread (:meth:`ButtonBank.start_poller`) sleeps until
the next such deadline or the next health check (once a second), and an edge callback wakes
it.  So an idle table costs one wake-up a second, not one every 10 ms.

Device failures: a key whose pin cannot be opened or read (``OSError``, a closed device, a
gpiozero pin error) or that stays pressed for ``stuck_time`` (a shorted cable, a jammed key)
is reported offline with a :class:`engine.events.DeviceStatus` event (``device`` =
``"button:3:fold"`` or ``"button:dealer:undo"``); it is retried with exponential backoff and
reported online again when it works.  Nothing here ever raises into the loop.

Simulation: :meth:`ButtonBank.press` presses a key through the mock pins
(``drive_low``/``drive_high``), so simulated players go through gpiozero and the debouncer
exactly as a finger would; :meth:`ButtonBank.unplug` / :meth:`ButtonBank.replug` make a
key's mock pin fail with ``EIO`` as a pulled cable on an I/O expander would.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from engine.errors import InvalidInputError
from engine.events import (
    DEALER_BUTTONS,
    SEAT_BUTTONS,
    DealerButton,
    Event,
    SeatButton,
)
from hardware.debounce import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME, Debouncer, Decision
from hardware.enqueue import enqueue
from hardware.health import Health
from hardware.pins import DEFAULT_PIN_MAP, PinMap, make_pin_factory

log = logging.getLogger(__name__)

DEALER = "dealer"
DEFAULT_STUCK_TIME = 30.0
DEFAULT_HEALTH_INTERVAL = 1.0
DEFAULT_RETRY_INITIAL = 1.0
DEFAULT_RETRY_MAX = 30.0


class UnknownButtonError(InvalidInputError):
    """A seat or button name that is not in the pin map."""


def _sim_mock_pin_class() -> type:
    """A gpiozero MockPin whose reads fail with ``fault`` (an OSError) while it is set."""
    from gpiozero.pins.mock import MockPin

    class SimMockPin(MockPin):
        fault: OSError | None = None

        def _get_state(self) -> bool:
            if self.fault is not None:
                raise self.fault
            return super()._get_state()

    return SimMockPin


def make_sim_mock_factory(**kwargs: Any) -> Any:
    """A :class:`gpiozero.pins.mock.MockFactory` whose pins can be unplugged in simulation."""
    from gpiozero.pins.mock import MockFactory

    return MockFactory(pin_class=_sim_mock_pin_class(), **kwargs)


@dataclass
class _Key:
    """One physical key: where it is, its device, its debouncer and its health."""

    group: int | str          # seat number or "dealer"
    button: str
    pin: int | str
    debouncer: Debouncer
    health: Health
    device: Any = None
    stuck: bool = False

    @property
    def name(self) -> str:
        return key_name(self.group, self.button)

    @property
    def online(self) -> bool:
        return self.health.online


def key_name(group: int | str, button: str) -> str:
    """The device name of a key: ``"button:3:fold"``, ``"button:dealer:undo"``."""
    return f"button:{group}:{button}"


class ButtonBank:
    """All the table's keys: seat buttons and the dealer button box.

    Args:
        queue: where events go (anything with ``put(event)``, e.g. :class:`queue.Queue`).
        pin_map: which pin each key is on (default :data:`hardware.pins.DEFAULT_PIN_MAP`).
        pin_factory: a gpiozero factory object, or a factory name for
            :func:`hardware.pins.make_pin_factory` (``"mock"`` makes a mock whose pins
            :meth:`unplug` can fail), or None for the machine's default.
        clock: monotonic seconds (injectable; the simulator passes its virtual clock).
        bounce_time, hold_time: debounce and hold thresholds in seconds (see
            :mod:`hardware.debounce`).
        stuck_time: seconds pressed after which a key is reported offline as stuck.
        health_interval: seconds between reads of every key's pin (to notice failures).
        retry_initial, retry_max: backoff in seconds for reopening a failed key (doubles).
        sample: read the keys' levels in :meth:`poll` instead of edge callbacks (for GPIO
            lines without edge interrupts, e.g. an MCP23017 expander wired without its INT
            line; poll at least every ``bounce_time / 2`` then).

    Raises:
        PinConfigError / PinFactoryError: from the factory name (a bad name, a missing
            library).  Individual keys that fail to open do not raise: they are offline.
    """

    def __init__(self, queue: Any, pin_map: PinMap = DEFAULT_PIN_MAP,
                 pin_factory: Any = None, *, clock: Callable[[], float] = time.monotonic,
                 bounce_time: float = DEFAULT_BOUNCE_TIME, hold_time: float = DEFAULT_HOLD_TIME,
                 stuck_time: float = DEFAULT_STUCK_TIME,
                 health_interval: float = DEFAULT_HEALTH_INTERVAL,
                 retry_initial: float = DEFAULT_RETRY_INITIAL,
                 retry_max: float = DEFAULT_RETRY_MAX, sample: bool = False) -> None:
        self._queue = queue
        self.sample = sample
        self._clock = clock
        self.pin_map = pin_map.validate()
        if pin_factory is None or isinstance(pin_factory, str):
            if pin_factory in (None, "auto"):
                from hardware.pins import default_factory_name
                pin_factory = default_factory_name()
            pin_factory = (make_sim_mock_factory() if pin_factory == "mock"
                           else make_pin_factory(pin_factory))
        self.factory = pin_factory
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.stuck_time = stuck_time
        self.health_interval = health_interval
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self._lock = threading.RLock()
        self._time_override: float | None = None
        self._next_health = 0.0
        self._poller: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._closed = False
        self.events_emitted = 0
        self.keys: dict[tuple[int | str, str], _Key] = {}
        for seat, buttons in sorted(self.pin_map.seats.items()):
            for button in SEAT_BUTTONS:
                if button in buttons:
                    self._add_key(seat, button, buttons[button])
        for button in DEALER_BUTTONS:
            if button in self.pin_map.dealer:
                self._add_key(DEALER, button, self.pin_map.dealer[button])
        now = self._now()
        with self._lock:
            for key in self.keys.values():
                self._open(key, now, announce_online=False)

    # --- construction and health -------------------------------------------------------
    def _add_key(self, group: int | str, button: str, pin: int | str) -> None:
        health = Health(key_name(group, button), self._queue,
                        retry_initial=self.retry_initial, retry_max=self.retry_max)
        self.keys[(group, button)] = _Key(group, button, pin,
                                          Debouncer(self.bounce_time, self.hold_time), health)

    def _open(self, key: _Key, now: float, *, announce_online: bool = True) -> None:
        # gpiozero's DigitalInputDevice, not its Button: holds are decided by our debouncer,
        # and a Button keeps a hold thread per key that wakes ten times a second
        from gpiozero import DigitalInputDevice

        dev = None
        try:
            dev = DigitalInputDevice(key.pin, pull_up=True, bounce_time=None,
                                     pin_factory=self.factory)
            if not self.sample:
                dev.when_activated = lambda _d, k=key: self._on_edge(k, True)
                dev.when_deactivated = lambda _d, k=key: self._on_edge(k, False)
            _ = dev.value  # a read proves the line works
        except Exception as exc:  # noqa: BLE001 - any failure of one key must not stop the rest
            if dev is not None:
                _safe_close(dev)
            key.health.failed(now, f"cannot open pin {key.pin}: {_describe(exc)}")
            return
        key.device = dev
        if announce_online:
            key.health.works(now, f"pin {key.pin} open")

    def _check_health(self, now: float) -> None:
        for key in self.keys.values():
            if key.device is None:
                if now >= key.health.retry_at:
                    self._open(key, now)
                continue
            if not key.online and not key.health.retry_due(now):
                continue
            try:
                key.device.pin.state  # noqa: B018 - the read is the check
            except Exception as exc:  # noqa: BLE001
                key.health.failed(now, f"pin {key.pin} unreadable: {_describe(exc)}")
                continue
            if key.debouncer.pressed_for(now) >= self.stuck_time:
                if not key.stuck:
                    key.stuck = True
                    key.health.failed(now, "stuck pressed (shorted cable or jammed key)")
                continue
            key.stuck = False
            key.health.works(now, f"pin {key.pin} reads again")

    # --- edges and time ----------------------------------------------------------------
    def _now(self) -> float:
        return self._time_override if self._time_override is not None else self._clock()

    def _on_edge(self, key: _Key, pressed: bool) -> None:
        """gpiozero callback: debounce the edge (stamped now) and enqueue what it decides;
        wake the poller thread, whose next deadline may have moved."""
        with self._lock:
            for decision in key.debouncer.edge(pressed, self._now()):
                self._emit(key, decision)
        self._wake.set()

    def next_deadline(self) -> float:
        """The time :meth:`poll` must run next: the earliest debounce or hold deadline of
        any key, or the next health check."""
        with self._lock:
            times = [d for d in (k.debouncer.next_deadline() for k in self.keys.values())
                     if d is not None]
            return min([self._next_health, *times])

    def poll(self, now: float | None = None) -> int:
        """Let time decide (releases that settled, holds reached), check the keys' health at
        most every ``health_interval``; returns how many button events were enqueued."""
        with self._lock:
            now = self._now() if now is None else now
            before = self.events_emitted
            if self.sample:
                self._sample(now)
            for key in self.keys.values():
                for decision in key.debouncer.poll(now):
                    self._emit(key, decision)
            if now >= self._next_health:
                self._next_health = now + self.health_interval
                self._check_health(now)
            return self.events_emitted - before

    def _sample(self, now: float) -> None:
        """Sampling mode: feed each key's current level as an edge (no-op when unchanged);
        a read failure is left to the health check."""
        for key in self.keys.values():
            if key.device is None or not key.online:
                continue
            try:
                pressed = bool(key.device.is_active)
            except Exception:  # noqa: BLE001, S112 - reported by _check_health
                continue
            if pressed != key.debouncer.raw:
                for decision in key.debouncer.edge(pressed, now):
                    self._emit(key, decision)

    def _emit(self, key: _Key, decision: Decision) -> None:
        event: Event
        if key.group == DEALER:
            event = DealerButton(t=decision.t, button=key.button, press=decision.kind)
        else:
            event = SeatButton(t=decision.t, seat=int(key.group), button=key.button,
                               press=decision.kind)
        self.events_emitted += 1
        self._put(event)

    def _put(self, event: Event) -> None:
        enqueue(self._queue, event)

    # --- poller thread -------------------------------------------------------------------
    def start_poller(self, interval: float | None = None) -> None:
        """Run :meth:`poll` on a daemon thread (real time): at each deadline of
        :meth:`next_deadline`, woken early by an edge; or every ``interval`` seconds when
        given (and in sampling mode, 10 ms by default: no edges to wake on)."""
        if self._poller is not None:
            return
        self._stop.clear()
        if interval is None and self.sample:
            interval = 0.01

        def wait() -> None:
            if interval is not None:
                self._stop.wait(interval)
                return
            self._wake.wait(max(0.0, self.next_deadline() - self._now()))
            self._wake.clear()

        def run() -> None:
            while True:
                wait()
                if self._stop.is_set():
                    return
                try:
                    self.poll()
                except Exception:
                    log.exception("button poll failed")

        self._poller = threading.Thread(target=run, name="button-poller", daemon=True)
        self._poller.start()

    def close(self) -> None:
        """Stop the poller and release every pin.  Idempotent."""
        self._stop.set()
        self._wake.set()
        if self._poller is not None:
            self._poller.join(timeout=1.0)
            self._poller = None
        with self._lock:
            devices = [k.device for k in self.keys.values() if k.device is not None]
            # gpiozero's Button runs a hold thread that notices a stop request within 0.1 s;
            # ask them all first so closing 24 keys takes 0.1 s, not 24 x 0.1 s.
            for dev in devices:
                hold_thread = getattr(dev, "_hold_thread", None)
                if hold_thread is not None:
                    hold_thread.stopping.set()
            for key in self.keys.values():
                if key.device is not None:
                    _safe_close(key.device)
                    key.device = None
            self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- status --------------------------------------------------------------------------
    def offline(self) -> list[str]:
        """Names of the keys now offline (``"button:3:fold"``)."""
        return [k.name for k in self.keys.values() if not k.online]

    # --- simulation ------------------------------------------------------------------------
    def _key(self, seat: int | str | None, button: str) -> _Key:
        group: int | str = DEALER if seat in (None, DEALER) else int(seat)
        key = self.keys.get((group, button))
        if key is None:
            where = "the dealer box" if group == DEALER else f"seat {group}"
            raise UnknownButtonError(f"no {button!r} key on {where} in the pin map")
        return key

    def mock_pin(self, seat: int | str | None, button: str) -> Any:
        """The factory's pin object of a key (a MockPin under the mock factory)."""
        return self.factory.pin(self._key(seat, button).pin)

    def press(self, seat: int | str | None, button: str, *, hold: bool = False,
              at: float | None = None, duration: float = 0.08, bounces: int = 0) -> bool:
        """Press a key through the mock pins, as a finger would; simulation and tests only.

        ``seat``: 1-based seat, or ``"dealer"``/None for the dealer button box.  The edges are
        stamped so that the debounced event's ``t`` is ``at`` (default: the clock now): a
        press goes down at ``at - bounce_time - duration`` and up at ``at - bounce_time``; a
        hold goes down at ``at - hold_time`` and up at ``at``.  ``bounces`` adds that many
        contact bounces (sub-millisecond pulses) after each edge.  The events are on the
        queue when this returns.  Returns False (and presses nothing) when the key is
        unplugged.

        Raises:
            UnknownButtonError: no such key in the pin map.
        """
        key = self._key(seat, button)
        pin = self.factory.pin(key.pin)
        if getattr(pin, "fault", None) is not None or key.device is None:
            return False
        with self._lock:
            at = self._clock() if at is None else float(at)
            if hold:
                down, up = at - self.hold_time, at
            else:
                down = at - self.bounce_time - duration
                up = at - self.bounce_time
            earliest = key.debouncer.earliest_next_edge()
            lead = 2 * bounces * self._bounce_step(bounces)
            if down - lead < earliest:  # keep edges after the previous ones
                shift = earliest - (down - lead)
                down, up, at = down + shift, up + shift, at + shift
            try:
                self._drive(pin, False, down, bounces)
                if hold:
                    self.poll(at)
                self._drive(pin, True, up, bounces)
                if not hold:
                    self.poll(at)
            finally:
                self._time_override = None
        return True

    def _bounce_step(self, bounces: int) -> float:
        return min(0.0005, self.bounce_time / (4 * bounces + 4))

    def _drive(self, pin: Any, high: bool, t: float, bounces: int) -> None:
        """Drive ``pin`` to ``high`` so that its last edge (after the bounces) is at ``t``."""
        step = self._bounce_step(bounces)
        levels = [high] + [not high, high] * bounces
        for i, level in enumerate(levels):
            self._time_override = t - (len(levels) - 1 - i) * step
            if level:
                pin.drive_high()
            else:
                pin.drive_low()
            if self.sample:  # no callbacks: sample right at the edge, as a fast poll would
                self._sample(self._time_override)

    def unplug(self, seat: int | str | None, button: str | None = None,
               err: int = errno.EIO) -> None:
        """Simulate a pulled cable: the key's (or the whole seat's) mock pins fail reads with
        ``OSError(err)`` until :meth:`replug`.  The next health check reports them offline."""
        for key in self._group_keys(seat, button):
            self.factory.pin(key.pin).fault = OSError(err, f"simulated unplug ({key.name})")
        with self._lock:
            self._next_health = float("-inf")

    def replug(self, seat: int | str | None, button: str | None = None) -> None:
        """Undo :meth:`unplug`; the next health check after the backoff reports online."""
        for key in self._group_keys(seat, button):
            self.factory.pin(key.pin).fault = None
        with self._lock:
            self._next_health = float("-inf")

    def _group_keys(self, seat: int | str | None, button: str | None) -> Iterable[_Key]:
        if button is not None:
            return [self._key(seat, button)]
        group: int | str = DEALER if seat in (None, DEALER) else int(seat)
        keys = [k for (g, _b), k in self.keys.items() if g == group]
        if not keys:
            raise UnknownButtonError(f"no keys for {group!r} in the pin map")
        return keys


def _safe_close(dev: Any) -> None:
    try:
        dev.close()
    except Exception as exc:  # noqa: BLE001 - closing a failed key must not raise
        log.debug("closing %r failed: %s", dev, exc)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"{type(exc).__name__} errno {exc.errno} ({exc.strerror})"
    return f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class ButtonSettings:
    """The ``[buttons]`` settings a :class:`ButtonBank` is built from: ``pin_factory`` (a
    factory name for :func:`hardware.pins.make_pin_factory`, ``"mock"`` or ``"auto"``),
    ``pin_map``, ``bounce_time``, ``hold_time`` and ``stuck_time`` (seconds), ``sample``
    (read levels in :meth:`ButtonBank.poll` instead of edge callbacks)."""

    pin_factory: str = "auto"
    pin_map: PinMap = DEFAULT_PIN_MAP
    bounce_time: float = DEFAULT_BOUNCE_TIME
    hold_time: float = DEFAULT_HOLD_TIME
    stuck_time: float = DEFAULT_STUCK_TIME
    sample: bool = False

    @classmethod
    def from_mapping(cls, cfg: Mapping[str, Any] | None) -> ButtonSettings:
        """From a ``[buttons]`` table: the fields' keys, with ``seats``/``dealer`` in the
        shape of :func:`hardware.pins.pin_map_from_config`.

        Raises:
            PinConfigError: a bad pin map.
        """
        from hardware.pins import pin_map_from_config

        cfg = dict(cfg or {})
        return cls(pin_factory=cfg.get("pin_factory") or "auto",
                   pin_map=pin_map_from_config(cfg),
                   bounce_time=float(cfg.get("bounce_time", DEFAULT_BOUNCE_TIME)),
                   hold_time=float(cfg.get("hold_time", DEFAULT_HOLD_TIME)),
                   stuck_time=float(cfg.get("stuck_time", DEFAULT_STUCK_TIME)),
                   sample=bool(cfg.get("sample", False)))

    def make(self, queue: Any, *, clock: Callable[[], float] = time.monotonic) -> ButtonBank:
        """The :class:`ButtonBank` of these settings (no poller started)."""
        return ButtonBank(queue, self.pin_map, self.pin_factory, clock=clock,
                          bounce_time=self.bounce_time, hold_time=self.hold_time,
                          stuck_time=self.stuck_time, sample=self.sample)


def bank_from_config(cfg: Mapping[str, Any] | None, queue: Any, *,
                     clock: Callable[[], float] = time.monotonic) -> ButtonBank:
    """A :class:`ButtonBank` from the ``[buttons]`` config table (see
    :meth:`ButtonSettings.from_mapping`)."""
    return ButtonSettings.from_mapping(cfg).make(queue, clock=clock)
