"""The seat displays: one 128x64 SSD1306/SH1106 OLED per seat, over luma.oled.

Wiring: every display has the same I2C address (0x3C), so each sits on its own channel of a
TCA9548A multiplexer on I2C1.  The kernel's ``i2c-mux`` overlay
(``dtoverlay=i2c-mux,pca9548,addr=0x70``) turns the channels into ``/dev/i2c-N`` buses; the
seat -> bus mapping is configuration (``[displays.buses]``), or the seat -> channel mapping
(``[displays.channels]``) resolved through sysfs by :func:`resolve_mux_buses`.

Backends (``[displays] backend``): ``"luma"`` (the real displays; ``driver`` ``"ssd1306"`` or
``"sh1106"``) and ``"mock"`` (:class:`luma.core.device.dummy`, the default off the Pi, which
keeps the last image for tests and screenshots).

Failures: an ``OSError`` (errno 121 EREMOTEIO when the display does not answer, 5 EIO) or a
luma error (luma turns those errnos into ``DeviceNotFoundError`` during commands) marks the
seat display offline: a :class:`engine.events.DeviceStatus` (``device="display:3"``) goes on
the queue, :attr:`SeatDisplay.online` turns False, and the display is re-created (re-init) with
exponential backoff; on success it shows the latest view and reports online.  Nothing here
raises into the loop for a device failure.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from engine.errors import InvalidInputError
from engine.views import SeatDisplayView
from hardware.health import HasHealth, Health
from hardware.seat_render import HEIGHT, WIDTH, render_seat_view

log = logging.getLogger(__name__)

BACKENDS = ("mock", "luma")
DRIVERS = ("ssd1306", "sh1106")
DEFAULT_ADDRESS = 0x3C
DEFAULT_RETRY_INITIAL = 1.0
DEFAULT_RETRY_MAX = 30.0
#: errnos that mean "the display is gone" on I2C (for the log line; any OSError counts).
I2C_GONE_ERRNOS = (errno.EREMOTEIO, errno.EIO)


class DisplayConfigError(InvalidInputError):
    """A bad ``[displays]`` configuration (unknown backend or driver, bad mapping)."""


class _SimWire:
    """The simulated cable of a mock display: while ``fault`` is set every transfer fails."""

    def __init__(self) -> None:
        self.fault: OSError | None = None


def _make_dummy(wire: _SimWire) -> Any:
    from luma.core.device import dummy

    class SimDummy(dummy):
        """luma's dummy device whose transfers fail while the simulated cable is pulled."""

        def display(self, image: Image.Image) -> None:
            if wire.fault is not None:
                raise wire.fault
            super().display(image)

    if wire.fault is not None:  # init commands fail the same way
        raise wire.fault
    return SimDummy(width=WIDTH, height=HEIGHT, mode="1")


def _device_errors() -> tuple[type[BaseException], ...]:
    try:
        import luma.core.error as luma_error

        return (OSError, luma_error.Error)
    except ImportError:  # pragma: no cover - luma is a dependency
        return (OSError,)


