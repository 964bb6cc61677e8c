"""The TV and the seat displays of a simulated run, and the pictures it leaves behind.

:class:`ScreenRecorder` is what the simulator hands the service loop as its TV and seat
renderers.  It draws every changed frame with the real adapters (:class:`hardware.tv.TV`
on pygame-ce and :class:`hardware.seat_display.SeatDisplayBank` on luma's dummy device)
and writes PNGs to a folder:

* ``tv-0001-level-03.png``: the TV at every level change (and at the start);
* ``tv-0002-ruling-....png``: the TV at every new dealing ruling (the banner);
* ``tv-0003-bonus-wheel.png``: the TV when the bonus wheel has landed;
* ``tv-0004-winner.png``: the winner screen, once one player is left;
* ``seats/hand-0012-seat-3.png``: every seat's display at every showdown;
* ``index.txt``: one line per picture, saying what it shows.

The TV pictures are public (the TV never shows a card that is not face up).  A seat's
display shows that player's hole cards, folded or not: its pictures are private files
(mode 0600) in a private folder ``seats/`` (mode 0700).

With ``window=True`` a desk window (pygame) shows the TV with every seat's display in a row
beneath it, as the table would look from the dealer's chair; the pictures are still written
when a folder is given.  Closing the window stops the run.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

from engine.views import ScreenState, SeatDisplayView
from pi_app.screens.wheel import SPIN_SECONDS
from pi_app.service.devices import Devices

log = logging.getLogger("pokertable.screens")



class ScreenRecorder:
    """TV + seat displays for a simulated run; see the module docstring.

    Args:
        folder: where pictures go (created), or None for none.
        devices: the simulated table's devices (:func:`pi_app.service.devices.wire_devices`):
            their TV (None under the desk window) and seat displays draw the frames.
        size: the TV size, ``(1920, 1080)`` or ``(1280, 720)``.
        window: show the TV in a window when a display is present.
        players: seats with a display (1..players).
    """

    def __init__(self, folder: str | os.PathLike[str] | None, devices: Devices, *,
                 size: tuple[int, int] = (1280, 720), window: bool = False,
                 players: int = 10) -> None:
        from pi_app.screens import ScreenRenderer

        self.folder = Path(folder) if folder else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
        self.desk: DeskWindow | None = None
        self.devices = devices
        self.tv: Any = devices.tv
        self.displays: Any = devices.displays
        if window:  # the desk window owns pygame's display; the TV frame is drawn off-screen
            import pygame

            self.desk = DeskWindow(size, players)
            self.renderer = ScreenRenderer()
            self.surface = pygame.Surface(size)
        self.count = 0
        self._level: tuple[int, bool] | None = None
        self._rulings_saved: set[Any] = set()
        self._wheels_saved: set[float] = set()
        self._winner_saved = False
        self._showdown_saved: int | None = None
        self._pending_showdown: int | None = None
        self._showdown_seats: tuple[int, ...] = ()
        self.written: list[Path] = []
        self._continue_index()

    # ------------------------------------------------------------------ renderers
    def on_screen(self, state: ScreenState) -> None:
        """Draw the TV frame (the loop hands over only frames that look different); write a
        picture at a level change or a new ruling."""
        if self.desk is not None:
            self.renderer.render(self.surface, state)
            self.desk.show_tv(self.surface)
        else:
            self.devices.show_screen(state)
        clock = state.clock
        if clock is not None:
            level = (clock.level_number, clock.is_break)
            if level != self._level:
                self._level = level
                what = f"break-after-{clock.level_number}" if clock.is_break \
                    else f"level-{clock.level_number:02d}"
                notes = [n for n in clock.notices if "olor" in n or "up next" in n]
                said = f"break after level {clock.level_number}" if clock.is_break \
                    else f"level {clock.level_number}"
                self._save_tv(what, f"level change: {said}"
                              + "".join(f"; notice: {n}" for n in notes))
        r = state.ruling
        if r is not None:
            rid = getattr(r, "ruling_id", None) or (r.code, r.rule, r.words)
            if rid not in self._rulings_saved:
                self._rulings_saved.add(rid)
                slug = re.sub(r"[^a-z0-9]+", "-", r.code.lower()).strip("-")
                self._save_tv(f"ruling-{slug}", f"ruling {r.code} ({r.rule}), as the banner "
                                                f"first shows it ({r.status})")
        w = state.wheel
        if w is not None and w.started_at not in self._wheels_saved \
                and state.now - w.started_at >= SPIN_SECONDS:
            self._wheels_saved.add(w.started_at)
            self._save_tv("bonus-wheel", f"bonus wheel landed on {w.chosen}")
        if state.room is not None and state.room.finished and not self._winner_saved:
            self._winner_saved = True
            self._save_tv("winner", "winner screen: the winner, the places and the payouts; "
                                    "the clock stopped")
        table = state.table
        if table is not None and table.showdown and self._showdown_saved != table.hand_number:
            self._pending_showdown = table.hand_number
            self._showdown_seats = tuple(s.seat for s in table.seats
                                         if s.status not in ("out", "empty"))

    def on_seats(self, views: dict[int, SeatDisplayView]) -> None:
        """Draw the seat displays; at a showdown write every seat's picture once."""
        self.devices.show_seats(views)
        if self.desk is not None:
            self.desk.show_seats({s: d.image for s, d in self.displays.displays.items()})
        hand = self._pending_showdown
        if hand is not None and self.folder is not None:
            for seat, disp in sorted(self.displays.displays.items()):
                image = disp.image
                if image is None or seat not in self._showdown_seats:
                    continue
                path = self._seats_folder() / f"hand-{hand:04d}-seat-{seat}.png"
                _save_private(image.convert("RGB").resize((image.width * 2,
                                                           image.height * 2)), path)
                self._index(path, f"hand {hand} showdown: seat {seat} display (private)")
            self._showdown_saved = hand
        self._pending_showdown = None

    # ------------------------------------------------------------------ files
    def _continue_index(self) -> None:
        """A resumed run goes on numbering where the folder's index.txt stopped, and does not
        picture the level it was in again."""
        if self.folder is None or not (self.folder / "index.txt").is_file():
            return
        for line in (self.folder / "index.txt").read_text(encoding="utf-8").splitlines():
            name = line.split("\t", 1)[0]
            m = re.match(r"tv-(\d+)-(level-(\d+)|break-after-(\d+))?", name)
            if not m:
                continue
            self.count = max(self.count, int(m.group(1)))
            if m.group(3):
                self._level = (int(m.group(3)), False)
            elif m.group(4):
                self._level = (int(m.group(4)), True)

    def _save_tv(self, what: str, words: str) -> None:
        if self.folder is None:
            return
        self.count += 1
        path = self.folder / f"tv-{self.count:04d}-{what}.png"
        try:
            if self.tv is not None:
                self.tv.save_png(path)
            else:
                import pygame

                pygame.image.save(self.surface, str(path))
        except Exception as exc:  # noqa: BLE001 - a picture never stops the table
            log.warning("could not write %s: %s", path, exc)
            return
        self._index(path, words)

    def _seats_folder(self) -> Path:
        """``<folder>/seats``, mode 0700 (made if missing, tightened if wider)."""
        assert self.folder is not None
        seats = self.folder / "seats"
        seats.mkdir(mode=0o700, exist_ok=True)
        if seats.stat().st_mode & 0o077:
            os.chmod(seats, 0o700)
        return seats

    def _index(self, path: Path, words: str) -> None:
        self.written.append(path)
        assert self.folder is not None
        with open(self.folder / "index.txt", "a", encoding="utf-8") as f:
            f.write(f"{path.relative_to(self.folder)}\t{words}\n")

    def close(self) -> None:
        """Close the desk window (the devices are closed by their owner)."""
        if self.desk is not None:
            self.desk.close()


