"""The firmware's link logic: sequencing, acks, retransmission, replay, heartbeat, commands."""

from __future__ import annotations

import itertools

from firmware.shoe import framing
from firmware.shoe.device import RETRANSMIT_MAX_MS, ShoeDevice

A = bytes.fromhex("04A1B2C3D4E5F6")
BOOT = "C0FFEE00"


class Wire:
    def __init__(self):
        self.lines = []

    def __call__(self, line):
        self.lines.append(line)

    def take(self):
        out = [framing.decode(line) for line in self.lines]
        self.lines.clear()
        return out


def host(mtype, **fields):
    msg = framing.envelope(mtype, "H0571D00", 1, 0)
    msg.update(fields)
    return framing.encode(msg)


def make(**kw):
    wire = Wire()
    dev = ShoeDevice(BOOT, wire, **kw)
    dev.start(0)
    return dev, wire


def test_hello_at_power_up():
    _, wire = make(reader="MFRC522")
    (hello,) = wire.take()
    assert hello["type"] == "hello" and hello["reader"] == "MFRC522"
    assert (hello["v"], hello["boot"], hello["seq"], hello["acked"]) == (1, BOOT, 0, 0)
    assert hello["fw"]


def test_cards_are_sequenced_and_heartbeats_are_not():
    dev, wire = make()
    wire.take()
    dev.report_card(A, 10)
    dev.report_card(A, 20)
    dev.receive(host("ack", ack=2, dev=BOOT), 30)   # acked: nothing to retransmit
    dev.tick(1000)
    frames = wire.take()
    assert [(f["type"], f["seq"]) for f in frames] == [("card", 1), ("card", 2),
                                                       ("heartbeat", 2)]
    assert [f.get("draw") for f in frames[:2]] == [1, 2]
    assert frames[0]["uid"] == "04A1B2C3D4E5F6" and frames[0]["ms"] == 10
    hb = frames[2]
    assert {"reads", "retries", "bad", "draws"} <= set(hb) and hb["draws"] == 2


def test_heartbeat_once_a_second():
    dev, wire = make()
    wire.take()
    for t in range(0, 5001, 50):
        dev.tick(t)
    assert sum(1 for f in wire.take() if f["type"] == "heartbeat") == 5


def test_unacked_frames_retransmitted_with_backoff_until_acked():
    dev, wire = make(heartbeat_ms=10**6)
    wire.take()
    dev.report_card(A, 0)
    wire.take()
    times = []
    for t in range(0, 6000, 10):
        dev.tick(t)
        if wire.take():
            times.append(t)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert times[0] == 250 and gaps[:3] == [500, 1000, 2000]
    assert max(gaps) == RETRANSMIT_MAX_MS
    dev.receive(host("ack", ack=1, dev=BOOT), 6000)
    for t in range(6000, 12000, 10):
        dev.tick(t)
    assert wire.take() == [] and dev.in_flight == 0


def test_retransmission_is_byte_identical():
    dev, wire = make(heartbeat_ms=10**6)
    wire.lines.clear()
    dev.report_card(A, 0)
    first = list(wire.lines)
    wire.lines.clear()
    dev.tick(300)
    assert wire.lines == first


def test_ack_for_another_power_up_is_ignored():
    dev, _ = make()
    dev.report_card(A, 0)
    dev.receive(host("ack", ack=1, dev="OTHER000"), 1)
    assert dev.acked == 0
    dev.receive(host("ack", ack=5, dev=BOOT), 1)   # beyond what was sent: ignored
    assert dev.acked == 0
    dev.receive(host("ack", ack=1, dev=BOOT), 1)
    assert dev.acked == 1


def test_replay_from_ring_and_unavailable_beyond_it():
    dev, wire = make(heartbeat_ms=10**6)
    for i in range(200):
        dev.report_card(A, i)
    wire.take()
    dev.receive(host("replay", dev=BOOT, **{"from": 190}), 300)
    frames = wire.take()
    assert [f["seq"] for f in frames] == list(range(190, 201))
    dev.receive(host("replay", dev=BOOT, **{"from": 10}), 301)
    frames = wire.take()
    assert frames[0]["type"] == "error" and frames[0]["code"] == "replay_unavailable"
    assert frames[0]["oldest"] == 73 and frames[0]["from"] == 10
    assert [f["seq"] for f in frames[1:]] == list(range(73, 201))