class SeatDisplay(HasHealth):
    """One seat's display.

    Args:
        seat: 1-based seat number.
        queue: where :class:`DeviceStatus` events go (``put(event)``), or None.
        backend: ``"mock"`` or ``"luma"``.
        bus: the ``/dev/i2c-N`` number of this seat's mux channel (``"luma"`` only).
        address: I2C address of the display (0x3C, or 0x3D with the address jumper).
        driver: ``"ssd1306"`` or ``"sh1106"``.
        rotate: luma rotation 0-3 (2 = upside down, for displays facing the player).
        clock: monotonic seconds (injectable).
        retry_initial, retry_max: backoff in seconds for re-creating a failed display.
        device_factory: optional ``() -> luma device``, overriding the backend (tests use it
            to run luma's real ssd1306 driver over a fake smbus).

    Raises:
        DisplayConfigError: unknown backend or driver, or ``"luma"`` without a bus.
    """

    def __init__(self, seat: int, queue: Any = None, *, backend: str = "mock",
                 bus: int | None = None, address: int = DEFAULT_ADDRESS,
                 driver: str = "ssd1306", rotate: int = 0,
                 clock: Callable[[], float] = time.monotonic,
                 retry_initial: float = DEFAULT_RETRY_INITIAL,
                 retry_max: float = DEFAULT_RETRY_MAX,
                 device_factory: Callable[[], Any] | None = None) -> None:
        if backend not in BACKENDS:
            raise DisplayConfigError(
                f"display backend {backend!r} is not one of {', '.join(BACKENDS)}")
        if driver not in DRIVERS:
            raise DisplayConfigError(f"display driver {driver!r} is not one of {', '.join(DRIVERS)}")
        if backend == "luma" and bus is None and device_factory is None:
            raise DisplayConfigError(f"seat {seat} display: backend 'luma' needs its i2c bus number")
        self.seat = seat
        self.name = f"display:{seat}"
        self.backend = backend
        self.bus = bus
        self.address = address
        self.driver = driver
        self.rotate = rotate
        self._clock = clock
        self.health = Health(self.name, queue, retry_initial=retry_initial,
                             retry_max=retry_max)
        self._factory = device_factory
        self._wire = _SimWire()
        self._errors = _device_errors()
        self.device: Any = None
        self._image: Image.Image | None = None   # latest rendered image
        self.frames_sent = 0
        self._connect(self._clock(), announce=False)

    # --- device lifecycle ------------------------------------------------------------
    def _new_device(self) -> Any:
        if self._factory is not None:
            return self._factory()
        if self.backend == "mock":
            return _make_dummy(self._wire)
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        serial = i2c(port=self.bus, address=self.address)
        cls = oled.ssd1306 if self.driver == "ssd1306" else oled.sh1106
        return cls(serial, width=WIDTH, height=HEIGHT, rotate=self.rotate)

    def _connect(self, now: float, *, announce: bool = True) -> bool:
        self._release()
        try:
            self.device = self._new_device()
            if self._image is not None:
                self._push(self._image)
        except self._errors as exc:
            self._fail(now, exc)
            return False
        if announce:
            self.health.works(now, "display answers")
        else:
            self.health.online = True
        return True

    def _release(self) -> None:
        dev, self.device = self.device, None
        if dev is None or self.backend == "mock":
            return
        try:  # close the smbus handle; the panel itself may be gone
            dev.serial_interface.cleanup()
        except Exception as exc:  # noqa: BLE001
            log.debug("%s: closing the bus failed: %s", self.name, exc)

    def _fail(self, now: float, exc: BaseException) -> None:
        code = getattr(exc, "errno", None)
        reason = f"{type(exc).__name__}" + (f" errno {code}" if code is not None else "") + \
            f": {exc}"
        self.health.failed(now, reason)
        self._release()

    def _push(self, image: Image.Image) -> None:
        self.device.display(image)
        self.frames_sent += 1

    # --- public ----------------------------------------------------------------------
    def show(self, view: SeatDisplayView, now: float | None = None) -> bool:
        """Render ``view`` and send it; returns True when a frame went to the device.  The
        loop hands over only views that changed (:mod:`pi_app.service.changes`).  While
        offline, the picture is kept and a retry happens once the backoff has elapsed.
        Never raises for a device failure."""
        now = self._clock() if now is None else now
        self._image = render_seat_view(view)
        return self._flush(now)

    def poll(self, now: float | None = None) -> bool:
        """Retry an offline display when its backoff has elapsed; True if it came back."""
        now = self._clock() if now is None else now
        if self.online:
            return False
        return self._flush(now) and self.online

    def _flush(self, now: float) -> bool:
        if not self.online:
            if not self.health.retry_due(now):
                return False
            before = self.frames_sent
            return self._connect(now) and self.frames_sent > before
        if self.device is None or self._image is None:
            return False
        before = self.frames_sent
        try:
            self._push(self._image)
        except self._errors as exc:
            self._fail(now, exc)
            return False
        return self.frames_sent > before

    @property
    def image(self) -> Image.Image | None:
        """The latest rendered image (what the display shows when online)."""
        return self._image

    def device_image(self) -> Image.Image | None:
        """What the mock device holds now (luma dummy's ``image``); None for real devices."""
        return getattr(self.device, "image", None)

    def unplug(self, err: int = errno.EREMOTEIO) -> None:
        """Simulation: pull the mock display's cable; transfers fail with ``OSError(err)``."""
        self._wire.fault = OSError(err, os.strerror(err))

    def replug(self) -> None:
        """Simulation: plug the mock display back in (it comes online at the next retry)."""
        self._wire.fault = None

    def close(self) -> None:
        """Release the bus handle.  Idempotent."""
        self._release()


