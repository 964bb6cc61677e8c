"""A fake MicroPython ``machine`` module: just enough of ``Pin`` and ``SPI`` for main.py."""

from __future__ import annotations

import types


class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 2, 3

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self._value = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self._value = value
        self.history: list[int] = []

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = int(bool(v))
        self.history.append(self._value)
        return None


class SPI:
    def __init__(self, spi_id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None):
        self.id = spi_id
        self.baudrate = baudrate
        self.pins = (sck, mosi, miso)
        self.written: list[bytes] = []

    def write(self, data):
        self.written.append(bytes(data))

    def read(self, n, write=0):
        return bytes([0x92] * n)   # every register reads 0x92 (the MFRC522 v2 version)


class _Builtin:
    """A built-in USB driver's descriptors (what ``USBDevice.BUILTIN_DEFAULT`` holds)."""

    desc_dev = b"\x12\x01dev"
    desc_cfg = b"\x09\x02cfg"
    str_max = 4


class USBDevice:
    """MicroPython's ``machine.USBDevice`` singleton (1.23+), recording what is done."""

    BUILTIN_NONE = None
    BUILTIN_DEFAULT = _Builtin()
    calls: list[tuple] = []

    def __init__(self):
        self.builtin_driver = None

    def active(self, value=None):
        USBDevice.calls.append(("active", value))
        return True

    def config(self, desc_dev, desc_cfg, desc_strs=None, **callbacks):
        USBDevice.calls.append(("config", desc_dev, desc_cfg, dict(desc_strs or {}),
                                self.builtin_driver))


def make_module(usb: bool = True) -> types.ModuleType:
    mod = types.ModuleType("machine")
    mod.Pin = Pin  # type: ignore[attr-defined]
    mod.SPI = SPI  # type: ignore[attr-defined]
    if usb:
        mod.USBDevice = USBDevice  # type: ignore[attr-defined]
    return mod
