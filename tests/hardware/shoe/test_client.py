"""Host client against a hand-driven device on a pty and against the simulator."""

from __future__ import annotations

import queue
import time

import pytest

from engine.events import CardDrawn, ClockTick, DealerButton, DeviceStatus, ShoeStatus
from hardware.shoe.client import ShoeClient
from hardware.shoe.simulator import SimulatedShoe
from tests.hardware.shoe.helpers import FakeClock, RawDevice, drain, wait_event, wait_until

UID_A = "04A1B2C3D4E5F6"
UID_B = "04112233445566"


@pytest.fixture
def raw():
    dev = RawDevice()
    yield dev
    dev.close()


@pytest.fixture
def q():
    return queue.Queue()


def _client(path, q, **kw):
    kw.setdefault("read_timeout", 0.01)
    c = ShoeClient(path, q, **kw).start()
    return c


def _online(q):
    return wait_event(q, lambda e: isinstance(e, ShoeStatus) and e.online)


def _connect(raw, q):
    """Wait for the client's ping (it has the port open), answer hello, wait online."""
    raw.wait_for_frame(lambda f: f["type"] == "ping")
    raw.hello()
    return _online(q)


def test_handshake_goes_online_and_names_firmware(raw, q):
    c = _client(raw.path, q)
    try:
        raw.wait_for_frame(lambda f: f["type"] == "ping")   # the client asks who is there
        raw.hello()
        ev = _online(q)
        assert "firmware 1.0.0" in ev.reason and "TEST" in ev.reason
        assert c.device_boot == raw.boot
    finally:
        c.stop()


