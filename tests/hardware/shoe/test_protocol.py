"""Framing, CRC and message parsing (host side; the framing module is the firmware's)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.shoe import framing
from hardware.shoe import protocol
from hardware.shoe.protocol import (
    Card,
    Error,
    FrameError,
    Heartbeat,
    Hello,
    ShoeMessageError,
    crc16,
    crc16_table,
    crc_hex,
    decode,
    encode,
    envelope,
    host_frame,
    parse,
)
from tests.data_paths import REPO, data

DATA = data("shoe")


def _vectors():
    for v in json.loads((DATA / "crc_vectors.json").read_text())["vectors"]:
        if "ascii" in v:
            text = v["ascii"]
        else:
            ch, n = v["ascii_repeat"]
            text = ch * n
        yield text.encode(), v["crc"]


@pytest.mark.parametrize("data,crc", list(_vectors()))
def test_crc_vectors_both_implementations(data, crc):
    assert crc_hex(data) == crc.encode()
    assert f"{crc16(data):04X}" == crc
    assert f"{crc16_table(data):04X}" == crc   # the MicroPython path


def test_check_value_123456789():
    assert crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_table_crc_equals_library_crc(data):
    assert crc16_table(data) == crc16(data)


def test_host_uses_the_firmware_framing_module():
    # one implementation, shared: the host's names are the firmware's objects
    assert protocol.encode is framing.encode
    assert protocol.decode is framing.decode
    assert protocol.crc16_table is framing.crc16_table


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8)


@settings(max_examples=200)
@given(seq=st.integers(0, 2**31), ms=st.integers(0, 2**30 - 1),
       extra=st.dictionaries(st.sampled_from(["uid", "draw", "x", "note"]), json_values,
                             max_size=4))
def test_round_trip(seq, ms, extra):
    msg = envelope("card", "DEADBEEF", seq, ms)
    msg.update(extra)
    if len(json.dumps(msg, separators=(",", ":")).encode()) + 5 > framing.MAX_LINE:
        with pytest.raises(FrameError):
            encode(msg)
        return
    line = encode(msg)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    body, crc = line[:-1].rsplit(b"\t", 1)
    assert json.loads(body) == msg
    assert body == json.dumps(msg, separators=(",", ":")).encode()  # compact JSON
    assert len(crc) == 4 and crc == crc.upper()
    assert decode(line) == msg
    assert decode(line[:-1] + b"\r\n") == msg  # a CR before the LF is ignored


@settings(max_examples=300)
@given(st.data())
def test_any_single_bit_flip_is_rejected(data):
    msg = envelope("card", "0A0B0C0D", data.draw(st.integers(0, 10**6)), 5)
    msg["uid"] = data.draw(st.text("0123456789ABCDEF", min_size=14, max_size=14))
    msg["draw"] = data.draw(st.integers(1, 10**6))
    line = bytearray(encode(msg)[:-1])
    i = data.draw(st.integers(0, len(line) - 1))
    line[i] ^= 1 << data.draw(st.integers(0, 7))
    with pytest.raises(FrameError):
        decode(bytes(line))


@pytest.mark.parametrize("line", [
    b"",
    b"no tab at all",
    b'{"v":1}\t29b1',                      # lower-case hex is not allowed
    b'{"v":1,"boot":"A","seq":1,"ms":1,"type":"card"}\t0000',  # wrong CRC
    b"[1,2]\t" + crc_hex(b"[1,2]"),        # not an object
    b'{"v":1}\t' + crc_hex(b'{"v":1}'),    # envelope incomplete
    b"{bad json\t" + crc_hex(b"{bad json"),
    b"x" * 600 + b"\t0000",                # too long
])
def test_bad_lines_are_rejected(line):
    with pytest.raises(FrameError):
        decode(line)


def test_lower_case_crc_rejected_even_when_value_matches():
    line = encode(envelope("heartbeat", "AA", 1, 1))
    low = line[:-5] + line[-5:].lower()
    if low != line:
        with pytest.raises(FrameError):
            decode(low)


def test_line_splitter_handles_partial_and_overlong_lines():
    sp = framing.LineSplitter(max_line=10)
    assert sp.feed(b"abc") == []
    assert sp.feed(b"def\nxy") == [b"abcdef"]
    assert sp.feed(b"z" * 20) == [None]          # over-long: reported once
    assert sp.feed(b"zzz\nok\n") == [b"ok"]      # rest of it discarded up to the LF


def test_parse_typed_messages():
    hello = parse(decode(encode(envelope("hello", "B00BCAFE", 4, 7) | {
        "fw": "1.0.0", "reader": "MFRC522", "acked": 4, "mode": "deal", "locked": False})))
    assert isinstance(hello, Hello) and hello.fw == "1.0.0" and hello.acked == 4
    card = parse(envelope("card", "B00BCAFE", 5, 9) | {"uid": "04A1B2C3D4E5F6", "draw": 2})
    assert isinstance(card, Card) and card.SEQUENCED and (card.seq, card.draw) == (5, 2)
    hb = parse(envelope("heartbeat", "B00BCAFE", 5, 9) | {"reads": 3, "retries": 1,
                                                          "future": 1})
    assert isinstance(hb, Heartbeat) and not hb.SEQUENCED and hb.retries == 1
    err = parse(envelope("error", "B00BCAFE", 9, 9) | {
        "code": "replay_unavailable", "detail": "", "from": 2, "oldest": 9})
    assert isinstance(err, Error) and err.extra == {"from": 2, "oldest": 9}


_B = "B00BCAFE"
_CARD = {"uid": "04A1B2C3D4E5F6", "draw": 2}


@pytest.mark.parametrize("d", [
    envelope("teleport", _B, 1, 1),
    envelope("card", _B, 1, 1) | {"draw": "3"},
    envelope("card", _B, 1, 1) | {"draw": True},
    envelope("hello", _B, 1, 1) | {"locked": 1},
    # hostile values with a good CRC (issue 11, items 6 and 7): each is refused
    envelope("card", _B, 5, 1) | _CARD | {"uid": "04A1B2C3\u0000D4E5F6"},
    envelope("card", _B, 5, 1) | _CARD | {"uid": "04a1b2c3d4e5f6"},
    envelope("card", _B, 5, 1) | _CARD | {"uid": "04A1B2C3D4E5F"},
    envelope("card", _B, 5, 1) | _CARD | {"uid": ""},
    envelope("card", _B, 5, 1) | _CARD | {"draw": -3},
    envelope("card", _B, 5, 1) | _CARD | {"draw": 0},
    envelope("card", _B, 5, 1) | _CARD | {"draw": 6},
    envelope("card", _B, 0, 1) | _CARD,
    envelope("card", _B, -1, 1) | _CARD,
    envelope("card", _B, 2**31, 1) | _CARD,
    envelope("card", _B, 5, -1) | _CARD,
    envelope("card", "b00bcafe", 5, 1) | _CARD,
    envelope("card", "B00B\u202eAFE", 5, 1) | _CARD,
    envelope("card", _B, 5, 1) | _CARD | {"mode": "shuffle"},
    envelope("hello", _B, 10**12, 1) | {"acked": 10**12},
    envelope("hello", _B, 3, 1) | {"acked": 4},
    envelope("hello", _B, 3, 1) | {"fw": "1.0\u0000"},
    envelope("hello", _B, 3, 1) | {"reader": "\u202eMFRC522"},
    envelope("heartbeat", _B, 3, 1) | {"reads": -1},
    envelope("heartbeat", _B, 3, 1) | {"fault": "SPI\nerror"},
    envelope("unknown_tag", _B, 3, 1) | {"uid": "ZZ", "reason": "foreign"},
    envelope("unknown_tag", _B, 3, 1) | {"uid": "", "reason": "alien"},
    envelope("button", _B, 3, 1) | {"key": "EXPOSED\u0000"},
    envelope("error", _B, 3, 1) | {"code": "replay_unavailable", "from": 1, "oldest": 10**12},
    envelope("error", _B, 3, 1) | {"code": "replay_unavailable", "from": 1},
    envelope("error", _B, 3, 1) | {"code": "oops", "detail": "\u2066x" * 300},
    envelope("error", _B, 3, 1) | {"code": "Bad Code"},
])
def test_parse_rejects_bad_messages(d):
    with pytest.raises(ShoeMessageError) as exc:
        parse(d)
    assert isinstance(exc.value, ValueError)
    assert all(ch.isprintable() for ch in str(exc.value))  # the message is safe to show


def test_host_frames():
    f = decode(host_frame("replay", "HOST", 3, 40, dev="B00B", **{"from": 17}))
    assert (f["type"], f["from"], f["dev"], f["v"], f["seq"]) == ("replay", 17, "B00B", 1, 3)
    with pytest.raises(ShoeMessageError):
        host_frame("mode", "HOST", 1, 1, mode="shuffle")
    with pytest.raises(ShoeMessageError):
        host_frame("reboot", "HOST", 1, 1)


def test_example_frame_in_the_protocol_doc_is_valid():
    doc = (REPO / "docs" / "shoe-protocol.md").read_text()
    line = next(ln for ln in doc.splitlines() if ln.startswith('{"v":1'))
    msg = decode(line.encode())
    assert msg["type"] == "card" and msg["uid"] == "04A1B2C3D4E5F6"
