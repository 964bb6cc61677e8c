"""Shoe host client throughput: frames per second parsed and verified.

Printed against the card rate a dealer can reach -- about 3 cards per second (a pitch every
third of a second is fast dealing; the number is the dealing speed the shoe must follow) -- as a ratio: how many
times faster than the fastest dealer the host keeps up.

Three figures, all measured in the same run:

* ``parse``: ``decode`` (CRC check + JSON) and ``parse`` (typed message) of card frames in a
  tight loop on one thread: the client's per-frame CPU cost;
* ``link``: cards delivered per second end to end -- simulated shoe (the firmware's own
  device logic) -> pty -> client reader thread -> ``CardDrawn`` on the queue, with acks
  going back -- no faults injected;
* ``link_faulty``: the same with 1% corrupt and 1% dropped frames (both directions);
* and, for the firmware's side, the pure-Python table CRC (what MicroPython runs) against
  the C ``binascii.crc_hqx`` the host uses, on the same frame bodies.

Run: ``.venv/bin/python bench/bench_shoe.py [--frames N] [--cards N] [--json]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.shoe import framing
from hardware.shoe.protocol import decode, encode, envelope, parse
from hardware.shoe.soak import run_soak

DEALER_CARDS_PER_S = 3.0


def card_lines(n: int) -> list[bytes]:
    return [encode(envelope("card", "1A2B3C4D", i, i * 7) |
                   {"uid": "04A1B2C3D4%04X" % (i & 0xFFFF), "draw": i, "mode": "deal",
                    "locked": False})
            for i in range(1, n + 1)]


def bench_parse(lines: list[bytes]) -> float:
    start = time.perf_counter()
    for line in lines:
        parse(decode(line))
    return len(lines) / (time.perf_counter() - start)


def bench_crc(bodies: list[bytes], fn) -> float:
    start = time.perf_counter()
    for b in bodies:
        fn(b)
    return len(bodies) / (time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=50000)
    ap.add_argument("--cards", type=int, default=10000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    lines = card_lines(args.frames)
    parse_fps = bench_parse(lines)
    bodies = [line[:-6] for line in lines[:10000]]
    crc_c = bench_crc(bodies, framing.crc16)
    crc_py = bench_crc(bodies, framing.crc16_table)
    clean = run_soak(args.cards, seed=1)
    faulty = run_soak(args.cards, corrupt=0.01, drop=0.01, seed=1)
    link_cps = clean["delivered"] / clean["seconds"]
    faulty_cps = faulty["delivered"] / faulty["seconds"]
    report = {
        "dealer_cards_per_s": DEALER_CARDS_PER_S,
        "parse_frames_per_s": round(parse_fps),
        "parse_vs_dealer": round(parse_fps / DEALER_CARDS_PER_S),
        "link_cards_per_s": round(link_cps),
        "link_vs_dealer": round(link_cps / DEALER_CARDS_PER_S),
        "link_faulty_cards_per_s": round(faulty_cps),
        "link_faulty_vs_dealer": round(faulty_cps / DEALER_CARDS_PER_S),
        "link_faulty_lost": faulty["lost"],
        "link_faulty_duplicates": faulty["duplicates"],
        "crc_c_per_s": round(crc_c),
        "crc_table_per_s": round(crc_py),
        "crc_c_vs_table": round(crc_c / crc_py, 1),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"dealer card rate                    : {DEALER_CARDS_PER_S:>10.0f} cards/s")
    print(f"parse + verify, one thread          : {parse_fps:>10.0f} frames/s "
          f"= {parse_fps / DEALER_CARDS_PER_S:,.0f} x dealer")
    print(f"end to end over a pty, clean        : {link_cps:>10.0f} cards/s "
          f"= {link_cps / DEALER_CARDS_PER_S:,.0f} x dealer")
    print(f"end to end, 1% corrupt + 1% dropped : {faulty_cps:>10.0f} cards/s "
          f"= {faulty_cps / DEALER_CARDS_PER_S:,.0f} x dealer "
          f"(lost {faulty['lost']}, duplicates {faulty['duplicates']})")
    print(f"CRC, binascii.crc_hqx (host)        : {crc_c:>10.0f} frames/s")
    print(f"CRC, table (firmware path)          : {crc_py:>10.0f} frames/s "
          f"(host C is {crc_c / crc_py:.1f} x faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
