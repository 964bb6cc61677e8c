"""Backend selection by configuration."""

from __future__ import annotations

import queue

import pytest

from engine.events import CardDrawn, ShoeStatus
from hardware.shoe import ShoeConfig, make_shoe
from hardware.shoe.factory import ShoeConfigError
from tests.hardware.shoe.helpers import wait_event, wait_until


def test_sim_backend_works_end_to_end():
    q: queue.Queue = queue.Queue()
    client = make_shoe({"backend": "sim", "sim_seed": 2, "mode": "deal"}, q)
    try:
        assert wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
        client.simulator.deal(2)
        assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == 1
        assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == 2
        wait_until(lambda: client.simulator.device.mode == "deal")
    finally:
        client.stop()
        client.simulator.stop()


def test_serial_backend_uses_the_configured_port(tmp_path):
    q: queue.Queue = queue.Queue()
    port = str(tmp_path / "usb-Absent-if00")
    client = make_shoe({"backend": "serial", "port": port}, q)
    try:
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus))
        assert not ev.online and port in ev.reason
        assert client.simulator is None
    finally:
        client.stop()


@pytest.mark.parametrize("cfg", [{"backend": "bluetooth"}, {"prot": "/dev/x"}])
def test_bad_config_is_a_typed_error(cfg):
    with pytest.raises(ShoeConfigError):
        ShoeConfig.from_mapping(cfg)
    with pytest.raises(ValueError):
        ShoeConfig.from_mapping(cfg)


def test_shoesim_url_handler_with_pyserial():
    import serial

    from hardware.shoe import protocol_shoesim
    from hardware.shoe.protocol import decode, host_frame

    protocol_shoesim.register()
    port = serial.serial_for_url("shoesim://urltest?seed=9", timeout=0.5, exclusive=True)
    sim = protocol_shoesim.simulator_for_url("shoesim://urltest")
    try:
        port.write(host_frame("ping", "HOST0000", 1, 0))   # a real tty: ping by hand
        line = port.readline()
        assert decode(line)["type"] in ("hello", "heartbeat")
        sim.unplug()
        port.close()
        with pytest.raises(serial.SerialException):
            serial.serial_for_url("shoesim://urltest")
    finally:
        port.close()
        sim.stop()
    assert protocol_shoesim._registry.get("urltest") is None


def test_sim_backend_survives_unplug_through_the_url_handler():
    q: queue.Queue = queue.Queue()
    client = make_shoe({"backend": "sim", "sim_name": "unplugtest"}, q)
    client.backoff = (0.01, 0.05)
    try:
        assert wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
        client.simulator.unplug()
        assert not wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
        client.simulator.replug()
        assert wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
        client.simulator.deal(1)
        assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == 1
    finally:
        client.stop()
        client.simulator.stop()


def test_serial_backend_accepts_a_shoesim_url():
    q: queue.Queue = queue.Queue()
    client = make_shoe({"backend": "serial", "port": "shoesim://urlport?seed=4"}, q)
    from hardware.shoe import protocol_shoesim

    sim = protocol_shoesim.simulator_for_url("shoesim://urlport")
    try:
        assert wait_event(q, lambda e: isinstance(e, ShoeStatus)).online
        sim.deal(1)
        assert wait_event(q, lambda e: isinstance(e, CardDrawn)).draw == 1
    finally:
        client.stop()
        sim.stop()