def _save_private(image: Any, path: Path) -> None:
    """Write ``image`` as a PNG readable by its owner only (0600 from the start)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "wb") as fh:
        image.save(fh, format="PNG")


class DeskWindow:
    """A window with the TV frame on top and the seat displays (128x64, drawn 2x) below.

    It uses pygame's display like the TV adapter does; under SDL's dummy driver it draws to
    an invisible surface, which is how the tests check it.
    """

    SCALE = 2
    GAP = 8

    def __init__(self, tv_size: tuple[int, int], players: int) -> None:
        import pygame

        pygame.display.init()
        self.tv_w, self.tv_h = tv_size
        self.players = players
        cell = 128 * self.SCALE + self.GAP
        per_row = max(1, (self.tv_w + self.GAP) // cell)
        rows = -(-players // per_row)
        self.per_row = per_row
        self.strip_h = rows * (64 * self.SCALE + 26) + self.GAP
        self.window = pygame.display.set_mode((self.tv_w, self.tv_h + self.strip_h))
        pygame.display.set_caption("Poker table (simulated): TV and seat displays")
        self.window.fill((12, 14, 20))
        self._font: Any = None  # a pygame Font, made on first use
        self.closed = False

    def _label(self, text: str):
        import pygame

        from pi_app.screens.theme import font_path  # the shipped DejaVu font

        if self._font is None:
            pygame.font.init()
            self._font = pygame.font.Font(str(font_path("bold")), 16)
        return self._font.render(text, True, (200, 200, 210))

    def show_tv(self, surface) -> None:
        import pygame

        if surface is None:
            return
        self.window.blit(surface, (0, 0))
        pygame.display.update(pygame.Rect(0, 0, self.tv_w, self.tv_h))
        self.pump()

    def show_seats(self, images: dict) -> None:
        import pygame

        cell_w = 128 * self.SCALE + self.GAP
        cell_h = 64 * self.SCALE + 26
        for i, seat in enumerate(sorted(images)):
            img = images[seat]
            x = self.GAP + (i % self.per_row) * cell_w
            y = self.tv_h + self.GAP + (i // self.per_row) * cell_h
            self.window.fill((12, 14, 20), (x, y, cell_w, cell_h))
            self.window.blit(self._label(f"Seat {seat}"), (x, y))
            if img is not None:
                rgb = img.convert("RGB").resize((128 * self.SCALE, 64 * self.SCALE))
                surf = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
                self.window.blit(surf, (x, y + 20))
        pygame.display.update(pygame.Rect(0, self.tv_h, self.tv_w, self.strip_h))
        self.pump()

    def pump(self) -> None:
        import pygame

        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                self.closed = True
        if self.closed:
            raise KeyboardInterrupt("the window was closed")

    def save_png(self, path) -> None:
        import pygame

        pygame.image.save(self.window, str(path))

    def close(self) -> None:
        import pygame

        pygame.display.quit()
