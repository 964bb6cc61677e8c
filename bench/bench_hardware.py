"""Hardware adapter benchmarks: button event latency and seat-display frame time.

Usage:
    python bench/bench_hardware.py            # default sizes (about 15 s)
    python bench/bench_hardware.py --quick    # fewer samples
    python bench/bench_hardware.py --json     # one JSON object on stdout

Buttons (gpiozero MockFactory, real time):
  * ``ours``: a finger's release edge (``MockPin.drive_high``) to the debounced
    ``SeatButton`` being taken off the queue, with the bank's poller thread (1 ms).  This
    includes the debounce wait by design (a release is certain only ``bounce_time`` after it),
    so the overhead above ``bounce_time`` is printed too.
  * ``peer``: a bare ``gpiozero.Button`` whose ``when_released`` puts a plain tuple on a
    queue (no debounce), measured the same way in the same run.
  * ``press()`` helper rate: simulated presses per second (edges through gpiozero, debounce,
    enqueue), what the simulator pays per bot action.

Seat display (128x64, luma):
  * ``ours``: :class:`hardware.seat_display.SeatDisplay` showing a changing view on luma's
    dummy device (render + send), and the same through luma's real ``ssd1306`` driver over a
    null bus (adds luma's page packing, the CPU part of an I2C frame).
  * ``peer``: luma's own ``canvas`` drawing five text lines with the default font on the
    dummy device, same run.
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import parse_cards
from engine.views import LegalActions, SeatDisplayView
from hardware.buttons import ButtonBank
from hardware.pins import PinMap
from hardware.seat_display import SeatDisplay
from hardware.seat_render import render_seat_view


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": pct(values, 50) * 1e3, "p90_ms": pct(values, 90) * 1e3,
            "p99_ms": pct(values, 99) * 1e3, "mean_ms": statistics.fmean(values) * 1e3}


def bench_buttons(n: int, bounce_time: float) -> dict[str, object]:
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory

    # ours: bank with poller thread
    q: queue.Queue = queue.Queue()
    bank = ButtonBank(q, PinMap(seats={1: {"fold": 5}}, dealer={}), "mock",
                      bounce_time=bounce_time, hold_time=1.0)
    bank.start_poller(0.001)
    pin = bank.mock_pin(1, "fold")
    ours = []
    for _ in range(n):
        pin.drive_low()
        time.sleep(bounce_time + 0.005)
        t0 = time.perf_counter()
        pin.drive_high()
        q.get(timeout=5)
        ours.append(time.perf_counter() - t0)
        time.sleep(0.002)
    bank.close()

    # peer: bare gpiozero Button, no debounce
    factory = MockFactory()
    pq: queue.Queue = queue.Queue()
    btn = Button(5, pin_factory=factory, bounce_time=None)
    btn.when_released = lambda d: pq.put(("fold", time.monotonic()))
    ppin = factory.pin(5)
    peer = []
    for _ in range(n):
        ppin.drive_low()
        t0 = time.perf_counter()
        ppin.drive_high()
        pq.get(timeout=5)
        peer.append(time.perf_counter() - t0)
    btn.close()

    # press() helper throughput (virtual time, no sleeping)
    clock = [1000.0]
    hq: queue.Queue = queue.Queue()
    helper = ButtonBank(hq, PinMap(seats={1: {"fold": 5, "check_call": 6, "bet_raise": 13}},
                                   dealer={}), "mock", clock=lambda: clock[0])
    m = n * 20
    t0 = time.perf_counter()
    for i in range(m):
        clock[0] += 0.5
        helper.press(1, ("fold", "check_call", "bet_raise")[i % 3])
    rate = m / (time.perf_counter() - t0)
    assert hq.qsize() == m, "press() lost events"
    helper.close()

    o, p = summary_ms(ours), summary_ms(peer)
    return {
        "bounce_time_ms": bounce_time * 1e3,
        "ours": o,
        "ours_overhead_p50_ms": o["p50_ms"] - bounce_time * 1e3,
        "ours_overhead_p99_ms": o["p99_ms"] - bounce_time * 1e3,
        "peer_bare_gpiozero": p,
        "ratio_p50_ours_over_peer": o["p50_ms"] / p["p50_ms"],
        "press_helper_per_s": rate,
    }


def seat_views() -> list[SeatDisplayView]:
    legal = LegalActions(can_fold=True, can_call=True, call_amount=400, min_raise_to=1200,
                             max_raise_to=12700)
    base = SeatDisplayView(seat=3, name="Ann", stack=12500, bet=200, to_call=400,
                           hole_cards=tuple(parse_cards("AsKd")), is_turn=True, legal=legal)
    views = []
    for i in range(64):  # the raise amount being chosen changes every frame
        views.append(replace(base, pending_raise_to=1200 + 800 * (i % 15) or None,
                             stack=12500 - i))
    return views


def bench_display(n: int) -> dict[str, object]:
    from luma.core.device import dummy
    from luma.core.interface.serial import i2c
    from luma.core.render import canvas
    from luma.oled.device import ssd1306

    views = seat_views()

    def timed(fn, count: int) -> list[float]:
        out = []
        for i in range(count):
            t0 = time.perf_counter()
            fn(i)
            out.append(time.perf_counter() - t0)
        return out

    render_only = timed(lambda i: render_seat_view(views[i % len(views)]), n)
    disp = SeatDisplay(3, backend="mock")
    ours_dummy = timed(lambda i: disp.show(views[i % len(views)]), n)

    class NullBus:
        def write_i2c_block_data(self, *a):
            pass

        def i2c_rdwr(self, *a):
            pass

        def close(self):
            pass

    real = SeatDisplay(3, backend="luma", device_factory=lambda: ssd1306(i2c(bus=NullBus())))
    ours_ssd1306 = timed(lambda i: real.show(views[i % len(views)]), n)

    device = dummy(width=128, height=64, mode="1")

    def peer_frame(i: int) -> None:
        with canvas(device) as draw:
            for row, text in enumerate(("3 ANN", f"{12500 - i:,}", "BET 200 CALL 400",
                                        "YOUR ACTION", "FOLD CALL 400 R1,200+")):
                draw.text((0, row * 12), text, fill="white")

    peer = timed(peer_frame, n)
    o, p = summary_ms(ours_dummy), summary_ms(peer)
    return {
        "render_only": summary_ms(render_only),
        "ours_dummy": o,
        "ours_ssd1306_null_bus": summary_ms(ours_ssd1306),
        "peer_luma_canvas_5_lines": p,
        "ratio_p50_ours_over_peer": o["p50_ms"] / p["p50_ms"],
        "frames_per_s_ours_dummy": 1e3 / o["mean_ms"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--bounce-ms", type=float, default=20.0)
    args = ap.parse_args(argv)
    n_buttons = 60 if args.quick else 300
    n_frames = 300 if args.quick else 2000
    result = {"buttons": bench_buttons(n_buttons, args.bounce_ms / 1e3),
              "seat_display": bench_display(n_frames)}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    b, d = result["buttons"], result["seat_display"]
    print(f"Button release -> event off the queue (MockFactory, {b['ours']['n']} presses, "
          f"bounce_time {b['bounce_time_ms']:.0f} ms)")
    for label, s in (("ours (debounced, poller 1 ms)", b["ours"]),
                     ("peer: bare gpiozero Button", b["peer_bare_gpiozero"])):
        print(f"  {label:34s} p50 {s['p50_ms']:8.3f} ms  p90 {s['p90_ms']:8.3f} ms  "
              f"p99 {s['p99_ms']:8.3f} ms")
    print(f"  ours above bounce_time: p50 {b['ours_overhead_p50_ms']:.3f} ms, "
          f"p99 {b['ours_overhead_p99_ms']:.3f} ms; ratio ours/peer p50 "
          f"{b['ratio_p50_ours_over_peer']:.1f}x (the debounce wait)")
    print(f"  press() simulation helper: {b['press_helper_per_s']:,.0f} presses/s")
    print(f"Seat display frame, 128x64 ({d['ours_dummy']['n']} frames, view changes each frame)")
    for label, s in (("render only (PIL)", d["render_only"]),
                     ("ours: render + luma dummy", d["ours_dummy"]),
                     ("ours: render + luma ssd1306/null bus", d["ours_ssd1306_null_bus"]),
                     ("peer: luma canvas, 5 text lines", d["peer_luma_canvas_5_lines"])):
        print(f"  {label:38s} p50 {s['p50_ms']:7.3f} ms  p99 {s['p99_ms']:7.3f} ms")
    print(f"  ratio ours/peer p50 {d['ratio_p50_ours_over_peer']:.2f}x; "
          f"{d['frames_per_s_ours_dummy']:,.0f} frames/s on the dummy device")
    return 0


if __name__ == "__main__":
    sys.exit(main())
