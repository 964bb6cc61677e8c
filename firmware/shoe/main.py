"""Card-shoe firmware entry point (RP2040 + MFRC522): the only module that touches pins.

On the board this file is ``/main.py`` and the pure modules are the package ``/shoe``
(docs/shoe-hardware.md says how to copy them with ``mpremote``).  The link is the USB CDC
serial port (MicroPython's stdio); the host client opens it as
``/dev/serial/by-id/usb-PokerTable_PokerTable_Shoe_<serial>-if00`` (``/dev/pokertable-shoe``).

Pins (Raspberry Pi Pico numbering, SPI0):  SCK GP18, MOSI GP19, MISO GP16, CS GP17,
RST GP20 (MFRC522), exposed-card key GP15 to GND (internal pull-up), lock LED GP14,
status LED GP25 (on-board).

Ctrl-C from ``mpremote`` still interrupts the loop (frames are printable ASCII, never 0x03).

USB identity: at start the board re-enumerates with our own manufacturer and product
strings (:data:`USB_MANUFACTURER`, :data:`USB_PRODUCT`), so the Pi's udev rule
(``systemd/99-pokertable-shoe.rules``) names this board, and no other RP2040, the shoe
(needs MicroPython 1.23 or later for ``machine.USBDevice``; see docs/shoe-hardware.md).
"""

import os
import sys
import time

import machine

try:
    from shoe import debounce, device, mfrc522  # on the board: /shoe package
except ImportError:  # pragma: no cover - host layout (firmware.shoe)
    from firmware.shoe import debounce, device, mfrc522

PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20, "key": 15, "lock_led": 14,
        "led": 25}
SPI_ID = 0
SPI_BAUD = 1000000
POLL_MS = 15          # reader poll period
LEAVE_MS = 150        # a tag absent this long has left the shoe
REINIT_MS = 2000      # retry a faulty reader this often
USB_MANUFACTURER = "PokerTable"
USB_PRODUCT = "PokerTable Shoe"   # matched by systemd/99-pokertable-shoe.rules
# String descriptor indexes of MicroPython's built-in USB device (shared/tinyusb
# tusb_config.h: USBD_STR_MANUF 1, USBD_STR_PRODUCT 2; 3 is the serial, the chip's id).
USB_STR_MANUF = 1
USB_STR_PRODUCT = 2


def time_since(now, then):
    return device.ticks_diff(now, then)


def ticks_ms():
    f = getattr(time, "ticks_ms", None)
    if f is not None:
        return f()
    return int(time.monotonic() * 1000) & 0x3FFFFFFF   # CPython (tests)


def sleep_ms(ms):
    f = getattr(time, "sleep_ms", None)
    if f is not None:
        f(ms)
    else:
        time.sleep(ms / 1000)


class StdioLink:
    """The USB CDC port as MicroPython's stdio: non-blocking read, raw-byte write."""

    def __init__(self, stdin=None, stdout=None):
        import select
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.poller = select.poll()
        self.poller.register(self.stdin, select.POLLIN)

    def read(self, limit=256):
        buf = self.stdin.buffer if hasattr(self.stdin, "buffer") else self.stdin
        data = b""
        while len(data) < limit and self.poller.poll(0):
            chunk = buf.read(1)
            if not chunk:
                break
            data += chunk
        return data

    def write(self, line):
        out = self.stdout.buffer if hasattr(self.stdout, "buffer") else self.stdout
        out.write(line)


def set_usb_identity(m=machine):
    """Re-enumerate the built-in USB serial device with our manufacturer and product
    strings (the serial number stays the chip's unique id).  Returns True when set, False
    on a MicroPython without ``machine.USBDevice`` (before 1.23: the stock strings stay)."""
    cls = getattr(m, "USBDevice", None)
    if cls is None:
        return False
    usbd = cls()
    builtin = usbd.BUILTIN_DEFAULT
    usbd.active(False)
    usbd.builtin_driver = builtin
    usbd.config(builtin.desc_dev, builtin.desc_cfg,
                desc_strs={USB_STR_MANUF: USB_MANUFACTURER, USB_STR_PRODUCT: USB_PRODUCT})
    usbd.active(True)
    return True


def boot_id():
    return "".join("%02X" % b for b in os.urandom(4))


def setup(m=machine):
    """Create the pins, the SPI bus and the reader; returns a dict of them."""
    p = PINS
    spi = m.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0,
                sck=m.Pin(p["sck"]), mosi=m.Pin(p["mosi"]), miso=m.Pin(p["miso"]))
    cs = m.Pin(p["cs"], m.Pin.OUT, value=1)
    rst = m.Pin(p["rst"], m.Pin.OUT, value=1)
    key = m.Pin(p["key"], m.Pin.IN, m.Pin.PULL_UP)
    lock_led = m.Pin(p["lock_led"], m.Pin.OUT, value=0)
    led = m.Pin(p["led"], m.Pin.OUT, value=0)
    return {"reader": mfrc522.MFRC522(spi, cs, rst), "key": key, "lock_led": lock_led,
            "led": led}


def run(hw=None, link=None, loops=None, stop=None):
    """The main loop: poll the reader, sample the key, read host frames, tick.

    ``loops``: stop after that many passes, ``stop()``: stop when it returns true (tests);
    by default it runs forever.
    Returns the :class:`device.ShoeDevice` (for tests).
    """
    if hw is None:  # on the board: name ourselves before the host opens the port
        set_usb_identity()
    hw = hw or setup()
    link = link or StdioLink()
    reader = hw["reader"]
    dev = device.ShoeDevice(boot_id(), link.write, reader=reader.READER)
    dev.presence.leave_ms = LEAVE_MS
    key = debounce.KeyDebounce()
    try:
        reader.init()
    except mfrc522.ReaderFault as exc:
        dev.fault(str(exc), ticks_ms())
    dev.start(ticks_ms())
    n = 0
    last_init = ticks_ms()
    while (loops is None or n < loops) and not (stop is not None and stop()):
        n += 1
        now = ticks_ms()
        if dev.fault_text and time_since(now, last_init) >= REINIT_MS:
            last_init = now
            try:
                reader.init()
                dev.fault("", now)
            except (mfrc522.ReaderFault, OSError) as exc:
                dev.fault(str(exc), now)
        if dev.mode != "idle" and not dev.fault_text:
            try:
                uid, failed = reader.read()
            except OSError as exc:
                dev.fault("SPI error: %s" % exc, now)
            else:
                dev.poll(now, uid, failed)
        if key.update(now, hw["key"].value() == 0):
            dev.press(now)
        data = link.read()
        if data:
            dev.receive(data, now)
        dev.tick(now)
        hw["lock_led"].value(1 if dev.locked else 0)
        hw["led"].value(1 if dev.presence.present else 0)
        sleep_ms(POLL_MS)
    return dev


if __name__ == "__main__":  # pragma: no cover - on the board
    run()
