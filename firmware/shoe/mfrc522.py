"""Minimal MFRC522 driver over SPI, reading full (cascade level 2) UIDs.

Does not import ``machine``: ``main.py`` passes in the ``spi`` (``machine.SPI``) and the
chip-select / reset ``Pin`` objects, so this module runs under CPython against fakes.

Register map and commands: NXP MFRC522 data sheet rev. 3.9, section 9 (registers) and 10
(commands); the ISO 14443-3 frames (WUPA 0x52, ANTICOLLISION ``SEL 0x20``, SELECT
``SEL 0x70 uid BCC CRC_A``, HLTA ``50 00 CRC_A``) from ISO/IEC 14443-3 section 6.
The FIFO handling follows the widely used wendlers/micropython-mfrc522 driver.

:meth:`MFRC522.read` returns ``(uid_bytes or None, failed)`` for one poll, ready for
:meth:`device.ShoeDevice.poll`.
"""

from . import uid as _uid

# registers
COMMAND, COM_IEN, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, TX_ASK = 0x11, 0x14, 0x15
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37
# commands
IDLE, CALC_CRC, TRANSCEIVE, SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
# ISO 14443-3 type A
WUPA = 0x52
SEL_CL1, SEL_CL2, SEL_CL3 = 0x93, 0x95, 0x97
SAK_UID_NOT_COMPLETE = 0x04

OK, NOTAG, ERR = 0, 1, 2


class ReaderFault(Exception):
    """The chip does not answer sensibly (wiring, power)."""


class MFRC522:
    """One MFRC522 on ``spi`` with chip select ``cs`` (and optional reset pin ``rst``)."""

    READER = "MFRC522"

    def __init__(self, spi, cs, rst=None):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.cs.value(1)
        if rst is not None:
            rst.value(1)

    # --- registers ---------------------------------------------------------------------
    def _wreg(self, reg, val):
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, val & 0xFF)))
        self.cs.value(1)

    def _rreg(self, reg):
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        val = self.spi.read(1)
        self.cs.value(1)
        return val[0]

    def _sflags(self, reg, mask):
        self._wreg(reg, self._rreg(reg) | mask)

    def _cflags(self, reg, mask):
        self._wreg(reg, self._rreg(reg) & (~mask))

    def init(self):
        """Reset and configure the chip (timer ~25 ms, 100% ASK, CRC preset 0x6363),
        antenna on.  Raises :class:`ReaderFault` if the version register is implausible."""
        self._wreg(COMMAND, SOFT_RESET)
        self._wreg(T_MODE, 0x8D)
        self._wreg(T_PRESCALER, 0x3E)
        self._wreg(T_RELOAD_L, 30)
        self._wreg(T_RELOAD_H, 0)
        self._wreg(TX_ASK, 0x40)
        self._wreg(MODE, 0x3D)
        self._sflags(TX_CONTROL, 0x03)
        version = self._rreg(VERSION)
        if version in (0x00, 0xFF):
            raise ReaderFault("MFRC522 version register reads 0x%02X: check SPI wiring"
                              % version)
        return version

    # --- frames ------------------------------------------------------------------------
    def _transceive(self, send, bits=0):
        """Send ``send`` (bytes) and return ``(status, received bytes, received bits)``;
        ``bits``: valid bits of the last byte sent (7 for the short frame WUPA)."""
        self._wreg(BIT_FRAMING, bits)
        self._wreg(COM_IEN, 0x77 | 0x80)
        self._cflags(COM_IRQ, 0x80)
        self._sflags(FIFO_LEVEL, 0x80)
        self._wreg(COMMAND, IDLE)
        for b in send:
            self._wreg(FIFO_DATA, b)
        self._wreg(COMMAND, TRANSCEIVE)
        self._sflags(BIT_FRAMING, 0x80)
        n = 2000
        while True:
            irq = self._rreg(COM_IRQ)
            n -= 1
            if n == 0 or (irq & 0x01) or (irq & 0x30):
                break
        self._cflags(BIT_FRAMING, 0x80)
        if n == 0:
            return NOTAG, b"", 0
        if self._rreg(ERROR) & 0x1B:
            return ERR, b"", 0
        if irq & 0x01:
            return NOTAG, b"", 0
        count = self._rreg(FIFO_LEVEL)
        last_bits = self._rreg(CONTROL) & 0x07
        nbits = (count - 1) * 8 + last_bits if last_bits else count * 8
        data = bytes(self._rreg(FIFO_DATA) for _ in range(min(count, 16)))
        return OK, data, nbits

    def _crc(self, data):
        self._cflags(DIV_IRQ, 0x04)
        self._sflags(FIFO_LEVEL, 0x80)
        for b in data:
            self._wreg(FIFO_DATA, b)
        self._wreg(COMMAND, CALC_CRC)
        for _ in range(255):
            if self._rreg(DIV_IRQ) & 0x04:
                break
        return bytes((self._rreg(CRC_RESULT_L), self._rreg(CRC_RESULT_H)))

    def wake(self):
        """WUPA: True if a tag (idle or halted) answered with an ATQA."""
        status, _, nbits = self._transceive(bytes((WUPA,)), bits=0x07)
        return status == OK and nbits == 16

    def anticoll(self, sel):
        """One cascade level's 5 bytes (4 UID/CT bytes + BCC), or ``None``."""
        status, data, _ = self._transceive(bytes((sel, 0x20)))
        if status != OK or len(data) != 5 or not _uid.bcc_ok(data):
            return None
        return data

    def select(self, sel, level):
        """SELECT at one cascade level; returns the SAK byte or ``None``."""
        frame = bytes((sel, 0x70)) + bytes(level)
        status, data, nbits = self._transceive(frame + self._crc(frame))
        if status != OK or nbits != 24:
            return None
        return data[0]

    def halt(self):
        frame = bytes((0x50, 0x00))
        self._transceive(frame + self._crc(frame))

    def read(self):
        """One poll: ``(None, False)`` no tag; ``(uid, False)`` a read (7-byte card, 4-byte
        foreign tag, any 4-byte UID whose SAK says complete, even one starting 0x88; fewer than 4
        bytes if the level the SAK announced failed: a truncated read); ``(None, True)`` a tag
        answered but even level 1 failed."""
        if not self.wake():
            return None, False
        levels = []
        saks = []
        for sel in (SEL_CL1, SEL_CL2, SEL_CL3):
            level = self.anticoll(sel)
            if level is None:
                break
            sak = self.select(sel, level)
            if sak is None:
                break
            levels.append(level)
            saks.append(sak)
            if not sak & SAK_UID_NOT_COMPLETE:
                break
        if not levels:
            return None, True
        while len(levels) < 3:
            levels.append(None)
        try:
            uid = _uid.assemble(levels[0], levels[1], levels[2], saks=saks)
        except _uid.UidError:
            return None, True
        self.halt()
        return uid, False
