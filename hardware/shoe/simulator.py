"""A simulated card shoe on a pty pair, running the real firmware logic.

:class:`SimulatedShoe` drives :class:`firmware.shoe.device.ShoeDevice` (the very module the
RP2040 runs) from a thread, on the master side of an ``os.openpty()`` pair; the host client
opens the slave side through a symlink that plays the part of ``/dev/serial/by-id/...``.
Between the two sits a fault injector: a seeded ``random.Random`` that corrupts (one bit
flipped), drops, duplicates or delays frames in either direction.

Scriptable::

    sim = SimulatedShoe(seed=7).start()
    sim.load_deck(uids)            # deck order (default: 52 synthetic 7-byte UIDs)
    sim.deal(10)                   # draw the next 10 cards of the deck (reshuffles as needed)
    sim.draw("04A1B2C3D4E5F6")     # one specific tag
    sim.faults.corrupt = 0.01      # probabilities per frame; sim.drop_next(2) etc.
    sim.unplug(); sim.replug()     # the port vanishes and comes back (reboot by default)
    sim.mute(True)                 # a silent shoe
    sim.stop()

The same simulator is reachable as a pyserial URL, ``shoesim://NAME?seed=S``
(:mod:`hardware.shoe.protocol_shoesim`, registered when this module is imported).

Only POSIX (pty).  Times inside the device are ``time.monotonic()`` milliseconds.
"""

from __future__ import annotations

import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Self

from firmware.shoe import framing
from firmware.shoe.device import ShoeDevice

WINDOW = 32  # cards the simulator lets be in flight (un-acked) before it waits
IDLE_WAIT_MAX = 1.0  #: seconds the idle device thread sleeps at most (it is woken for any work)


@dataclass
class Faults:
    """Fault probabilities per frame (0..1) and the delay for delayed frames (seconds).

    ``both_ways``: also apply them to host->device frames (acks, replays, commands)."""

    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    delay_s: float = 0.05
    both_ways: bool = True


def deck_uids(seed: int = 0) -> list[bytes]:
    """52 distinct synthetic 7-byte NTAG-style UIDs (first byte 0x04, NXP), reproducible."""
    rng = random.Random(f"deck-{seed}")
    out: set[bytes] = set()
    uids: list[bytes] = []
    while len(uids) < 52:
        uid = bytes([0x04]) + bytes(rng.randrange(256) for _ in range(6))
        if uid not in out:
            out.add(uid)
            uids.append(uid)
    return uids


class _Injector:
    """Applies :class:`Faults` to lines; keeps counts of what it did."""

    def __init__(self, faults: Faults, rng: random.Random) -> None:
        self.faults = faults
        self.rng = rng
        self.delayed: list[tuple[float, bytes]] = []
        self.forced: deque[str] = deque()
        self.counts = dict.fromkeys(("corrupted", "dropped", "duplicated", "delayed"), 0)

    def apply(self, line: bytes, now: float) -> list[bytes]:
        f = self.faults
        action = self.forced.popleft() if self.forced else None
        r = self.rng.random
        if action == "drop" or (action is None and f.drop and r() < f.drop):
            self.counts["dropped"] += 1
            return []
        if action == "corrupt" or (action is None and f.corrupt and r() < f.corrupt):
            self.counts["corrupted"] += 1
            b = bytearray(line)
            i = self.rng.randrange(len(b))
            b[i] ^= 1 << self.rng.randrange(8)
            line = bytes(b)
        if action == "delay" or (action is None and f.delay and r() < f.delay):
            self.counts["delayed"] += 1
            self.delayed.append((now + f.delay_s, line))
            return []
        if action == "duplicate" or (action is None and f.duplicate and r() < f.duplicate):
            self.counts["duplicated"] += 1
            return [line, line]
        return [line]

    def due(self, now: float) -> list[bytes]:
        ready = [line for t, line in self.delayed if t <= now]
        if ready:
            self.delayed = [(t, line) for t, line in self.delayed if t > now]
        return ready


