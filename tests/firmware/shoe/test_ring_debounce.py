"""Ring buffer of the last 128 frames, and the key debounce."""

from __future__ import annotations

import pytest

from firmware.shoe.debounce import KeyDebounce
from firmware.shoe.ring import RING_SIZE, FrameRing


def test_ring_keeps_the_last_128():
    r = FrameRing()
    assert RING_SIZE == 128 and r.oldest is None and r.since(1) == []
    for s in range(1, 301):
        r.put(s, b"f%d" % s)
    assert (len(r), r.oldest, r.newest) == (128, 173, 300)
    assert r.get(172) is None and r.get(173) == b"f173" and r.get(301) is None
    assert r.since(290) == [b"f%d" % s for s in range(290, 301)]
    assert r.since(1)[0] == b"f173" and len(r.since(1)) == 128


def test_ring_rejects_a_seq_gap():
    r = FrameRing(4)
    r.put(1, b"a")
    with pytest.raises(ValueError):
        r.put(3, b"c")


def test_key_debounce_one_press_per_bounce_burst():
    k = KeyDebounce(stable_ms=30)
    samples = [0, 1, 0, 1, 1, 0, 1] + [1] * 10 + [0, 1, 0] + [0] * 10 + [1] * 10
    presses = [t for t, s in enumerate(samples) if k.update(t * 5, s)]
    assert len(presses) == 2
