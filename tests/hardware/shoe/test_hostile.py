"""Frames with a good CRC and impossible numbers (issue 11, items 6 and 7).

Each input here once made the host client drop cards without a word or grow without
bound.  Now an impossible value takes the shoe offline with one clear notice; nothing after
it is taken from that power-up until the shoe restarts.
"""

from __future__ import annotations

import queue

import pytest

from engine.events import CardDrawn, DeviceStatus, ShoeStatus
from hardware.shoe.client import PENDING_MAX, ShoeClient
from hardware.shoe.guard import CHURN_MAX, RETIRED_MAX
from tests.hardware.shoe.helpers import Harness, RawDevice, drain, wait_event, wait_until

UID_A = "04A1B2C3D4E5F6"
UID_B = "04112233445566"


@pytest.fixture
def h() -> Harness:
    h = Harness()
    h.hello()
    assert h.client.online
    return h


def _offline_notices(h: Harness) -> list[str]:
    return [e.reason for e in h.of(ShoeStatus) if not e.online]


def _impossible(h: Harness) -> str:
    notices = _offline_notices(h)
    assert notices, "no offline notice"
    assert "impossible frame" in notices[-1] and "replug" in notices[-1]
    assert all(ch.isprintable() for ch in notices[-1])
    return notices[-1]


def test_a_nul_in_a_card_uid_takes_the_shoe_offline(h):
    h.card(1, UID_A, 1)
    h.send("card", 2, uid="04A1B2C3\u0000D4E5F6", draw=2, mode="deal", locked=False)
    h.card(3, UID_B, 3)
    assert [e.uid for e in h.of(CardDrawn)] == [UID_A]
    assert "uid" in _impossible(h) and "after shoe frame 1 was taken" in _impossible(h)
    assert h.client.online is False and h.client.stats["violations"] == 1


def test_a_huge_acked_in_hello_is_refused(h):
    h.hello(seq=10**12, acked=10**12, boot="FEEDC0DE")
    assert "acked" in _impossible(h) or "seq" in _impossible(h)
    h.card(1, UID_A, 1)
    assert h.of(CardDrawn) == []   # refused loudly, not dropped as a duplicate


def test_an_acked_beyond_what_the_host_acknowledged_is_refused(h):
    h.card(1, UID_A, 1)
    h.hello(seq=500, acked=400)    # the same power-up claims acks this host never sent
    assert "acknowledged" in _impossible(h)


def test_a_new_power_up_that_claims_old_acks_cannot_swallow_cards(h):
    """A hello of a new boot at acked 2**31 - 2 is bounded; its later small seqs are not
    dropped as duplicates but refused."""
    h.hello(seq=2**31 - 1, acked=2**31 - 2, boot="FEEDC0DE")
    h.card(1, UID_A, 1, boot="FEEDC0DE")
    assert h.of(CardDrawn) == [] and h.client.stats["duplicates"] == 0
    assert "before frame" in _impossible(h)


def test_replay_unavailable_with_a_huge_oldest_is_refused(h):
    h.card(2, UID_B, 2)            # frame 1 missing: the client asks for a replay from 1
    assert any(f["type"] == "replay" and f["from"] == 1 for f in h.to_shoe)
    h.send("error", 2, code="replay_unavailable", detail="gone", **{"from": 1,
                                                                    "oldest": 10**12})
    assert "oldest" in _impossible(h)
    assert h.client.stats["lost"] == 0 and h.of(DeviceStatus) == []


def test_replay_unavailable_then_a_lost_frame_arriving_is_refused(h):
    h.card(3, UID_B, 3)
    h.send("error", 3, code="replay_unavailable", detail="gone", **{"from": 1, "oldest": 3})
    assert [e.draw for e in h.of(CardDrawn)] == [3] and h.client.stats["lost"] == 2
    assert any("could not be replayed" in e.detail for e in h.of(DeviceStatus))
    h.card(1, UID_A, 1)            # the shoe said 1 and 2 were gone
    assert "declared frames 1..2 lost" in _impossible(h)


def test_replay_unavailable_for_a_request_never_made_is_refused(h):
    h.send("error", 5, code="replay_unavailable", detail="gone", **{"from": 4, "oldest": 5})
    assert "never asked" in _impossible(h) and h.client.stats["lost"] == 0


