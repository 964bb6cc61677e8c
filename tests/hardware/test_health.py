"""The one offline/back-off/status helper of the device adapters."""

from __future__ import annotations

import queue

from engine.events import DeviceStatus
from hardware.health import Health


def drain(q: queue.Queue) -> list[DeviceStatus]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_offline_once_then_back_with_doubling_backoff() -> None:
    q: queue.Queue = queue.Queue()
    h = Health("display:3", q, retry_initial=1.0, retry_max=4.0)
    h.failed(10.0, "errno 121")
    h.failed(11.0, "errno 121")   # the same failure again: not reported twice
    assert [(e.device, e.online, e.detail) for e in drain(q)] == [("display:3", False,
                                                                   "errno 121")]
    assert not h.online and h.failures == 2
    assert h.retry_at == 11.0 + 2.0          # 1 s, then 2 s
    h.failed(13.0, "errno 121")
    h.failed(17.0, "errno 121")
    assert h.retry_at == 17.0 + 4.0          # capped at retry_max
    assert not h.retry_due(20.9) and h.retry_due(21.0)
    assert h.works(21.0, "answers") is True
    back = drain(q)
    assert [(e.online, e.detail, e.t) for e in back] == [(True, "answers", 21.0)]
    assert h.online and h.reason == "" and h.backoff == 1.0


def test_a_new_reason_is_reported_and_working_devices_say_nothing() -> None:
    q: queue.Queue = queue.Queue()
    h = Health("button:2:fold", q)
    assert h.works(0.0, "pin open") is False and q.empty()
    h.failed(1.0, "pin unreadable")
    h.failed(2.0, "stuck pressed")
    assert [e.detail for e in drain(q)] == ["pin unreadable", "stuck pressed"]


def test_a_device_not_yet_opened_reports_its_first_failure() -> None:
    q: queue.Queue = queue.Queue()
    h = Health("tv", q, online=False)
    assert h.retry_due(0.0)
    h.failed(0.0, "no display")
    assert [e.online for e in drain(q)] == [False]
    h.works(5.0, "open")
    assert [e.online for e in drain(q)] == [True]


def test_without_a_queue_nothing_is_raised() -> None:
    h = Health("shoe")
    h.failed(0.0, "gone")
    assert not h.online and h.works(1.0, "back")