def resolve_mux_buses(parent_bus: int = 1, mux_address: int = 0x70,
                      sysfs: str = "/sys/bus/i2c/devices") -> dict[int, int]:
    """``{channel: bus_number}`` of a PCA9548/TCA9548A bound by the kernel, read from the
    ``channel-N`` links the i2c-mux core creates in ``<sysfs>/<parent>-00<addr>/``.

    Raises:
        DisplayConfigError: the multiplexer is not there (overlay missing, wiring, address).
    """
    mux_dir = os.path.join(sysfs, f"{parent_bus}-{mux_address:04x}")
    if not os.path.isdir(mux_dir):
        raise DisplayConfigError(
            f"no I2C multiplexer at {mux_dir}: add 'dtoverlay=i2c-mux,pca9548,addr="
            f"0x{mux_address:02x}' to /boot/firmware/config.txt and check the wiring")
    out: dict[int, int] = {}
    for entry in os.listdir(mux_dir):
        if not entry.startswith("channel-"):
            continue
        target = os.path.basename(os.path.realpath(os.path.join(mux_dir, entry)))
        if target.startswith("i2c-") and target[4:].isdigit():
            out[int(entry[len("channel-"):])] = int(target[4:])
    return out


@dataclass(frozen=True)
class DisplaySettings:
    """The ``[displays]`` settings a :class:`SeatDisplayBank` is built from.

    ``backend`` (``"mock"``/``"luma"``; None: luma on a Pi, mock elsewhere), ``seats``
    (1-based seat numbers with a display), ``driver``, ``address`` (7-bit I2C address, default
    0x3C) and ``addresses`` (seat -> address, for two displays on one channel), ``rotate``
    (luma rotation 0-3), ``buses`` (seat -> /dev/i2c-N number) or ``channels`` (seat -> mux
    channel, resolved with ``mux_parent_bus`` and ``mux_address`` through sysfs),
    ``threaded`` (frames go out on a writer thread).
    """

    backend: str | None = None
    seats: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    driver: str = "ssd1306"
    address: int = DEFAULT_ADDRESS
    addresses: Mapping[int, int] = field(default_factory=dict)
    rotate: int = 0
    buses: Mapping[int, int] = field(default_factory=dict)
    channels: Mapping[int, int] = field(default_factory=dict)
    mux_parent_bus: int = 1
    mux_address: int = 0x70
    threaded: bool = False

    @classmethod
    def from_mapping(cls, cfg: Mapping[str, Any] | None) -> DisplaySettings:
        """From a ``[displays]``-shaped table (the keys of the fields; numbers may be
        strings such as ``"0x3C"``)."""
        cfg = dict(cfg or {})
        return cls(
            backend=cfg.get("backend") or None,
            seats=tuple(int(s) for s in cfg.get("seats", range(1, 7))),
            driver=cfg.get("driver", "ssd1306"),
            address=int(str(cfg.get("address", DEFAULT_ADDRESS)), 0),
            addresses={int(k): int(str(v), 0) for k, v in dict(cfg.get("addresses", {})).items()},
            rotate=int(cfg.get("rotate", 0)),
            buses={int(k): int(v) for k, v in dict(cfg.get("buses", {})).items()},
            channels={int(k): int(v) for k, v in dict(cfg.get("channels", {})).items()},
            mux_parent_bus=int(cfg.get("mux_parent_bus", 1)),
            mux_address=int(str(cfg.get("mux_address", 0x70)), 0),
            threaded=bool(cfg.get("threaded", False)))