def test_dedupe_on_boot_and_seq_not_on_uid(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        raw.card(1, UID_A, 1)
        raw.card(1, UID_A, 1)          # a retransmission: same (boot, seq)
        raw.card(2, UID_B, 2)
        raw.card(3, UID_A, 3)          # same UID after a reshuffle: a new draw
        raw.card(2, UID_B, 2)          # late duplicate
        wait_until(lambda: c.stats["cards"] == 3 and c.stats["duplicates"] == 2)
        cards = [e for e in drain(q) if isinstance(e, CardDrawn)]
        assert [(e.uid, e.draw) for e in cards] == [(UID_A, 1), (UID_B, 2), (UID_A, 3)]
        ack = raw.wait_for_frame(lambda f: f["type"] == "ack" and f["ack"] == 3)
        assert ack["dev"] == raw.boot
    finally:
        c.stop()


def test_same_seq_from_a_new_boot_is_a_new_card(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        raw.card(1, UID_A, 1)
        wait_event(q, lambda e: isinstance(e, CardDrawn))
        raw.hello(boot="FEEDC0DE")      # the shoe restarted: seq starts over
        raw.card(1, UID_A, 1, boot="FEEDC0DE")
        ev = wait_event(q, lambda e: isinstance(e, CardDrawn))
        assert (ev.uid, ev.draw) == (UID_A, 1)
        raw.card(1, UID_A, 1)           # a stale frame of the old power-up: ignored
        time.sleep(0.1)
        assert c.stats["cards"] == 2 and c.stats["stale"] == 1
    finally:
        c.stop()


def test_gap_requests_replay_and_delivers_in_order(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        raw.card(1, UID_A, 1)
        raw.card(3, UID_A, 3)
        req = raw.wait_for_frame(lambda f: f["type"] == "replay")
        assert req["from"] == 2 and req["dev"] == raw.boot
        assert c.stats["cards"] == 1            # 3 waits for 2
        line2 = raw.card(2, UID_B, 2)
        assert line2
        wait_until(lambda: c.stats["cards"] == 3)
        cards = [e.draw for e in drain(q) if isinstance(e, CardDrawn)]
        assert cards == [1, 2, 3]
        assert c.stats["replays"] >= 1
    finally:
        c.stop()


def test_heartbeat_reveals_a_lost_last_frame(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        raw.send("heartbeat", 1, reads=1, retries=0, bad=0, draws=1, acked=0, mode="deal",
                 locked=False)   # last seq assigned is 1, never received
        req = raw.wait_for_frame(lambda f: f["type"] == "replay")
        assert req["from"] == 1
    finally:
        c.stop()


def test_corrupt_frames_dropped_and_counted(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        good = bytearray(raw.card(1, UID_A, 1))
        wait_event(q, lambda e: isinstance(e, CardDrawn))
        bad = bytearray(good)
        bad[20] ^= 0x04                  # one bit flipped in the JSON
        raw.write(bytes(bad))
        raw.write(b"garbage without a tab\n")
        raw.write(b'{"v":1}\t' + b"29B1\n")
        wait_until(lambda: c.stats["corrupt_rejected"] == 3)
        assert c.stats["cards"] == 1
        assert not [e for e in drain(q) if isinstance(e, CardDrawn)]
    finally:
        c.stop()


def test_version_mismatch_gives_a_clear_offline_event(raw, q):
    c = _client(raw.path, q)
    try:
        raw.wait_for_frame(lambda f: f["type"] == "ping")
        raw.hello(v=2)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online is False
        assert "v2" in ev.reason and "v1" in ev.reason and "firmware" in ev.reason
        raw.send("card", 1, v=2, uid=UID_A, draw=1)
        time.sleep(0.1)
        assert c.stats["cards"] == 0 and c.stats["version_mismatch"] >= 2
        raw.hello()                      # reflashed: the right version comes online
        _online(q)
    finally:
        c.stop()


def test_silent_shoe_times_out_with_injected_clock(raw, q):
    clock = FakeClock()
    c = _client(raw.path, q, clock=clock, silent_timeout=3.0)
    try:
        ev = _connect(raw, q)
        assert ev.t == clock.t
        clock.advance(2.0)
        time.sleep(0.1)
        assert c.online is True          # not yet
        clock.advance(1.5)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online is False and "silent" in ev.reason
        raw.wait_for_frame(lambda f: f["type"] == "ping")
        raw.send("heartbeat", 0, reads=0, retries=0, bad=0, draws=0, acked=0, mode="deal",
                 locked=False)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online is True
    finally:
        c.stop()


def test_missing_port_reports_offline_and_keeps_trying(tmp_path, q):
    c = _client(str(tmp_path / "usb-Nothing-if00"), q, backoff=(0.01, 0.05))
    try:
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online is False and "not connected" in ev.reason
        time.sleep(0.2)
        assert [e for e in drain(q) if isinstance(e, ShoeStatus)] == []  # reported once
    finally:
        c.stop()


def test_port_is_opened_exclusively(raw, q):
    import serial

    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        with pytest.raises(serial.SerialException):
            serial.Serial(raw.path, exclusive=True)
    finally:
        c.stop()


def test_button_and_unknown_tag_become_events(raw, q):
    c = _client(raw.path, q)
    try:
        _connect(raw, q)
        raw.send("button", 1, key="exposed_card")
        raw.send("unknown_tag", 2, uid="", reason="truncated")
        ev = wait_event(q, lambda e: isinstance(e, DealerButton))
        assert ev.button == "exposed_card"
        ev = wait_event(q, lambda e: isinstance(e, DeviceStatus))
        assert ev.device == "shoe" and "unknown tag" in ev.detail
    finally:
        c.stop()


# --- against the simulator (the firmware's own logic) ---------------------------------
@pytest.fixture
def sim():
    s = SimulatedShoe(seed=5).start()
    yield s
    s.stop()


def test_unplug_replug_offline_then_online_and_loop_queue_keeps_working(sim, q):
    c = _client(sim.path, q, backoff=(0.01, 0.1))
    try:
        _online(q)
        sim.deal(5)
        for draw in range(1, 6):
            assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == draw
        sim.unplug()
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert ev.online is False and "vanished" in ev.reason
        # the loop goes on while the shoe is away: its other events still flow
        q.put(ClockTick(t=1.0))
        assert isinstance(wait_event(q, lambda e: True), ClockTick)
        time.sleep(0.15)                       # a few failed reopen attempts
        sim.replug(reboot=True)
        ev = _online(q)
        assert sim.device.boot in ev.reason
        sim.deal(3)
        draws = [wait_event(q, lambda e: isinstance(e, CardDrawn)).draw for _ in range(3)]
        assert draws == [1, 2, 3]              # the new power-up's counter
        assert c.stats["opens"] >= 2
    finally:
        c.stop()


def test_replug_without_reboot_resumes_without_loss(sim, q):
    c = _client(sim.path, q, backoff=(0.01, 0.1))
    try:
        _online(q)
        sim.unplug()
        wait_event(q, lambda e: isinstance(e, ShoeStatus) and not e.online)
        sim.deal(4)                            # dealt while unplugged: kept un-acked
        time.sleep(0.05)
        sim.replug(reboot=False)
        draws = [wait_event(q, lambda e: isinstance(e, CardDrawn)).draw for _ in range(4)]
        assert draws == [1, 2, 3, 4]
    finally:
        c.stop()


def test_mode_and_lock_reach_the_shoe(sim, q):
    c = _client(sim.path, q)
    try:
        _online(q)
        c.set_mode("register")
        c.lock(True)
        wait_until(lambda: sim.device.mode == "register" and sim.device.locked)
        c.lock(False)
        wait_until(lambda: not sim.device.locked)
        with pytest.raises(ValueError):
            c.set_mode("shuffle")
    finally:
        c.stop()


def test_faults_from_the_simulator_are_repaired(sim, q):
    c = _client(sim.path, q)
    try:
        _online(q)
        sim.corrupt_next(1)
        sim.drop_next(1)
        sim.duplicate_next(1)
        sim.delay_next(1)
        sim.deal(10)
        got = [wait_event(q, lambda e: isinstance(e, CardDrawn)) for _ in range(10)]
        assert [e.draw for e in got] == list(range(1, 11))
        expected = {d: uid for _, d, uid in sim.log}
        assert all(e.uid == expected[e.draw] for e in got)
        time.sleep(0.2)
        assert not [e for e in drain(q) if isinstance(e, CardDrawn)]
        assert c.stats["corrupt_rejected"] >= 1 and c.stats["duplicates"] >= 1
    finally:
        c.stop()


def test_simulator_press_and_foreign_tag(sim, q):
    c = _client(sim.path, q)
    try:
        _online(q)
        sim.press()
        sim.draw("DEADBEEF")                   # a 4-byte foreign tag
        assert isinstance(wait_event(q, lambda e: not isinstance(e, ShoeStatus)), DealerButton)
        ev = wait_event(q, lambda e: isinstance(e, DeviceStatus))
        assert "DEADBEEF" in ev.detail and "foreign" in ev.detail
    finally:
        c.stop()


def test_silent_simulated_shoe_goes_offline_and_returns(sim, q):
    c = _client(sim.path, q, silent_timeout=0.3)
    try:
        _online(q)
        sim.mute(True)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert not ev.online and "silent" in ev.reason
        sim.mute(False)
        assert wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
    finally:
        c.stop()


def test_a_bug_in_event_handling_does_not_end_the_reader(raw):
    class FlakyQueue(queue.Queue):
        failed = False

        def put(self, item, block=True, timeout=None):
            if isinstance(item, CardDrawn) and not FlakyQueue.failed:
                FlakyQueue.failed = True
                raise RuntimeError("boom")
            super().put(item, block, timeout)

    q = FlakyQueue()
    c = _client(raw.path, q, backoff=(0.01, 0.05))
    try:
        _connect(raw, q)
        raw.card(1, UID_A, 1)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus) and not e.online)
        assert "client error" in ev.reason
        raw.wait_for_frame(lambda f: f["type"] == "ping" and f["seq"] > 1)  # reopened
        raw.hello()
        _online(q)
        raw.card(1, UID_A, 1)     # not acked before the failure: delivered now
        assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == 1
    finally:
        c.stop()
