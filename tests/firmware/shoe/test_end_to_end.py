"""End to end: the firmware's main loop (fake reader, fake pins) against the real host
client, through a pty."""

from __future__ import annotations

import os
import queue
import select
import tempfile
import threading
import time
import tty

from engine.events import CardDrawn, DealerButton, DeviceStatus, ShoeStatus
from hardware.shoe.client import ShoeClient
from tests.firmware.shoe.fake_machine import Pin
from tests.hardware.shoe.helpers import wait_event, wait_until

A = bytes.fromhex("04A1B2C3D4E5F6")
B = bytes.fromhex("04112233445566")
TRUNC = bytes([0x04, 0xA1, 0xB2])  # level 2 failed: 3 UID bytes read


class ScriptedReader:
    """Phases of (reading, duration_ms); a present tag flickers (misses every third poll)."""

    READER = "FAKE-MFRC522"

    def __init__(self, clock_ms, phases):
        self.clock_ms = clock_ms
        self.phases = list(phases)
        self.start = None
        self.polls = 0

    def init(self):
        return 0x92

    def read(self):
        now = self.clock_ms()
        if self.start is None:
            self.start = now
        self.polls += 1
        while self.phases and now - self.start >= self.phases[0][1]:
            self.start += self.phases[0][1]
            self.phases.pop(0)
        if not self.phases:
            return None, False
        reading = self.phases[0][0]
        if reading is None or self.polls % 3 == 0:
            return None, False
        return reading, False


class PtyLink:
    def __init__(self, master):
        self.master = master

    def read(self, limit=256):
        if select.select([self.master], [], [], 0)[0]:
            try:
                return os.read(self.master, limit)
            except OSError:
                return b""
        return b""

    def write(self, line):
        os.write(self.master, line)


def test_firmware_loop_against_host_client(board_main, monkeypatch):
    monkeypatch.setattr(board_main, "POLL_MS", 2)
    monkeypatch.setattr(board_main, "LEAVE_MS", 100)
    master, slave = os.openpty()
    tty.setraw(slave)
    tmp = tempfile.TemporaryDirectory()
    path = os.path.join(tmp.name, "usb-MicroPython_Board_in_FS_mode_TEST-if00")
    os.symlink(os.ttyname(slave), path)
    reader = ScriptedReader(board_main.ticks_ms, [
        (None, 300),                 # the host connects meanwhile
        (A, 150), (None, 300),       # card A drawn, flickering while in the field
        (B, 80), (None, 300),        # card B
        (TRUNC, 80), (None, 300),    # only truncated reads: never a card
        (A, 100), (None, 300),       # A again (reshuffled stub): a new draw
    ])
    key = Pin(15, Pin.IN, Pin.PULL_UP)
    hw = {"reader": reader, "key": key, "lock_led": Pin(14, Pin.OUT, value=0),
          "led": Pin(25, Pin.OUT, value=0)}
    stop = threading.Event()
    result = {}
    fw = threading.Thread(target=lambda: result.setdefault(
        "dev", board_main.run(hw=hw, link=PtyLink(master), stop=stop.is_set)), daemon=True)
    q: queue.Queue = queue.Queue()
    client = ShoeClient(path, q, read_timeout=0.01)
    try:
        client.start()
        fw.start()
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online and "FAKE-MFRC522" in ev.reason
        seen: list = []
        cards = [wait_event(q, lambda e: isinstance(e, CardDrawn), timeout=5, seen=seen)
                 for _ in range(3)]
        assert [(c.uid, c.draw) for c in cards] == [(A.hex().upper(), 1),
                                                    (B.hex().upper(), 2),
                                                    (A.hex().upper(), 3)]
        unknown = [e for e in seen if isinstance(e, DeviceStatus)]
        assert len(unknown) == 1 and "truncated" in unknown[0].detail
        key.value(0)                 # the exposed-card key, held 60 ms
        time.sleep(0.06)
        key.value(1)
        assert isinstance(wait_event(q, lambda e: isinstance(e, DealerButton)), DealerButton)
        client.lock(True)
        wait_until(lambda: hw["lock_led"].value() == 1)
        time.sleep(0.2)
        assert not [e for e in _drain(q) if isinstance(e, CardDrawn)]   # exactly three
    finally:
        stop.set()
        fw.join(2)
        client.stop()
        for fd in (master, slave):
            os.close(fd)
        tmp.cleanup()
    dev = result["dev"]
    assert dev.draws == 3 and dev.acked == dev.seq   # everything acknowledged
    assert dev.retries > 0                           # the truncated reads were retries
    assert dev.reads > 10


def _drain(q):
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out
