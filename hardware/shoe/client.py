"""Host client for the card shoe: a pyserial reader thread that turns frames into events.

The client owns the serial port (opened exclusively, by a stable path such as
``/dev/serial/by-id/usb-PokerTable_PokerTable_Shoe_e6614c311b7e5a2c-if00``) and puts
:class:`engine.events.CardDrawn`, :class:`engine.events.ShoeStatus` and a few other events on
the queue it was given.  It never blocks the loop: it only calls ``events.put``.

Delivery (docs/shoe-protocol.md): sequenced frames are delivered exactly once and in order,
de-duplicated on ``(boot id, seq)`` (never on the UID: after a reshuffle the same card can
come out twice); a gap triggers a ``replay`` request and later frames wait in a small
reorder buffer; every accepted frame is acknowledged cumulatively.  A corrupt frame is
dropped and counted.

Events produced:

* ``CardDrawn(t, uid, draw)`` for each ``card`` frame;
* ``ShoeStatus(t, online, reason)`` on each change between online and offline (port
  missing or vanished, shoe silent, protocol version mismatch, shoe restarted);
* ``DealerButton(t, "exposed_card")`` for the shoe-mounted key;
* ``DeviceStatus(t, "shoe", True, detail)`` for an unknown tag, a device error, or frames
  the shoe could no longer replay.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import serial

from engine.events import CardDrawn, DealerButton, DeviceStatus, Event, ShoeStatus
from hardware.shoe.guard import LinkGuard, LinkViolation
from hardware.shoe.protocol import (
    MODES,
    PROTOCOL_VERSION,
    Button,
    Card,
    DeviceMessage,
    Error,
    FrameError,
    Heartbeat,
    Hello,
    LineSplitter,
    ShoeMessageError,
    UnknownTag,
    decode,
    host_frame,
    parse,
)

_log = logging.getLogger(__name__)

# ``shoesim://`` URLs (hardware/shoe/protocol_shoesim.py) work for any port setting; the
# handler module, and the simulator with it, is imported only when such a URL is opened.
if "hardware.shoe" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("hardware.shoe")

SILENT_TIMEOUT = 3.5   # s without a valid frame: three missed 1 Hz heartbeats plus slack
PENDING_MAX = 512      # out-of-order frames held while waiting for a replay


class EventSink(Protocol):
    def put(self, item: Event) -> None: ...


class ShoeClient:
    """Reads the shoe on a background thread and feeds events to ``events``.

    Args:
        port: device path (prefer ``/dev/serial/by-id/...``) or any pyserial URL.
        events: the loop's queue (anything with ``put``; ``queue.Queue`` in the service).
        clock: monotonic clock in seconds (injectable for tests); stamps events and times
            the silent-shoe timeout.
        baudrate: 115200 (ignored by USB CDC, used by a UART).
        silent_timeout: seconds without a valid frame before the shoe is reported offline.
        replay_interval: seconds before the same replay request is repeated.
        read_timeout: seconds one ``read`` may block (the thread's housekeeping period);
            the reader blocks on the port, and a command to send (:meth:`set_mode`,
            :meth:`lock`, :meth:`ping`) cuts the wait short (pyserial's ``cancel_read``).
        backoff: (first, max) seconds between attempts to reopen a missing port.
        exclusive: open with pyserial's ``exclusive=True`` (an advisory ``flock``).
        opener: optional ``opener(port, **kwargs) -> serial.SerialBase`` (default
            :func:`serial.serial_for_url`).

    Thread-safety: :meth:`set_mode`, :meth:`lock` and :meth:`ping` may be called from any
    thread; they only record what to send, the reader thread sends it.
    """

    def __init__(self, port: str, events: EventSink, *,
                 clock: Callable[[], float] = time.monotonic, baudrate: int = 115200,
                 silent_timeout: float = SILENT_TIMEOUT, replay_interval: float = 0.2,
                 read_timeout: float = 1.0, backoff: tuple[float, float] = (0.05, 2.0),
                 exclusive: bool = True, opener: Callable[..., Any] | None = None) -> None:
        self.port = port
        self.events = events
        self.clock = clock
        self.baudrate = baudrate
        self.silent_timeout = silent_timeout
        self.replay_interval = replay_interval
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.exclusive = exclusive
        self._opener = opener or serial.serial_for_url
        self.boot = os.urandom(4).hex().upper()  # this host session's id
        self._seq = 0
        self._ser: Any = None
        self.simulator: Any = None  # set by make_shoe for the "sim" backend
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._splitter = LineSplitter()
        self._tx: list[bytes] = []
        # device session
        self.device_boot: str | None = None
        self.hello: Hello | None = None
        self.last_heartbeat: Heartbeat | None = None
        self.guard = LinkGuard()
        self._distrusted: str | None = None   # a power-up that sent an impossible frame
        self._churn_notice_at = -1e9
        self._next_seq = 1
        self._pending: dict[int, DeviceMessage] = {}
        self._ack_due = False
        self._replay_for: int | None = None
        self._replay_at = -1e9
        self._last_rx = 0.0
        self._last_ping = -1e9
        self._incompatible: int | None = None
        # state
        self.online: bool | None = None
        self.reason = ""
        self._want_mode: str | None = None
        self._want_locked: bool | None = None
        self._due: set[str] = set()
        self.stats: dict[str, int] = dict.fromkeys(
            ("frames", "corrupt_rejected", "duplicates", "out_of_order", "replays", "lost",
             "cards", "stale", "version_mismatch", "opens", "acks", "violations",
             "rejected", "churn"), 0)

    # --- public ------------------------------------------------------------------------
    def start(self) -> ShoeClient:
        """Start the reader thread (returns ``self``)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="shoe-client", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()

    def set_mode(self, mode: str) -> None:
        """Ask the shoe for ``mode`` (``deal``, ``register`` or ``idle``); re-sent until the
        shoe's heartbeat shows it.

        Raises:
            ShoeMessageError: unknown mode.
        """
        if mode not in MODES:
            raise ShoeMessageError(f"unknown shoe mode {mode!r}; expected one of "
                                   + ", ".join(MODES))
        with self._lock:
            self._want_mode = mode
            self._due.add("mode")
        self._wake()

    def lock(self, locked: bool = True) -> None:
        """Lock the shoe (stop dealing after an irregularity) or unlock it."""
        with self._lock:
            self._want_locked = bool(locked)
            self._due.add("lock")
        self._wake()

    def ping(self) -> None:
        """Ask the shoe for a ``hello``."""
        with self._lock:
            self._due.add("ping")
        self._wake()

    def _wake(self) -> None:
        """Cut the reader's blocking read short, so what is due is sent now."""
        ser = self._ser
        cancel = getattr(ser, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(Exception):  # a port closing under us
                cancel()

    # --- port --------------------------------------------------------------------------
    def _open(self) -> Any:
        kwargs: dict[str, Any] = {"baudrate": self.baudrate, "timeout": self.read_timeout,
                                  "write_timeout": 1.0}
        if self.exclusive:
            kwargs["exclusive"] = True
        return self._opener(self.port, **kwargs)

    def _close(self) -> None:
        ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(Exception):  # a vanished port may fail to close any way
                ser.close()

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            if self._ser is None:
                try:
                    self._ser = self._open()
                except (serial.SerialException, OSError, ValueError) as exc:
                    self._set_online(False, f"shoe not connected ({self.port}): {exc}")
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                delay = self.backoff[0]
                self.stats["opens"] += 1
                self._splitter.reset()
                self._last_rx = self.clock()
                self._last_ping = -1e9
                self._incompatible = None
            try:
                waiting = self._ser.in_waiting
                data = self._ser.read(waiting if waiting > 0 else 1)
                now = self.clock()
                if data:
                    self._feed(data, now)
                self._housekeeping(now)
                self._flush()
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # pyserial raises SerialException (or OSError, or TypeError from a closed fd)
                # when the USB device disappears under it.
                self._close()
                self._set_online(False, f"shoe port vanished ({self.port}): {exc}")
            except Exception:  # noqa: BLE001 - a bug must not silently end the shoe
                _log.exception("shoe client error; reopening the port")
                self._close()
                self._set_online(False, "shoe client error (see the log); reopening")
                self._stop.wait(self.backoff[1])

    def _send(self, mtype: str, **fields: Any) -> None:
        self._seq += 1
        self._tx.append(host_frame(mtype, self.boot, self._seq,
                                   int(self.clock() * 1000) & 0x3FFFFFFF, **fields))

    def _flush(self) -> None:
        if self._ack_due and self.device_boot is not None:
            self._send("ack", ack=self._next_seq - 1, dev=self.device_boot)
            self.stats["acks"] += 1
            self._ack_due = False
        if self._tx:
            data = b"".join(self._tx)
            self._tx.clear()
            self._ser.write(data)

    # --- state -------------------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        self.events.put(event)

    def _set_online(self, online: bool, reason: str, force: bool = False) -> None:
        if online != self.online or force:
            self.online = online
            self.reason = reason
            self._emit(ShoeStatus(t=self.clock(), online=online, reason=reason))

    def _housekeeping(self, now: float) -> None:
        with self._lock:
            due, self._due = self._due, set()
            want_mode, want_locked = self._want_mode, self._want_locked
        if "ping" in due or (not self.online and now - self._last_ping >= 1.0):
            self._send("ping")
            self._last_ping = now
        if self.online:
            if "mode" in due and want_mode is not None:
                self._send("mode", mode=want_mode)
            if "lock" in due and want_locked is not None:
                self._send("lock", locked=want_locked)
            if now - self._last_rx > self.silent_timeout:
                self._set_online(False, f"shoe silent for {self.silent_timeout:g} s")
            elif self._pending:
                self._request_replay(now)
        else:
            with self._lock:  # not delivered yet: keep it due until the shoe is back
                self._due |= due - {"ping"}
            if self.online is None and now - self._last_rx > self.silent_timeout:
                self._set_online(False, f"no answer from the shoe on {self.port}")

    def _request_replay(self, now: float) -> None:
        if self.device_boot is None:
            return
        if self._replay_for == self._next_seq and now - self._replay_at < self.replay_interval:
            return
        self._replay_for = self._next_seq
        self._replay_at = now
        self.stats["replays"] += 1
        self._send("replay", dev=self.device_boot, **{"from": self._next_seq})

    # --- frames ------------------------------------------------------------------------
    def _feed(self, data: bytes, now: float) -> None:
        for line in self._splitter.feed(data):
            if line is None:
                self.stats["corrupt_rejected"] += 1
                continue
            try:
                frame = decode(line)
            except FrameError:
                self.stats["corrupt_rejected"] += 1
                continue
            if frame["v"] != PROTOCOL_VERSION:
                self._on_version(frame["v"])
                continue
            try:
                self._on_message(parse(frame), now)
            except ShoeMessageError as exc:  # LinkViolation too: a good CRC, impossible
                self._violation(str(exc))

    def _on_version(self, v: int) -> None:
        self.stats["version_mismatch"] += 1
        if self._incompatible != v:
            self._incompatible = v
            shown = f"v{v}" if 0 <= v < 1000 else "an unknown version"
            self._set_online(
                False, f"shoe speaks protocol {shown} but this host speaks "
                       f"v{PROTOCOL_VERSION}: flash the matching firmware "
                       "(docs/shoe-hardware.md)", force=True)

    def _violation(self, reason: str) -> None:
        """An impossible frame: the power-up that sent it is no longer believed (until the
        shoe restarts with a new boot id) and the table is told, once."""
        self.stats["violations"] += 1
        if self.device_boot is not None:
            self._distrusted = self.device_boot
        self._pending.clear()
        self._set_online(False, f"shoe sent an impossible frame ({reason}); nothing after "
                                f"shoe frame {self._next_seq - 1} was taken: check the cards "
                                "dealt against the shoe, then unplug and replug it")

    def _on_message(self, msg: DeviceMessage, now: float) -> None:
        self.stats["frames"] += 1
        if self.guard.is_retired(msg.boot):
            self.stats["stale"] += 1
            return
        if msg.boot == self._distrusted:
            self.stats["rejected"] += 1
            return
        self._last_rx = now
        self._incompatible = None
        if isinstance(msg, Hello):
            self._on_hello(msg, now)
            return
        if msg.boot != self.device_boot:
            # A power-up we have not been introduced to (its hello was lost): ask.
            if now - self._last_ping >= 0.2:
                self._send("ping")
                self._last_ping = now
            return
        self._check(msg)
        if not self.online:
            self._set_online(True, "shoe responding again")
        if msg.SEQUENCED:
            self._on_sequenced(msg, now)
        elif isinstance(msg, Heartbeat):
            self.last_heartbeat = msg
            self._check_gap(msg.seq, now)
            self._reconcile(msg.mode, msg.locked)
        elif isinstance(msg, Error):
            self._on_error(msg, now)

    def _check(self, msg: DeviceMessage) -> None:
        """Check a frame of the current power-up against what was seen (before acting).

        Raises:
            LinkViolation: an impossible frame.
        """
        if msg.SEQUENCED:
            if msg.seq < self._next_seq:
                self.guard.check_duplicate(msg)
            elif msg.seq in self._pending and self._pending[msg.seq] != msg:
                raise LinkViolation(f"frame {msg.seq} came again with other content")
        elif isinstance(msg, Heartbeat):
            self.guard.check_acked(msg, msg.acked, self._next_seq)
        elif isinstance(msg, Error) and msg.code == "replay_unavailable":
            self.guard.check_replay_answer(msg.extra["from"], self._next_seq)

    def _on_hello(self, msg: Hello, now: float) -> None:
        restarted = self.device_boot is not None and msg.boot != self.device_boot
        if msg.boot != self.device_boot:
            if not self.guard.admit_boot(now):
                self._churned(now)
                return
            if self.device_boot is not None:
                self.guard.retire(self.device_boot)
            self.device_boot = msg.boot
            self._distrusted = None
            self.guard.join(msg.acked)
            self._next_seq = msg.acked + 1
            self._pending.clear()
            self._replay_for = None
        else:
            self.guard.check_acked(msg, msg.acked, self._next_seq)
        self.hello = msg
        if restarted and self.online:
            self._set_online(False, "shoe restarted")
        self._set_online(True, f"shoe online: firmware {msg.fw}, reader {msg.reader}, "
                               f"boot {msg.boot}")
        with self._lock:
            if self._want_mode is not None:
                self._due.add("mode")
            if self._want_locked is not None:
                self._due.add("lock")
        self._check_gap(msg.seq, now)

    def _churned(self, now: float) -> None:
        """A hello from yet another new boot id, over the rate limit: ignored (told once
        per window)."""
        self.stats["churn"] += 1
        g = self.guard
        if now - self._churn_notice_at >= g.churn_window:
            self._churn_notice_at = now
            self._set_online(False, f"the shoe restarted more than {g.churn_max} times in "
                                    f"{g.churn_window:g} s: check its cable and power; "
                                    "restarts are ignored until it settles")

    def _reconcile(self, mode: str, locked: bool) -> None:
        with self._lock:
            if self._want_mode is not None and mode != self._want_mode:
                self._due.add("mode")
            if self._want_locked is not None and locked != self._want_locked:
                self._due.add("lock")

    def _check_gap(self, last_seq: int, now: float) -> None:
        if last_seq >= self._next_seq:
            self._request_replay(now)

    def _on_sequenced(self, msg: DeviceMessage, now: float) -> None:
        if msg.seq < self._next_seq:
            self.stats["duplicates"] += 1
            self._ack_due = True  # our ack was probably lost: repeat it
            return
        if msg.seq > self._next_seq:
            self.stats["out_of_order"] += 1
            if len(self._pending) < PENDING_MAX:
                self._pending[msg.seq] = msg
            self._request_replay(now)
            return
        self._deliver(msg, now)
        self._next_seq += 1
        self._drain(now)
        self._ack_due = True
        if self._pending:
            self._request_replay(now)

    def _drain(self, now: float) -> None:
        for seq in [s for s in self._pending if s < self._next_seq]:
            del self._pending[seq]
        while self._next_seq in self._pending:
            self._deliver(self._pending.pop(self._next_seq), now)
            self._next_seq += 1

    def _deliver(self, msg: DeviceMessage, now: float) -> None:
        self.guard.check_deliver(msg)
        self._emit_frame(msg, now)
        self.guard.delivered(msg)

    def _emit_frame(self, msg: DeviceMessage, now: float) -> None:
        if isinstance(msg, Card):
            self.stats["cards"] += 1
            self._emit(CardDrawn(t=now, uid=msg.uid, draw=msg.draw))
        elif isinstance(msg, Button) and msg.key == "exposed_card":
            self._emit(DealerButton(t=now, button="exposed_card"))
        elif isinstance(msg, UnknownTag):
            what = f"tag {msg.uid}" if msg.uid else "an unreadable tag"
            self._emit(DeviceStatus(t=now, device="shoe", online=True,
                                    detail=f"unknown tag: {what} left the shoe ({msg.reason})"))
        else:
            self._emit(DeviceStatus(t=now, device="shoe", online=True,
                                    detail=f"shoe sent {type(msg).__name__}"))

    def _on_error(self, msg: Error, now: float) -> None:
        if msg.code == "replay_unavailable":
            oldest = msg.extra.get("oldest")
            if isinstance(oldest, int) and oldest > self._next_seq:
                lost = oldest - self._next_seq
                self.stats["lost"] += lost
                self.guard.lost(self._next_seq, oldest - 1)
                self._next_seq = oldest
                self._drain(now)
                self._ack_due = True
                self._emit(DeviceStatus(
                    t=now, device="shoe", online=True,
                    detail=f"{lost} shoe frame(s) could not be replayed and are lost: "
                           "check the cards dealt against the shoe"))
            return
        self._emit(DeviceStatus(t=now, device="shoe", online=True,
                                detail=f"shoe error {msg.code}: {msg.detail}"))