class SimulatedShoe:
    """A shoe on a pty pair, scriptable.  See the module docstring.

    Args:
        seed: seeds the fault injector, the boot ids and the default deck.
        faults: fault probabilities (default none).
        window: cards in flight before :meth:`deal` waits for acks.
        link_dir: directory for the stable symlink (default: a new temporary directory).
        heartbeat_ms, retransmit_ms: passed to the firmware's ``ShoeDevice``.
        version: protocol version written in every frame (to test a mismatch).

    Attributes:
        path: the stable path the host opens (a symlink to the current pty slave).
        device: the firmware's ``ShoeDevice`` of the current power-up.
        sent: cards drawn so far, over all power-ups.
        log: ``(boot, draw, uid_hex)`` for every card drawn, in order.
        boots: boot ids of every power-up so far.
    """

    def __init__(self, *, seed: int = 0, faults: Faults | None = None, window: int = WINDOW,
                 link_dir: str | None = None, heartbeat_ms: int = 1000,
                 retransmit_ms: int = 250, version: int = framing.PROTOCOL_VERSION,
                 reader: str = "SIM") -> None:
        self.rng = random.Random(seed)
        self.faults = faults or Faults()
        self._to_host = _Injector(self.faults, random.Random(seed * 2 + 1))
        self._to_device = _Injector(self.faults, random.Random(seed * 2 + 2))
        self.window = window
        self.heartbeat_ms = heartbeat_ms
        self.retransmit_ms = retransmit_ms
        self.version = version
        self.reader = reader
        self._tmp = None
        if link_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="shoesim-")
            link_dir = self._tmp.name
        self.path = os.path.join(link_dir, "usb-PokerTable_Shoe_SIM-if00")
        self._lock = threading.RLock()
        self._wake_r, self._wake_w = os.pipe()
        self._master: int | None = None
        self._slave: int | None = None
        self._out = bytearray()
        self._host_split = framing.LineSplitter()
        self._queue: deque[tuple[str, bytes]] = deque()
        self._deck: list[bytes] = deck_uids(seed)
        self._deck_pos = 0
        self._muted = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.on_stop: Callable[[], object] | None = None
        self.device: ShoeDevice = self._new_device()
        self.sent = 0
        self.log: list[tuple[str, int, str]] = []
        self.boots: list[str] = [self.device.boot]
        self._plug()

    # --- setup -------------------------------------------------------------------------
    def _now_ms(self) -> int:
        return int(time.monotonic() * 1000) & 0x3FFFFFFF

    def _new_device(self) -> ShoeDevice:
        boot = f"{self.rng.getrandbits(32):08X}"
        dev = ShoeDevice(boot, self._write, reader=self.reader, heartbeat_ms=self.heartbeat_ms,
                         retransmit_ms=self.retransmit_ms)
        return dev

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)          # no echo, no line editing, before anyone writes
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)

    def start(self) -> SimulatedShoe:
        """Power up (sends ``hello``) and start the device thread; returns ``self``."""
        with self._lock:
            self.device.start(self._now_ms())
        self._thread = threading.Thread(target=self._run, name="shoe-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread, close the pty and remove the symlink."""
        if self.on_stop is not None:
            self.on_stop()
            self.on_stop = None
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        with self._lock:
            self._unplug_locked()
        os.close(self._wake_r)
        os.close(self._wake_w)
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- script ------------------------------------------------------------------------
    def load_deck(self, uids: Iterable[bytes | str]) -> None:
        """Set the deck order (UIDs as bytes or hex); dealing starts from its top."""
        with self._lock:
            self._deck = [bytes.fromhex(u) if isinstance(u, str) else bytes(u) for u in uids]
            self._deck_pos = 0

    def deal(self, n: int) -> None:
        """Queue ``n`` draws from the deck; an exhausted deck is reshuffled (seeded) and
        dealt again, so the same UID legitimately comes out again."""
        with self._lock:
            for _ in range(n):
                if self._deck_pos >= len(self._deck):
                    self.rng.shuffle(self._deck)
                    self._deck_pos = 0
                self._queue.append(("card", self._deck[self._deck_pos]))
                self._deck_pos += 1
        self._wake()

    def draw(self, uid: bytes | str) -> None:
        """Queue one draw of the tag ``uid`` (7-byte card, or another size: unknown tag)."""
        with self._lock:
            self._queue.append(("card", bytes.fromhex(uid) if isinstance(uid, str) else uid))
        self._wake()

    def press(self) -> None:
        """Press the shoe-mounted exposed-card key."""
        with self._lock:
            self._queue.append(("press", b""))
        self._wake()

    def drop_next(self, n: int = 1) -> None:
        """Drop the next ``n`` device->host frames."""
        self._to_host.forced.extend(["drop"] * n)

    def corrupt_next(self, n: int = 1) -> None:
        self._to_host.forced.extend(["corrupt"] * n)

    def duplicate_next(self, n: int = 1) -> None:
        self._to_host.forced.extend(["duplicate"] * n)

    def delay_next(self, n: int = 1) -> None:
        self._to_host.forced.extend(["delay"] * n)

    def mute(self, muted: bool = True) -> None:
        """A silent shoe: nothing is written while muted (frames are lost, not queued)."""
        self._muted = muted

    def unplug(self) -> None:
        """The USB cable is pulled: the pty closes and the stable path disappears."""
        with self._lock:
            self._unplug_locked()

    def replug(self, reboot: bool = True) -> None:
        """The cable is plugged back: a new pty behind the same stable path.  With
        ``reboot`` (what USB power does to an RP2040) the device starts over with a new
        boot id and sends ``hello``."""
        with self._lock:
            if self._master is None:
                self._plug()
            self._host_split.reset()
            if reboot:
                self.device = self._new_device()
                self.boots.append(self.device.boot)
                self.device.start(self._now_ms())
        self._wake()

    @property
    def pending(self) -> int:
        """Draws queued but not yet made."""
        return len(self._queue)

    @property
    def counts(self) -> dict[str, int]:
        """What the fault injector did, both directions summed, plus device counters."""
        out = {k: self._to_host.counts[k] + self._to_device.counts[k]
               for k in self._to_host.counts}
        out["retransmits"] = self.device.retransmits
        out["replays_served"] = self.device.replays
        return out

    # --- internals ---------------------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _unplug_locked(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self._out.clear()
        if os.path.lexists(self.path):
            os.unlink(self.path)

    def _write(self, line: bytes) -> None:
        """The firmware's ``write``: through the fault injector into the out buffer."""
        if self._muted or self._master is None:
            return
        if self.version != framing.PROTOCOL_VERSION:
            msg = framing.decode(line)
            msg["v"] = self.version
            line = framing.encode(msg)
        for piece in self._to_host.apply(line, time.monotonic()):
            if len(self._out) < 1 << 20:
                self._out += piece

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
                busy = bool(self._queue) or bool(self._out)
            fds = [self._wake_r] + ([master] if master is not None else [])
            wfds = [master] if master is not None and self._out else []
            try:
                # idle, it wakes for the host (or a script call, through the wake pipe) or
                # when the device's next heartbeat, retransmission or delayed frame is due
                readable, _, _ = select.select(fds, wfds, [], 0.002 if busy else self._idle_wait())
            except (OSError, ValueError):
                continue  # the pty was closed under us (unplug)
            if self._wake_r in readable:
                os.read(self._wake_r, 4096)
            with self._lock:
                if self._master is None or self._master != master:
                    continue
                now = self._now_ms()
                if master in readable:
                    self._read_host(now)
                self.device.tick(now)
                self._script(now)
                for line in self._to_host.due(time.monotonic()):
                    self._out += line
                for line in self._to_device.due(time.monotonic()):
                    self.device.receive(line, now)
                self._flush()

    def _idle_wait(self) -> float:
        """Seconds the idle thread may sleep: until the device's timer or the earliest
        fault-delayed frame is due (at least 2 ms, at most :data:`IDLE_WAIT_MAX`)."""
        with self._lock:
            wait = self.device.due_in(self._now_ms()) / 1000
            now = time.monotonic()
            for delayed in (self._to_host.delayed, self._to_device.delayed):
                wait = min([wait, *(t - now for t, _ in delayed)])
        return min(max(wait, 0.002), IDLE_WAIT_MAX)

    def _read_host(self, now: int) -> None:
        try:
            data = os.read(self._master, 65536)  # type: ignore[arg-type]
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # EIO: nobody has the slave open right now
        for line in self._host_split.feed(data):
            if line is None:
                self.device.bad += 1
                continue
            if not self.faults.both_ways:
                self.device.receive(line + b"\n", now)
                continue
            for piece in self._to_device.apply(line + b"\n", time.monotonic()):
                self.device.receive(piece, now)

    def _script(self, now: int) -> None:
        while self._queue and self.device.in_flight < self.window:
            kind, uid = self._queue.popleft()
            if kind == "press":
                self.device.press(now)
            elif len(uid) == 7:
                self.device.report_card(uid, now)
                self.sent += 1
                self.log.append((self.device.boot, self.device.draws, uid.hex().upper()))
            else:
                self.device.report_unknown(uid, "foreign", now)

    def _flush(self) -> None:
        if not self._out or self._master is None:
            return
        try:
            n = os.write(self._master, bytes(self._out[:65536]))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._out.clear()
            return
        del self._out[:n]


def _register_url_handler() -> None:
    import serial

    if "hardware.shoe" not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append("hardware.shoe")


_register_url_handler()