@pytest.mark.parametrize("draw", [-3, 0])
def test_non_positive_draw_numbers_are_refused(h, draw):
    h.send("card", 1, uid=UID_A, draw=draw, mode="deal", locked=False)
    assert "draw" in _impossible(h) and h.of(CardDrawn) == []


def test_draw_numbers_go_up_by_the_frames_between(h):
    h.card(1, UID_A, 1)
    h.card(2, UID_B, 1)            # the same draw number again
    assert "draw 1 after draw 1" in _impossible(h)
    assert [e.draw for e in h.of(CardDrawn)] == [1]


def test_a_retransmission_with_other_content_is_refused(h):
    h.card(1, UID_A, 1)
    h.card(1, UID_A, 1)            # a true retransmission: a duplicate, fine
    assert h.client.stats["duplicates"] == 1 and h.client.online
    h.card(1, UID_B, 1)            # seq 1 again, another card
    assert "other content" in _impossible(h)


def test_after_an_impossible_frame_a_new_power_up_brings_the_shoe_back(h):
    h.send("card", 1, uid="nope", draw=1, mode="deal", locked=False)
    h.hello()                      # the same power-up: still not believed
    h.card(1, UID_A, 1)
    assert h.of(CardDrawn) == [] and not h.client.online
    assert h.client.stats["rejected"] == 2
    h.hello(boot="FEEDC0DE")       # re-plugged
    h.card(1, UID_A, 1, boot="FEEDC0DE")
    assert [e.uid for e in h.of(CardDrawn)] == [UID_A] and h.client.online


def test_boot_id_churn_is_rate_limited_and_memory_stays_bounded(h):
    for i in range(3000):
        h.hello(boot=f"{0x10000000 + i:08X}")
        h.clock.advance(0.001)
    statuses = h.of(ShoeStatus)
    # the first hello, then CHURN_MAX - 1 admitted restarts (offline + online each), then
    # one notice for the rest
    assert len(statuses) <= 1 + 2 * CHURN_MAX + 1, len(statuses)
    assert "restarted more than" in statuses[-1].reason
    assert h.client.stats["churn"] == 3000 - (CHURN_MAX - 1)
    assert h.client.guard.retired_count <= RETIRED_MAX
    h.clock.advance(61)            # settled: a restart is taken again
    h.hello(boot="FEEDC0DE")
    h.card(1, UID_A, 1, boot="FEEDC0DE")
    assert h.of(CardDrawn)[-1].uid == UID_A and h.client.online


def test_retired_boot_ids_are_bounded_over_a_long_night():
    h = Harness()
    for i in range(RETIRED_MAX * 3):
        h.hello(boot=f"{0x20000000 + i:08X}")
        h.clock.advance(3600)      # one restart an hour: never rate-limited
    assert h.client.guard.retired_count == RETIRED_MAX
    assert h.client.stats["churn"] == 0


def test_held_frames_are_bounded(h):
    for seq in range(2, 2 + PENDING_MAX * 2):
        h.card(seq, UID_A, seq)
    assert len(h.client._pending) == PENDING_MAX and h.client.online


def test_the_reader_thread_survives_a_hostile_shoe_on_a_pty():
    """The issue's inputs through a real pty and the reader thread: the client is alive
    afterwards and takes the cards of a new power-up."""
    raw, q = RawDevice(), queue.Queue()
    c = ShoeClient(raw.path, q, read_timeout=0.01).start()
    try:
        raw.wait_for_frame(lambda f: f["type"] == "ping")
        raw.hello()
        wait_event(q, lambda e: isinstance(e, ShoeStatus) and e.online)
        raw.hello(seq=10**12, acked=10**12, boot="FEEDC0DE")
        raw.send("card", 1, uid="04A1B2C3\u0000D4E5F6", draw=-1, mode="deal", locked=False)
        ev = wait_event(q, lambda e: isinstance(e, ShoeStatus) and not e.online)
        assert "impossible frame" in ev.reason
        for i in range(300):
            raw.hello(boot=f"{0x30000000 + i:08X}")
        wait_until(lambda: c.stats["churn"] >= 300 - CHURN_MAX)
        assert c._thread is not None and c._thread.is_alive()
        statuses = [e for e in drain(q) if isinstance(e, ShoeStatus)]
        assert len(statuses) <= 2 * CHURN_MAX + 1
    finally:
        c.stop()
        raw.close()
