"""Shoe link framing: one frame per line, ``<compact JSON> TAB <CRC> LF``.

Shared verbatim by the firmware (MicroPython on the RP2040) and the host client
(``hardware.shoe.protocol`` imports this module), so the two sides cannot disagree.
Written in the common subset of CPython 3.11 and MicroPython: no dataclasses, no typing,
no f-strings.

* CRC: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor) over
  the UTF-8 bytes of the JSON text exactly as sent, written as 4 upper-case hex digits.
  Check value: ``crc16(b"123456789") == 0x29B1``.  On CPython the real library routine
  ``binascii.crc_hqx(data, 0xFFFF)`` computes it; MicroPython lacks ``crc_hqx`` and uses
  the table below (the tests check that both agree).
* A CR before the LF is ignored (USB CDC consoles may add one).  Lines longer than
  :data:`MAX_LINE` bytes are rejected.

Source of the CRC parameters: the "CRC-16/CCITT-FALSE" entry (a.k.a. CRC-16/IBM-3740) of
Greg Cook's *Catalogue of parametrised CRC algorithms*.
"""

import json

PROTOCOL_VERSION = 1
MAX_LINE = 512          # bytes, JSON + TAB + 4 hex digits (a card frame is ~110)


class FrameError(ValueError):
    """A line that is not a valid frame (bad CRC, bad JSON, too long, bad shape)."""


def _make_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes) by table lookup; returns an int 0..0xFFFF."""
    tbl = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ tbl[((crc >> 8) ^ b) & 0xFF]
    return crc


try:  # CPython: the C implementation in the standard library
    from binascii import crc_hqx as _crc_hqx

    def crc16(data, crc=0xFFFF):
        """CRC-16/CCITT-FALSE of ``data`` (bytes); returns an int 0..0xFFFF."""
        return _crc_hqx(data, crc)
except ImportError:  # MicroPython
    crc16 = crc16_table


_HEX = b"0123456789ABCDEF"


def crc_hex(data):
    """The CRC of ``data`` as 4 upper-case hex digits (bytes), e.g. ``b"29B1"``."""
    c = crc16(data)
    return bytes((_HEX[(c >> 12) & 15], _HEX[(c >> 8) & 15], _HEX[(c >> 4) & 15], _HEX[c & 15]))


def dumps(msg):
    """Compact JSON text (bytes) of the dict ``msg``."""
    try:
        text = json.dumps(msg, separators=(",", ":"))
    except TypeError:  # an old MicroPython without ``separators``: still valid JSON
        text = json.dumps(msg)
    return text.encode("utf-8") if isinstance(text, str) else text


def encode(msg):
    """The complete line (bytes, ending in LF) carrying the dict ``msg``.

    Raises:
        FrameError: the frame would be longer than :data:`MAX_LINE`.
    """
    body = dumps(msg)
    if len(body) + 5 > MAX_LINE:
        raise FrameError("frame too long (%d bytes)" % (len(body) + 5))
    return body + b"\t" + crc_hex(body) + b"\n"


def _is_upper_hex(b):
    for c in b:
        if not (48 <= c <= 57 or 65 <= c <= 70):
            return False
    return True


def decode(line):
    """The dict carried by one line (bytes, with or without the final LF / CR LF).

    Raises:
        FrameError: too long, no TAB, CRC not 4 upper-case hex digits, CRC mismatch, JSON
            that does not parse or is not an object with an integer ``v``, ``seq``, ``ms``,
            a string ``boot`` and a string ``type``.
    """
    if line[-1:] == b"\n":
        line = line[:-1]
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError("frame too long (%d bytes)" % len(line))
    if len(line) < 7 or line[-5:-4] != b"\t":
        raise FrameError("no TAB before a 4-digit CRC")
    body = line[:-5]
    digits = line[-4:]
    if not _is_upper_hex(digits):
        raise FrameError("CRC is not 4 upper-case hex digits")
    if crc_hex(body) != digits:
        raise FrameError("CRC mismatch")
    try:
        msg = json.loads(body.decode("utf-8"))
    except ValueError:  # includes UnicodeError on both CPython and MicroPython
        raise FrameError("CRC ok but JSON does not parse") from None
    check_envelope(msg)
    return msg


def check_envelope(msg):
    """Raise :class:`FrameError` unless ``msg`` has the fields every frame carries."""
    if not isinstance(msg, dict):
        raise FrameError("frame is not a JSON object")
    for key in ("v", "seq", "ms"):
        if not isinstance(msg.get(key), int) or isinstance(msg.get(key), bool):
            raise FrameError("frame field %r missing or not an integer" % key)
    for key in ("boot", "type"):
        if not isinstance(msg.get(key), str):
            raise FrameError("frame field %r missing or not a string" % key)


def envelope(mtype, boot, seq, ms):
    """The fields every frame carries, as a new dict: ``{"v", "boot", "seq", "ms", "type"}``."""
    return {"v": PROTOCOL_VERSION, "boot": boot, "seq": seq, "ms": ms, "type": mtype}


class LineSplitter:
    """Splits a byte stream into lines; an over-long line is discarded up to its LF and
    reported as one ``None`` (the caller counts it as a corrupt frame).

    ``feed(data)`` returns a list whose items are complete lines (bytes, without LF) or
    ``None`` for each discarded over-long line.
    """

    def __init__(self, max_line=MAX_LINE + 2):
        self.max_line = max_line
        self._buf = b""
        self._discarding = False

    def feed(self, data):
        out = []
        buf = self._buf + data
        start = 0
        while True:
            i = buf.find(b"\n", start)
            if i < 0:
                break
            if self._discarding:
                self._discarding = False
            else:
                out.append(buf[start:i])
            start = i + 1
        rest = buf[start:]
        if len(rest) > self.max_line:
            if not self._discarding:
                out.append(None)
            self._discarding = True
            rest = b""
        self._buf = rest
        return out

    def reset(self):
        """Forget a partial line (after the port was reopened)."""
        self._buf = b""
        self._discarding = False