def test_mode_lock_ping_and_bad_commands():
    dev, wire = make()
    wire.take()
    dev.receive(host("mode", mode="register") + host("lock", locked=True), 5)
    frames = wire.take()
    assert dev.mode == "register" and dev.locked
    assert frames[-1]["type"] == "heartbeat" and frames[-1]["locked"] is True
    dev.report_card(A, 6)
    assert wire.take()[0]["mode"] == "register"
    dev.receive(host("ping"), 7)
    assert wire.take()[0]["type"] == "hello"
    dev.receive(host("mode", mode="shuffle") + host("reboot"), 8)
    assert [f["code"] for f in wire.take()] == ["bad_command", "bad_command"]
    dev.receive(host("mode", mode="idle"), 9)
    dev.poll(10, A)
    dev.poll(1000, None)
    assert dev.draws == 1   # idle: the reader is not read


def test_corrupt_host_frames_counted():
    dev, _ = make()
    good = bytearray(host("lock", locked=True))
    good[5] ^= 0x01
    dev.receive(bytes(good) + b"junk\n" + b"x" * 600 + b"\n", 1)
    assert dev.bad == 3 and not dev.locked


def test_host_version_mismatch_reported():
    dev, wire = make()
    wire.take()
    msg = framing.envelope("ping", "H", 1, 0)
    msg["v"] = 9
    dev.receive(framing.encode(msg), 1)
    (err,) = wire.take()
    assert err["type"] == "error" and err["code"] == "version" and "v9" in err["detail"]


def test_poll_counts_reads_and_retries_and_reports_on_leave():
    dev, wire = make(leave_ms=50)
    wire.take()
    dev.poll(0, bytes([1, 2, 3]))   # truncated
    dev.poll(10, None, failed=True)       # a failed read
    dev.poll(20, A)
    dev.poll(30, A)
    dev.poll(200, None)
    frames = wire.take()
    assert [f["type"] for f in frames] == ["card"]
    assert (dev.reads, dev.retries, dev.draws) == (4, 2, 1)


def test_reader_fault_reported_once_and_in_heartbeat():
    dev, wire = make()
    wire.take()
    dev.fault("no SPI", 1)
    dev.fault("no SPI", 2)
    dev.tick(1500)
    frames = wire.take()
    assert [f["type"] for f in frames] == ["error", "heartbeat"]
    assert frames[1]["fault"] == "no SPI"


def test_complete_four_byte_uid_starting_0x88_is_one_foreign_tag_without_retries():
    dev, wire = make(leave_ms=50)
    wire.take()
    foreign = bytes([0x88, 0x04, 0xA1, 0xB2])  # the SAK said complete: a whole UID
    for t in range(0, 200, 10):
        dev.poll(t, foreign)
    dev.poll(400, None)
    frames = wire.take()
    assert [f["type"] for f in frames] == ["unknown_tag"]
    assert frames[0]["uid"] == "8804A1B2" and frames[0]["reason"] == "foreign"
    assert dev.retries == 0


def _walk_due_in(dev, wire, start, steps):
    """Tick just before and at each time ``due_in`` names: nothing, then a frame."""
    t = start
    for _ in range(steps):
        d = dev.due_in(t)
        assert d >= 0
        if d > 0:
            dev.tick(t + d - 1)
            assert wire.take() == [], (t, d)
        t += d
        dev.tick(t)
        assert wire.take(), (t, d)  # something was due: a heartbeat or a retransmission
    return t


def test_due_in_names_the_next_time_tick_has_something_to_do():
    """The idle simulated shoe sleeps until ``due_in``: never past a heartbeat or a
    retransmission, and never wakes for nothing (issue 14, idle CPU)."""
    dev, wire = make()
    wire.take()
    t = _walk_due_in(dev, wire, 0, 5)              # heartbeats only: one a second
    dev.report_card(A, t)                          # un-acked: retransmissions with back-off
    wire.take()
    t = _walk_due_in(dev, wire, t, 12)
    dev.receive(host("ack", ack=1, dev=BOOT), t)
    assert dev.due_in(t) <= dev.heartbeat_ms
    _walk_due_in(dev, wire, t, 3)
