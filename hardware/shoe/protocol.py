"""Shoe protocol messages on the host side (pure: no I/O, no threads, no clock).

The framing and CRC are **not** re-implemented here: they are imported from
:mod:`firmware.shoe.framing`, the module the RP2040 runs, so host and firmware share one
implementation (see docs/shoe-protocol.md).  This module adds typed dataclasses for the
messages and their conversion to and from frame dicts.

>>> crc16(b"123456789") == 0x29B1
True
>>> msg = parse(decode(encode(envelope("card", "1A2B3C4D", 7, 5000) | {"uid": "04A1B2C3D4E5F6", "draw": 3})))
>>> (type(msg).__name__, msg.seq, msg.uid, msg.draw)
('Card', 7, '04A1B2C3D4E5F6', 3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InvalidInputError
from engine.text import UnsafeTextError, check_text, is_uid, shown
from firmware.shoe.framing import (  # noqa: F401  (re-exported: the one framing implementation)
    MAX_LINE,
    PROTOCOL_VERSION,
    FrameError,
    LineSplitter,
    crc16,
    crc16_table,
    crc_hex,
    decode,
    encode,
    envelope,
)

MODES = ("deal", "register", "idle")
SEQ_MAX = 2**31 - 1      # highest sequence number, draw number or ack a frame may carry
MS_MAX = 2**30 - 1       # device ticks wrap at 2^30 (MicroPython ``time.ticks_ms``)
COUNTER_MAX = 2**53      # heartbeat counters
_BOOT = re.compile(r"[0-9A-F]{8}")
_WORD = re.compile(r"[a-z_]{1,32}")
_LABEL = re.compile(r"[ -~]{0,32}")  # firmware version, reader name: printable ASCII
DETAIL_MAX = 200         # characters of an error's or a fault's words


class ShoeMessageError(InvalidInputError):
    """A frame with a good CRC whose message is not one this host understands."""


# --- device -> host --------------------------------------------------------------------
@dataclass(frozen=True)
class DeviceMessage:
    """Fields every frame carries: protocol version ``v``, the device's random ``boot`` id,
    ``seq`` (sequenced frames: own number; status frames: last number assigned) and ``ms``
    (device ticks in milliseconds)."""

    v: int
    boot: str
    seq: int
    ms: int
    SEQUENCED = False


@dataclass(frozen=True)
class Hello(DeviceMessage):
    """Sent at power-up and in answer to ``ping``.  ``acked``: last seq the shoe had
    acknowledged, so a (re)started host resumes at ``acked + 1``."""

    fw: str = ""
    reader: str = ""
    acked: int = 0
    mode: str = "deal"
    locked: bool = False


@dataclass(frozen=True)
class Card(DeviceMessage):
    """A card tag left the shoe: full ``uid`` (upper-case hex) and ``draw`` counter."""

    uid: str = ""
    draw: int = 0
    mode: str = "deal"
    locked: bool = False
    SEQUENCED = True


@dataclass(frozen=True)
class UnknownTag(DeviceMessage):
    """A tag that is not a card tag (``reason``: ``foreign`` or ``truncated``) left the shoe."""

    uid: str = ""
    reason: str = ""
    SEQUENCED = True


@dataclass(frozen=True)
class Button(DeviceMessage):
    """The shoe-mounted key (``key == "exposed_card"``) was pressed."""

    key: str = "exposed_card"
    SEQUENCED = True


@dataclass(frozen=True)
class Heartbeat(DeviceMessage):
    """1 Hz status with the reader counters."""

    reads: int = 0
    retries: int = 0
    bad: int = 0
    draws: int = 0
    acked: int = 0
    mode: str = "deal"
    locked: bool = False
    fault: str = ""


@dataclass(frozen=True)
class Error(DeviceMessage):
    """A device-side problem: ``code`` (``reader_fault``, ``replay_unavailable``,
    ``bad_command``, ``version``) and ``detail``; ``extra`` holds other fields
    (``from``/``oldest`` for ``replay_unavailable``)."""

    code: str = ""
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


DEVICE_TYPES: dict[str, type[DeviceMessage]] = {
    "hello": Hello, "card": Card, "unknown_tag": UnknownTag, "button": Button,
    "heartbeat": Heartbeat, "error": Error,
}
DEVICE_NAMES = {cls: name for name, cls in DEVICE_TYPES.items()}
_FIELDS = {
    name: set(cls.__dataclass_fields__) - {"v", "boot", "seq", "ms"}
    for name, cls in DEVICE_TYPES.items()
}
_TYPES = {"fw": str, "reader": str, "acked": int, "mode": str, "locked": bool, "uid": str,
          "draw": int, "reason": str, "key": str, "reads": int, "retries": int, "bad": int,
          "draws": int, "fault": str, "code": str, "detail": str}


def parse(d: dict[str, Any]) -> DeviceMessage:
    """The typed message for a decoded device frame dict (as :func:`decode` returns).

    Unknown extra fields are ignored (a newer minor firmware may add some), except for
    ``error`` where they go to ``extra``.

    Raises:
        ShoeMessageError: unknown ``type``, a known field with the wrong JSON type, or a
            value out of its bounds (:func:`check_message`).
    """
    mtype = d.get("type")
    cls = DEVICE_TYPES.get(mtype) if isinstance(mtype, str) else None
    if cls is None or not isinstance(mtype, str):
        raise ShoeMessageError(f"unknown device message type {mtype!r}")
    kwargs: dict[str, Any] = {"v": d["v"], "boot": d["boot"], "seq": d["seq"], "ms": d["ms"]}
    extra = {}
    for key, value in d.items():
        if key in ("v", "boot", "seq", "ms", "type"):
            continue
        if key in _FIELDS[mtype]:
            want = _TYPES.get(key)
            ok = want is None or isinstance(value, want)
            if want is int and isinstance(value, bool):
                ok = False  # JSON true is not a number
            if not ok:
                raise ShoeMessageError(f"{mtype}: field {key!r} has the wrong type")
            kwargs[key] = value
        else:
            extra[key] = value
    if cls is Error:
        kwargs["extra"] = extra
    msg = cls(**kwargs)
    check_message(msg)
    return msg


def _bad(msg: DeviceMessage, name: str, value: Any, want: str) -> ShoeMessageError:
    kind = DEVICE_NAMES[type(msg)]
    return ShoeMessageError(f"{kind} frame: {name} must be {want}, got {shown(value, 30)}")


def _int_in(msg: DeviceMessage, name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise _bad(msg, name, value, f"{low}..{high}")


def check_message(msg: DeviceMessage) -> None:
    """Bounds of every field of a parsed device message, independent of the link state:
    ``boot`` 8 upper-case hex digits; ``seq`` 0..:data:`SEQ_MAX` (1.. for sequenced
    frames); ``ms`` 0..:data:`MS_MAX`; UIDs as :func:`engine.text.is_uid` (an
    ``unknown_tag`` may have ``""``); ``draw`` 1..``seq``; ``acked`` 0..``seq``; counters
    >= 0; modes, reasons, keys and codes from their lists or lower-case words; texts short
    and free of control characters (:func:`engine.text.check_text`).  The limits are those
    of docs/shoe-protocol.md and the firmware (``firmware/shoe/device.py``).

    Raises:
        ShoeMessageError: naming the frame type and the field.
    """
    if not isinstance(msg.boot, str) or not _BOOT.fullmatch(msg.boot):
        raise _bad(msg, "boot", msg.boot, "8 upper-case hex digits")
    _int_in(msg, "seq", msg.seq, 1 if msg.SEQUENCED else 0, SEQ_MAX)
    _int_in(msg, "ms", msg.ms, 0, MS_MAX)
    for name in ("mode",):
        value = getattr(msg, name, None)
        if value is not None and value not in MODES:
            raise _bad(msg, name, value, "one of " + ", ".join(MODES))
    if isinstance(msg, (Hello, Heartbeat)):
        _int_in(msg, "acked", msg.acked, 0, msg.seq)
    if isinstance(msg, Card):
        if not is_uid(msg.uid):
            raise _bad(msg, "uid", msg.uid, "upper-case hex of 8, 14 or 20 digits")
        _int_in(msg, "draw", msg.draw, 1, msg.seq)
    elif isinstance(msg, UnknownTag):
        if msg.uid and not is_uid(msg.uid):
            raise _bad(msg, "uid", msg.uid, "\"\" or upper-case hex of 8, 14 or 20 digits")
        if msg.reason not in ("foreign", "truncated"):
            raise _bad(msg, "reason", msg.reason, "foreign or truncated")
    elif isinstance(msg, Button) and not _WORD.fullmatch(msg.key):
        raise _bad(msg, "key", msg.key, "a lower-case word")
    elif isinstance(msg, Hello):
        for name in ("fw", "reader"):
            if not _LABEL.fullmatch(getattr(msg, name)):
                raise _bad(msg, name, getattr(msg, name), "printable ASCII, 32 at most")
    elif isinstance(msg, Heartbeat):
        for name in ("reads", "retries", "bad", "draws"):
            _int_in(msg, name, getattr(msg, name), 0, COUNTER_MAX)
        _text(msg, "fault", msg.fault)
    elif isinstance(msg, Error):
        _check_error(msg)


def _text(msg: DeviceMessage, name: str, value: str) -> None:
    try:
        check_text(value, name, max_len=DETAIL_MAX, allow_empty=True)
    except UnsafeTextError as exc:
        raise ShoeMessageError(f"{DEVICE_NAMES[type(msg)]} frame: {exc}") from None


def _check_error(msg: Error) -> None:
    if not _WORD.fullmatch(msg.code):
        raise _bad(msg, "code", msg.code, "a lower-case word")
    _text(msg, "detail", msg.detail)
    if msg.code == "replay_unavailable":
        for name in ("from", "oldest"):
            value = msg.extra.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise _bad(msg, name, value, "an integer")
            _int_in(msg, name, value, 1, msg.seq + 1)


# --- host -> device --------------------------------------------------------------------
def host_frame(mtype: str, boot: str, seq: int, ms: int, **fields: Any) -> bytes:
    """One host frame (bytes ending in LF).  ``boot`` is the host session's random id.

    ``ack`` and ``replay`` must name the device power-up they address in ``dev``.

    Raises:
        ShoeMessageError: unknown host message type or mode.
    """
    if mtype not in ("ack", "replay", "mode", "lock", "ping"):
        raise ShoeMessageError(f"unknown host message type {mtype!r}")
    if mtype == "mode" and fields.get("mode") not in MODES:
        raise ShoeMessageError(f"unknown shoe mode {fields.get('mode')!r}; expected one of "
                               + ", ".join(MODES))
    msg = envelope(mtype, boot, seq, ms)
    msg.update(fields)
    return encode(msg)