class SeatDisplayBank:
    """All seat displays, built from :class:`DisplaySettings` (or the ``[displays]``-shaped
    table of its :meth:`DisplaySettings.from_mapping`).  A seat whose bus cannot be resolved
    starts offline rather than stopping the service.

    ``threaded`` (config ``threaded``, default False): frames go out on a writer thread, so
    the loop never waits for the bus (a full 128x64 frame is 1 KB: about 92 ms at 100 kHz,
    23 ms at 400 kHz).  :meth:`show` then only hands over the views (latest view per seat
    wins) and returns 0; the writer also retries offline displays twice a second.
    """

    def __init__(self, cfg: DisplaySettings | Mapping[str, Any] | None, queue: Any = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sysfs: str = "/sys/bus/i2c/devices", threaded: bool | None = None) -> None:
        settings = cfg if isinstance(cfg, DisplaySettings) else DisplaySettings.from_mapping(cfg)
        self.threaded = settings.threaded if threaded is None else threaded
        self._cond = threading.Condition()
        self._pending: dict[int, SeatDisplayView] = {}
        self._busy = False
        self._stop = False
        self._writer: threading.Thread | None = None
        backend = settings.backend or _default_backend()
        buses = dict(settings.buses)
        if backend == "luma" and not buses:
            buses = _resolve_buses(settings, sysfs)
        self.displays: dict[int, SeatDisplay] = {}
        for seat in settings.seats:
            kwargs: dict[str, Any] = {
                "backend": backend, "driver": settings.driver,
                "address": settings.addresses.get(seat, settings.address),
                "rotate": settings.rotate, "clock": clock}
            if backend == "luma" and seat not in buses:
                kwargs["device_factory"] = _missing_bus(seat)
            self.displays[seat] = SeatDisplay(seat, queue, bus=buses.get(seat), **kwargs)
        if self.threaded:
            self._writer = threading.Thread(target=self._write_loop, name="seat-displays",
                                            daemon=True)
            self._writer.start()

    def show(self, views: Mapping[int, SeatDisplayView], now: float | None = None) -> int:
        """Show each seat's view; returns the number of frames sent (0 when threaded: the
        writer sends them)."""
        views = {s: v for s, v in views.items() if s in self.displays}
        if self.threaded:
            with self._cond:
                self._pending.update(views)
                self._cond.notify()
            return 0
        return sum(self.displays[s].show(v, now) for s, v in views.items())

    def poll(self, now: float | None = None) -> None:
        """Retry the offline displays whose backoff elapsed (the writer does it when
        threaded)."""
        if self.threaded:
            return
        for d in self.displays.values():
            d.poll(now)

    def _write_loop(self) -> None:
        while True:
            with self._cond:
                if not self._pending and not self._stop:
                    self._cond.wait(0.5)
                if self._stop:
                    return
                batch, self._pending = self._pending, {}
                self._busy = True
            try:
                for seat, view in batch.items():
                    self.displays[seat].show(view)
                for d in self.displays.values():
                    d.poll()
            except Exception:  # a rendering bug must not kill the writer
                log.exception("seat display writer")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the writer has sent everything handed over; True when done."""
        if not self.threaded:
            return True
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def offline(self) -> list[str]:
        """``["display:3", ...]`` for the displays offline now."""
        return [d.name for d in self.displays.values() if not d.online]

    def close(self) -> None:
        """Stop the writer (if any) and release the buses.  Idempotent."""
        if self._writer is not None:
            with self._cond:
                self._stop = True
                self._cond.notify_all()
            self._writer.join(timeout=2.0)
            self._writer = None
        for d in self.displays.values():
            d.close()


def _resolve_buses(settings: DisplaySettings, sysfs: str) -> dict[int, int]:
    """Seat -> bus through the mux channels (default: seat N on channel N-1); a missing
    multiplexer is logged and leaves every seat without a bus (offline, not fatal)."""
    channels = dict(settings.channels) or {seat: seat - 1 for seat in settings.seats}
    try:
        by_channel = resolve_mux_buses(settings.mux_parent_bus, settings.mux_address, sysfs)
    except DisplayConfigError as exc:
        log.warning("%s", exc)
        by_channel = {}
    return {s: by_channel[c] for s, c in channels.items() if c in by_channel}


def _missing_bus(seat: int) -> Callable[[], Any]:
    def factory() -> Any:
        raise OSError(errno.ENODEV, f"no i2c bus for seat {seat} (mux channel not found)")
    return factory


def _default_backend() -> str:
    from hardware.pins import is_raspberry_pi

    return "luma" if is_raspberry_pi() else "mock"
