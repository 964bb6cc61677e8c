"""Bench checks for the real table hardware (docs/hardware.md, "Checklist on a real Pi").

Usage (on the Pi, as the service user, with the service stopped)::

    python -m hardware.check buttons [--seconds 60]   # prints every debounced key event
    python -m hardware.check displays [--out DIR]     # a test view on every seat display
    python -m hardware.check tv [--out FILE.png]      # a test frame on the TV for 5 s

Each uses the same configuration defaults as the service (real backends on a Pi, mocks
elsewhere, so the commands also run on a laptop).  Exit status 0 when every device answered,
1 when one was offline.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from pathlib import Path

from engine.cards import parse_cards
from engine.events import DeviceStatus
from engine.views import LegalActions, SeatDisplayView


def check_buttons(seconds: float, factory: str | None) -> int:
    from hardware.buttons import ButtonBank

    q: queue.Queue = queue.Queue()
    bank = ButtonBank(q, pin_factory=factory)
    bank.start_poller()
    print(f"pin factory: {type(bank.factory).__name__}; press keys for {seconds:g} s")
    offline = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                ev = q.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(ev, DeviceStatus) and not ev.online:
                offline += 1
            print(f"{ev.t:12.3f}  {ev}")
    finally:
        bank.close()
    return 1 if offline or bank.offline() else 0


def check_displays(out: Path | None, backend: str | None) -> int:
    from hardware.seat_display import SeatDisplayBank

    q: queue.Queue = queue.Queue()
    cfg = {"backend": backend} if backend else {}
    bank = SeatDisplayBank(cfg, q)
    legal = LegalActions(can_fold=True, can_call=True, call_amount=400, min_raise_to=1200,
                             max_raise_to=9800)
    views = {seat: SeatDisplayView(seat=seat, name=f"Seat {seat}", stack=10000 - seat,
                                   bet=200, to_call=400, hole_cards=tuple(parse_cards("AsKd")),
                                   is_turn=True, legal=legal, is_button=seat == 1)
             for seat in bank.displays}
    sent = bank.show(views)
    bank.flush()
    for seat, disp in bank.displays.items():
        state = "online" if disp.online else f"OFFLINE ({disp.reason})"
        print(f"display:{seat}  bus={disp.bus}  addr=0x{disp.address:02X}  {state}")
        if out is not None and disp.image is not None:
            out.mkdir(parents=True, exist_ok=True)
            disp.image.convert("L").resize((512, 256)).save(out / f"seat{seat}.png")
    print(f"{sent} frame(s) sent")
    bank.close()
    return 1 if bank.offline() else 0


def check_tv(out: Path | None, seconds: float) -> int:
    from hardware.tv import TV  # noqa: I001 - first: it hides pygame's import banner
    import pygame

    def draw(surface: pygame.Surface, state: int) -> None:
        w, h = surface.get_size()
        surface.fill((0, 60, 30))
        for i, colour in enumerate([(255, 255, 255), (220, 40, 40), (40, 200, 40),
                                    (40, 80, 230)]):
            pygame.draw.rect(surface, colour, (i * w // 4, h - h // 8, w // 4, h // 8))
        pygame.draw.rect(surface, (255, 255, 0), (0, 0, w, h), 8)  # the edges must be visible
        font = pygame.font.Font(None, h // 8)
        text = font.render(f"{w}x{h} frame {state}", True, (255, 255, 255))
        surface.blit(text, ((w - text.get_width()) // 2, (h - text.get_height()) // 2))

    pygame.font.init()
    q: queue.Queue = queue.Queue()
    tv = TV(draw, q)
    print(f"tv: {tv.choice.reason}")
    deadline = time.monotonic() + seconds
    frame = 0
    while time.monotonic() < deadline and not tv.quit_requested:
        tv.frame(frame // tv.fps if tv.fps else frame)
        frame += 1
    if out is not None:
        print("PNG:", tv.save_png(out))
    online = tv.online
    tv.close()
    while not q.empty():
        print(q.get_nowait())
    return 0 if online else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.check", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("buttons")
    b.add_argument("--seconds", type=float, default=60.0)
    b.add_argument("--pin-factory", default=None, help="mock, lgpio, ... (default: auto)")
    d = sub.add_parser("displays")
    d.add_argument("--out", type=Path, default=None, help="also write PNGs of the frames here")
    d.add_argument("--backend", default=None, help="mock or luma (default: auto)")
    t = sub.add_parser("tv")
    t.add_argument("--out", type=Path, default=None, help="write the last frame as a PNG")
    t.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args(argv)
    if args.what == "buttons":
        return check_buttons(args.seconds, args.pin_factory)
    if args.what == "displays":
        return check_displays(args.out, args.backend)
    return check_tv(args.out, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
