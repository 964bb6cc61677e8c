"""Test helpers for the shoe: a hand-driven device on a pty, and queue waiting."""

from __future__ import annotations

import os
import queue
import tempfile
import time
import tty
from collections.abc import Callable
from typing import Any

from engine.events import Event
from firmware.shoe import framing


class FakeClock:
    """A monotonic clock the test advances by hand."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


class RawDevice:
    """The device end of a pty, driven frame by frame by the test.

    ``path`` is a stable symlink to the slave (what the client opens).  ``send(type, seq,
    **fields)`` writes one device frame; ``received()`` returns the host frames read so far.
    """

    def __init__(self, boot: str = "0BADF00D") -> None:
        self.boot = boot
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self._tmp = tempfile.TemporaryDirectory(prefix="rawshoe-")
        self.path = os.path.join(self._tmp.name, "usb-Test_Shoe-if00")
        os.symlink(os.ttyname(self.slave), self.path)
        self._split = framing.LineSplitter()
        self.frames: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        """Write all of ``data``, waiting while the pty's buffer is full."""
        deadline = time.monotonic() + 5.0
        while data:
            try:
                data = data[os.write(self.master, data):]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.002)

    def send(self, mtype: str, seq: int, boot: str | None = None, v: int | None = None,
             **fields: Any) -> bytes:
        msg = framing.envelope(mtype, boot or self.boot, seq, 1234)
        if v is not None:
            msg["v"] = v
        msg.update(fields)
        line = framing.encode(msg)
        self.write(line)
        return line

    def hello(self, seq: int = 0, acked: int = 0, boot: str | None = None,
              v: int | None = None) -> None:
        self.send("hello", seq, boot=boot, v=v, fw="1.0.0", reader="TEST", acked=acked,
                  mode="deal", locked=False)

    def card(self, seq: int, uid: str, draw: int, boot: str | None = None) -> bytes:
        return self.send("card", seq, boot=boot, uid=uid, draw=draw, mode="deal",
                         locked=False)

    def received(self) -> list[dict[str, Any]]:
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            data = b""
        for line in self._split.feed(data):
            if line is not None:
                self.frames.append(framing.decode(line))
        return self.frames

    def wait_for_frame(self, pred: Callable[[dict[str, Any]], bool],
                       timeout: float = 3.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for f in self.received():
                if pred(f):
                    return f
            time.sleep(0.005)
        raise AssertionError(f"no matching host frame; got {self.frames!r}")

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._tmp.cleanup()


def wait_event(q: queue.Queue[Event], pred: Callable[[Event], bool], timeout: float = 3.0,
               seen: list[Event] | None = None) -> Event:
    """The first event on ``q`` matching ``pred`` (others are appended to ``seen``)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching event; saw {seen!r}")
        try:
            ev = q.get(timeout=left)
        except queue.Empty:
            continue
        if pred(ev):
            return ev
        if seen is not None:
            seen.append(ev)


def drain(q: queue.Queue[Event]) -> list[Event]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def wait_until(pred: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.005)


class ListQueue(list):
    """A queue that keeps every event (``put`` appends)."""

    def put(self, item: Event) -> None:
        self.append(item)


class Harness:
    """A :class:`ShoeClient` fed frame by frame on the test's thread, with a hand clock.

    No port and no reader thread: :meth:`send` hands one encoded line to the client's
    frame handling, as the reader thread does with the bytes it reads.  Frames the client
    would send to the shoe are collected in ``to_shoe``.
    """

    def __init__(self, **kw: Any) -> None:
        from hardware.shoe.client import ShoeClient

        self.clock = FakeClock()
        self.events = ListQueue()
        self.client = ShoeClient("unused", self.events, clock=self.clock, **kw)
        self.to_shoe: list[dict[str, Any]] = []

    def line(self, data: bytes) -> None:
        self.client._feed(data, self.clock())
        self.client._housekeeping(self.clock())
        for raw in self.client._tx:
            self.to_shoe.append(framing.decode(raw))
        self.client._tx.clear()

    def send(self, mtype: str, seq: int, boot: str = "0BADF00D", **fields: Any) -> bytes:
        msg = framing.envelope(mtype, boot, seq, 1234)
        msg.update(fields)
        data = framing.encode(msg)
        self.line(data)
        return data

    def hello(self, seq: int = 0, acked: int = 0, boot: str = "0BADF00D") -> None:
        self.send("hello", seq, boot=boot, fw="1.0.0", reader="TEST", acked=acked,
                  mode="deal", locked=False)

    def card(self, seq: int, uid: str, draw: int, boot: str = "0BADF00D") -> None:
        self.send("card", seq, boot=boot, uid=uid, draw=draw, mode="deal", locked=False)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]
