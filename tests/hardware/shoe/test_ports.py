"""A shoe port stays on this machine: device paths and pyserial URLs to loopback only."""

from __future__ import annotations

import pytest

from hardware.shoe.ports import off_machine


@pytest.mark.parametrize("port", [
    "/dev/serial/by-id/usb-shoe-if00", "loop://", "shoesim://table1?seed=3",
    "socket://127.0.0.1:4000", "socket://127.9.8.7:4000", "socket://localhost:4000",
    "rfc2217://[::1]:4000", "spy:///dev/ttyACM0?file=/tmp/shoe.txt",
    "spy://socket://127.0.0.1:4000", "alt:///dev/ttyACM0?class=PosixPollSerial"])
def test_ports_on_this_machine_are_accepted(port: str) -> None:
    assert off_machine(port) is None


@pytest.mark.parametrize(("port", "told"), [
    ("socket://8.8.8.8:1", "reaches 8.8.8.8, off this machine"),
    ("rfc2217://[fd00::9]:4000", "reaches fd00::9, off this machine"),
    ("socket://shoe.lan:4000", "reaches shoe.lan, off this machine"),
    ("spy://socket://10.0.0.7:4000?file=x", "socket://10.0.0.7:4000 reaches 10.0.0.7"),
    ("socket://:4000", "names no host"),
    ("cp2110://0001:0004:00", "scheme 'cp2110' is not one known to stay on this machine"),
    ("spy://" * 5 + "loop://", "deep")])
def test_ports_off_this_machine_are_refused_saying_why(port: str, told: str) -> None:
    reason = off_machine(port)
    assert reason is not None and told in reason


def test_the_client_refuses_a_port_off_this_machine_before_opening_it() -> None:
    from engine.errors import PokerTableError
    from hardware.shoe.client import ShoeClient
    from hardware.shoe.ports import ShoePortError

    opened: list[str] = []
    with pytest.raises(ShoePortError, match="8.8.8.8") as err:
        ShoeClient("socket://8.8.8.8:1", [].append, opener=lambda port, **kw: opened.append(port))
    assert isinstance(err.value, PokerTableError) and isinstance(err.value, ValueError)
    assert opened == []
