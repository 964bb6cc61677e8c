"""Fuzz of the host client: a real shoe's frames in order, mixed with frames whose CRC is
good and whose fields are hostile (issue 11).

Whatever the mix: the client never raises; the cards delivered are exactly the first
cards the shoe sent in order (no extra card, none twice, none out of order, every UID
well formed); if any card sent in order was not delivered, the table was told (an offline
notice after the last card delivered); every container stays bounded; the status events
stay few.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import CardDrawn, ShoeStatus
from engine.text import is_uid
from firmware.shoe import framing
from hardware.shoe.client import PENDING_MAX
from hardware.shoe.guard import RETIRED_MAX, SEEN_MAX, SKIPS_MAX
from tests.hardware.shoe.helpers import Harness

BOOT = "0BADF00D"
DECK = [f"04{i:012X}" for i in range(1, 53)]

# Values no frame may carry in these fields (each is refused on its own).
HOSTILE_TEXT = ["", "04A1B2C3\u0000D4E5F6", "\u202e04A1B2C3D4E5F6", "\u200b", "04a1b2c3d4e5f6",
                "04A1B2C3D4E5F", "x" * 300, "\x1b[2J", "\ud800", "EXPOSED\n"]
HOSTILE_INT = [-1, -(2**63), 2**31, 10**12, 10**40]
HOSTILE_OTHER = [None, True, 1.5, [], {}, "7"]
TEMPLATES: dict[str, dict[str, Any]] = {
    "card": {"uid": DECK[0], "draw": 1, "mode": "deal", "locked": False},
    "unknown_tag": {"uid": "", "reason": "foreign"},
    "button": {"key": "exposed_card"},
    "hello": {"fw": "1.0.0", "reader": "TEST", "acked": 0, "mode": "deal", "locked": False},
    "heartbeat": {"reads": 0, "retries": 0, "bad": 0, "draws": 0, "acked": 0,
                  "mode": "deal", "locked": False},
    "error": {"code": "replay_unavailable", "detail": "", "from": 1, "oldest": 2},
}
# field -> hostile values that are impossible for it in every template that has it
FIELD_VALUES: dict[str, list[Any]] = {
    "uid": ["04A1B2C3\u0000D4E5F6", "\u202e04A1B2C3D4E5F6", "04a1b2c3d4e5f6", "ZZ", 7],
    "draw": [-1, 0, -(2**63), 10**12, "3", True],
    "acked": [10**12, 2**31, -1, None],
    "oldest": [10**12, 2**31, -5, "9"],
    "from": [10**12, -1, None],
    "mode": ["shuffle", "", None, "deal\u0000"],
    "reason": ["alien", None],
    "key": ["EXPOSED\n", "", 5],
    "fw": ["1.0\u0000", "\u202e", "x" * 40, 1],
    "detail": ["\u2066" * 3, "a\nb", "y" * 300],
    "reads": [-1, 10**40, "many"],
    "seq": HOSTILE_INT + HOSTILE_OTHER,
    "ms": [-1, 2**30, None],
    "boot": HOSTILE_TEXT + HOSTILE_OTHER,
    "type": ["teleport", "", None, "card\u0000"],
}


@st.composite
def hostile_spec(draw: st.DrawFn) -> tuple[str, str, int | None, str, Any]:
    """A frame template, its boot id, its seq (None: the next one the shoe would send),
    and the one field made hostile."""
    mtype = draw(st.sampled_from(sorted(TEMPLATES)))
    boot = draw(st.sampled_from([BOOT, BOOT, BOOT, "FEEDC0DE"]))
    seq = draw(st.sampled_from([None, None, None, 1, 2, 5, 40]))
    field = draw(st.sampled_from([f for f in FIELD_VALUES
                                  if f in TEMPLATES[mtype] or f in ("seq", "ms", "boot",
                                                                     "type")]))
    return mtype, boot, seq, field, draw(st.sampled_from(FIELD_VALUES[field]))


def hostile_frame(spec: tuple[str, str, int | None, str, Any], next_seq: int) -> bytes:
    """The frame of ``spec`` with a good CRC; a card's draw number is its seq, so only the
    hostile field is wrong."""
    mtype, boot, seq, field, value = spec
    seq = next_seq if seq is None else seq
    msg = framing.envelope(mtype, boot, seq, 1234)
    msg.update(TEMPLATES[mtype])
    if mtype == "card":
        msg["draw"] = seq
    if mtype == "error":
        msg["seq"] = max(seq, 2)
    msg[field] = value
    body = framing.dumps(msg)[: framing.MAX_LINE - 5]
    return body + b"\t" + framing.crc_hex(body) + b"\n"


STEP = st.one_of(
    st.just(("card", None)),
    st.tuples(st.just("hostile"), hostile_spec()),
    st.tuples(st.just("noise"), st.binary(max_size=80).map(lambda b: b + b"\n")),
    st.tuples(st.just("tick"), st.floats(0.0, 5.0)),
    st.tuples(st.just("restart"), st.integers(0x40000000, 0x4FFFFFFF)),
)


@settings(max_examples=250)
@given(st.lists(STEP, max_size=60))
def test_hostile_frames_never_lose_a_card_silently(steps):
    h = Harness()
    h.hello(boot=BOOT)
    sent: list[tuple[str, int]] = []
    ticks = restarts = 0
    for kind, arg in steps:
        if kind == "card":
            n = len(sent) + 1
            sent.append((DECK[(n - 1) % 52], n))
            h.card(n, *sent[-1], boot=BOOT)
        elif kind == "hostile":
            h.line(hostile_frame(arg, len(sent) + 1))
        elif kind == "noise":
            h.line(arg)
        elif kind == "tick":
            ticks += 1
            h.clock.advance(arg)
            h.line(b"")
        else:
            restarts += 1
            h.hello(boot=f"{arg:08X}")
    c = h.client
    cards = [(i, e) for i, e in enumerate(h.events) if isinstance(e, CardDrawn)]
    got = [(e.uid, e.draw) for _, e in cards]
    assert got == sent[: len(got)], "a card out of order, twice, or never sent"
    assert all(is_uid(uid) for uid, _ in got)
    if len(got) < len(sent):
        last = cards[-1][0] if cards else -1
        assert any(isinstance(e, ShoeStatus) and not e.online for e in h.events[last + 1:]), \
            "cards sent in order were dropped without a word"
    assert len(c._pending) <= PENDING_MAX
    sizes = c.guard.sizes()
    assert sizes["retired"] <= RETIRED_MAX and sizes["seen"] <= SEEN_MAX
    assert sizes["skips"] <= SKIPS_MAX
    statuses = [e for e in h.events if isinstance(e, ShoeStatus)]
    assert len(statuses) <= 3 + 2 * (ticks + restarts), [s.reason for s in statuses]
    assert all(s.reason.isprintable() for s in statuses)


SWEEP = [(mtype, field, value) for mtype in sorted(TEMPLATES) for field in FIELD_VALUES
         if field in TEMPLATES[mtype] or field in ("seq", "ms", "boot", "type")
         for value in FIELD_VALUES[field]]


def test_every_hostile_field_alone_is_refused_loudly():
    """Each hostile value of the fuzz, alone in a frame at the seq the shoe would send
    next, from the shoe in use: no card comes of it, the loop goes on, and the table is
    told (offline) unless the frame was line noise to the framing (a field the envelope
    needs)."""
    for mtype, field, value in SWEEP:
        h = Harness()
        h.hello(boot=BOOT)
        h.card(1, DECK[0], 1, boot=BOOT)
        h.line(hostile_frame((mtype, BOOT, None, field, value), 2))
        h.card(2, DECK[1], 2, boot=BOOT)
        got = [e.uid for e in h.events if isinstance(e, CardDrawn)]
        where = f"{mtype}.{field}={value!r}"
        assert got in ([DECK[0]], [DECK[0], DECK[1]]), where
        refused = h.client.stats["corrupt_rejected"] + h.client.stats["violations"]
        assert refused == 1, where
        if h.client.stats["violations"]:
            assert got == [DECK[0]] and h.client.online is False, where
