"""main.py with a fake ``machine``: pins, SPI, and the loop's first passes."""

from __future__ import annotations

from firmware.shoe import framing
from tests.data_paths import REPO
from tests.firmware.shoe import fake_machine


class ListLink:
    def __init__(self, incoming=b""):
        self.incoming = incoming
        self.out = []

    def read(self, limit=256):
        data, self.incoming = self.incoming[:limit], self.incoming[limit:]
        return data

    def write(self, line):
        self.out.append(framing.decode(line))


def test_setup_uses_the_documented_pins(board_main):
    hw = board_main.setup()
    spi = hw["reader"].spi
    assert spi.id == 0 and [p.id for p in spi.pins] == [18, 19, 16]
    assert hw["reader"].cs.id == 17 and hw["key"].id == 15
    assert hw["key"].pull == fake_machine.Pin.PULL_UP


def test_loop_says_hello_and_obeys_the_host(board_main, monkeypatch):
    monkeypatch.setattr(board_main, "POLL_MS", 0)
    msg = framing.envelope("lock", "HOST0001", 1, 0)
    msg["locked"] = True
    link = ListLink(framing.encode(msg))
    hw = board_main.setup()
    dev = board_main.run(hw=hw, link=link, loops=5)
    assert link.out[0]["type"] == "hello" and link.out[0]["reader"] == "MFRC522"
    assert dev.locked and hw["lock_led"].value() == 1
    assert dev.draws == 0                      # the fake chip never shows a tag
    assert not [f for f in link.out if f["type"] == "error"]


def test_missing_reader_is_reported_as_a_fault(board_main, monkeypatch):
    monkeypatch.setattr(board_main, "POLL_MS", 0)
    monkeypatch.setattr(fake_machine.SPI, "read", lambda self, n, write=0: b"\x00" * n)
    link = ListLink()
    dev = board_main.run(hw=board_main.setup(), link=link, loops=3)
    errors = [f for f in link.out if f["type"] == "error"]
    assert errors and errors[0]["code"] == "reader_fault" and "wiring" in errors[0]["detail"]
    assert dev.fault_text


def test_the_board_names_itself_for_the_udev_rule(board_main):
    """Issue 11, item 15: the USB product string the rule matches is set by the firmware,
    over the built-in serial device (its descriptors kept, the strings replaced)."""
    fake_machine.USBDevice.calls.clear()
    assert board_main.set_usb_identity(fake_machine.make_module()) is True
    calls = fake_machine.USBDevice.calls
    assert calls[0] == ("active", False) and calls[-1] == ("active", True)
    _, dev, cfg, strs, builtin = calls[1]
    builtin_default = fake_machine.USBDevice.BUILTIN_DEFAULT
    assert (dev, cfg, builtin) == (builtin_default.desc_dev, builtin_default.desc_cfg,
                                   builtin_default)
    assert strs == {1: "PokerTable", 2: "PokerTable Shoe"}
    rules = REPO / "systemd" / "99-pokertable-shoe.rules"
    assert f'ATTRS{{product}}=="{board_main.USB_PRODUCT}"' in rules.read_text()


def test_an_old_micropython_keeps_the_stock_strings(board_main):
    assert board_main.set_usb_identity(fake_machine.make_module(usb=False)) is False
