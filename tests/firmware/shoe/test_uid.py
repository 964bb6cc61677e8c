"""UID assembly across cascade levels (ISO/IEC 14443-3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.shoe import uid


def level(b4: bytes) -> bytes:
    return b4 + bytes([b4[0] ^ b4[1] ^ b4[2] ^ b4[3]])


@given(st.binary(min_size=7, max_size=7))
def test_seven_byte_uid_from_two_levels(u):
    cl1 = level(bytes([0x88]) + u[:3])
    cl2 = level(u[3:])
    got = uid.assemble(cl1, cl2)
    if u[3] == 0x88:       # level 2 itself starting with CT would announce a level 3
        return
    assert got == u and uid.classify(got) == uid.CARD


def test_level_two_missing_is_truncated_never_a_card():
    cl1 = level(bytes([0x88, 0x04, 0xA1, 0xB2]))
    got = uid.assemble(cl1)
    assert got == bytes([0x04, 0xA1, 0xB2])
    assert uid.classify(got) == uid.TRUNCATED
    assert uid.assemble(cl1, saks=[0x04]) == got  # the SAK announced level 2


def test_four_byte_uid_starting_0x88_with_a_complete_sak_is_foreign():
    """The SAK's cascade bit decides the length, not the first byte."""
    got = uid.assemble(level(bytes([0x88, 0x04, 0xA1, 0xB2])), saks=[0x08])
    assert got == bytes([0x88, 0x04, 0xA1, 0xB2]) and uid.classify(got) == uid.FOREIGN


def test_four_byte_uid_is_foreign():
    got = uid.assemble(level(b"\xDE\xAD\xBE\xEF"))
    assert got == b"\xDE\xAD\xBE\xEF" and uid.classify(got) == uid.FOREIGN


def test_ten_byte_uid_is_foreign():
    got = uid.assemble(level(b"\x88\x01\x02\x03"), level(b"\x88\x04\x05\x06"),
                       level(b"\x07\x08\x09\x0A"))
    assert got == bytes(range(1, 11)) and uid.classify(got) == uid.FOREIGN


@pytest.mark.parametrize("bad", [b"\x88\x04\xA1\xB2\x00", b"\x01\x02\x03", b""])
def test_bad_bcc_or_length_raises(bad):
    with pytest.raises(uid.UidError):
        uid.assemble(bad)


def test_to_hex():
    assert uid.to_hex(bytes.fromhex("04a1b2c3d4e5f6")) == "04A1B2C3D4E5F6"
