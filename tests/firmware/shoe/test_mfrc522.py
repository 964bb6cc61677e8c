"""The MFRC522 driver's cascade handling, against a fake tag at the ISO 14443 frame level,
and its register access against a fake SPI bus."""

from __future__ import annotations

import pytest

from firmware.shoe import mfrc522
from firmware.shoe.uid import CARD, FOREIGN, TRUNCATED, classify
from tests.firmware.shoe.fake_machine import SPI, Pin


def level(b4):
    return bytes(b4) + bytes([b4[0] ^ b4[1] ^ b4[2] ^ b4[3]])


class FakeTagReader(mfrc522.MFRC522):
    """Replaces the FIFO transceive with a 7-byte-UID tag answering ISO 14443-3 frames."""

    def __init__(self, uid=None, fail_level2=False):
        super().__init__(SPI(0), Pin(17, Pin.OUT))
        self.uid = uid
        self.fail_level2 = fail_level2
        self.sent = []

    def _crc(self, data):
        return b"\x00\x00"

    def _transceive(self, send, bits=0):
        self.sent.append(bytes(send))
        u = self.uid
        if u is None:
            return mfrc522.NOTAG, b"", 0
        cmd = send[0]
        if cmd == mfrc522.WUPA:
            return mfrc522.OK, b"\x44\x00", 16
        if cmd == 0x50:
            return mfrc522.NOTAG, b"", 0
        if len(u) == 7:
            cl = {0x93: level(bytes([0x88]) + u[:3]), 0x95: level(u[3:])}
        else:
            cl = {0x93: level(u)}
        if cmd not in cl:
            return mfrc522.NOTAG, b"", 0
        if cmd == 0x95 and self.fail_level2:
            return mfrc522.ERR, b"", 0
        if send[1] == 0x20:
            return mfrc522.OK, cl[cmd], 40
        sak = 0x04 if (cmd == 0x93 and len(u) == 7) else 0x00
        return mfrc522.OK, bytes([sak, 0, 0]), 24


def test_reads_the_full_seven_byte_uid_through_cascade_level_2():
    uid = bytes.fromhex("04A1B2C3D4E5F6")
    r = FakeTagReader(uid)
    got, failed = r.read()
    assert (got, failed) == (uid, False) and classify(got) == CARD
    assert [s[:2] for s in r.sent if s[0] in (0x93, 0x95)] == \
        [b"\x93\x20", b"\x93\x70", b"\x95\x20", b"\x95\x70"]


def test_level_2_failure_is_a_truncated_read():
    r = FakeTagReader(bytes.fromhex("04A1B2C3D4E5F6"), fail_level2=True)
    got, _ = r.read()
    assert got == bytes.fromhex("04A1B2") and classify(got) == TRUNCATED


def test_four_byte_uid_starting_0x88_whose_sak_says_complete_is_one_foreign_read():
    uid = bytes.fromhex("8804A1B2")
    r = FakeTagReader(uid)
    got, failed = r.read()
    assert (got, failed) == (uid, False) and classify(got) == FOREIGN
    assert [s[:2] for s in r.sent if s[0] in (0x93, 0x95)] == [b"\x93\x20", b"\x93\x70"]


def test_no_tag_and_four_byte_tag():
    assert FakeTagReader(None).read() == (None, False)
    got, _ = FakeTagReader(b"\xDE\xAD\xBE\xEF").read()
    assert got == b"\xDE\xAD\xBE\xEF"


class RegisterSPI(SPI):
    """SPI bus with an MFRC522 register file behind it."""

    def __init__(self, version):
        super().__init__(0)
        self.regs = {mfrc522.VERSION: version}
        self._pending = None

    def write(self, data):
        super().write(data)
        addr = data[0]
        reg = (addr >> 1) & 0x3F
        if addr & 0x80:
            self._pending = reg
        else:
            self.regs[reg] = data[1]

    def read(self, n, write=0):
        return bytes([self.regs.get(self._pending, 0)]) * n


def test_init_programs_the_timer_and_antenna():
    spi = RegisterSPI(0x92)
    r = mfrc522.MFRC522(spi, Pin(17, Pin.OUT), Pin(20, Pin.OUT))
    assert r.init() == 0x92
    assert spi.regs[mfrc522.T_MODE] == 0x8D and spi.regs[mfrc522.TX_CONTROL] & 0x03 == 0x03


def test_init_with_no_chip_is_a_reader_fault():
    r = mfrc522.MFRC522(RegisterSPI(0x00), Pin(17, Pin.OUT))
    with pytest.raises(mfrc522.ReaderFault):
        r.init()
