"""The TV: a renderer adapter over pygame-ce (the surface, the video driver, pacing, PNGs).

The screens themselves are drawn by a callback from :mod:`pi_app.screens`,
``draw(surface, screen_state)``, given a :class:`engine.views.ScreenState` (public data only).
This module owns everything around it:

* **Video driver** (:func:`choose_video_driver`): an explicit ``SDL_VIDEODRIVER`` wins (the
  tests set ``dummy``); a desktop session (``DISPLAY``/``WAYLAND_DISPLAY``) gets a window;
  on the Pi console, ``kmsdrm`` on the DRM card whose HDMI connector reports ``connected``
  in ``/sys/class/drm/card*-HDMI-*/status`` (a Pi 5 has several DRM cards, and SDL would
  otherwise take the first, which may have no display); with none of these, the ``dummy``
  driver (headless: frames still render and :meth:`TV.save_png` still works).
* **Sizes**: 1920x1080 or 1280x720 (:data:`SIZES`).
* **Pacing**: :meth:`TV.tick` calls :meth:`pygame.time.Clock.tick` with the configured frame
  rate (0 = unpaced, for headless simulation).
* **Frames**: :meth:`TV.render` draws every state it is handed; the loop hands over only
  the states that look different (:mod:`pi_app.service.changes`, the one place that
  decides).  A ``draw`` that returns the rectangles it changed (the screens' renderer,
  which redraws only what changed) gets only those updated on the display
  (``pygame.display.update(rects)``; none when it returns ``[]``); any other return value
  flips the whole frame.  :meth:`TV.invalidate` shows the last frame again, whole (window
  exposed, HDMI back).
* **PNG**: :meth:`TV.save_png` writes the current frame.
* **Failures**: a ``pygame.error`` while opening or flipping, or the HDMI connector going
  ``disconnected``, reports ``DeviceStatus(device="tv", online=False)``; drawing carries on
  into an off-screen surface (so screenshots still work) and the display is reopened with
  backoff.  Nothing here raises into the loop for a device failure.
* **A screen that raises** (a bug, or a value no check foresaw) never leaves the TV on a
  stale frame: :meth:`TV.render` counts it (``render_errors``), logs it (the traceback once
  per kind of failure) and draws :func:`draw_fallback`, a plain frame with fixed words;
  the next state is drawn by the screen again (whole: a ``draw`` with an ``invalidate()``
  method is told to forget the frame it drew before).
"""

from __future__ import annotations

import glob
import logging
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from engine.errors import InvalidInputError
from hardware.health import HasHealth, Health

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the service log
log = logging.getLogger(__name__)

SIZES = ((1920, 1080), (1280, 720))
DRIVERS = ("auto", "kmsdrm", "window", "dummy")
DEFAULT_FPS = 30
DEFAULT_RETRY_INITIAL = 2.0
DEFAULT_RETRY_MAX = 30.0
HDMI_CHECK_INTERVAL = 2.0

#: ``draw(surface, state)``: paints the frame; may return the list of rects it changed
Draw = Callable[[Any, Any], Any]


class TVConfigError(InvalidInputError):
    """A bad ``[tv]`` configuration (size, driver, frame rate)."""


@dataclass(frozen=True)
class DriverChoice:
    """The video driver decision.

    ``driver``: ``"kmsdrm"``, ``"window"`` (SDL picks x11/wayland), ``"dummy"`` or another
    SDL driver name given explicitly; ``env``: variables to set before ``pygame.display.init``;
    ``fullscreen``: open full screen; ``card``: the DRM card (``"card1"``) and ``connector``
    (``"HDMI-A-1"``) for kmsdrm; ``reason``: in plain words, for the log.
    """

    driver: str
    env: Mapping[str, str] = field(default_factory=dict)
    fullscreen: bool = False
    card: str | None = None
    connector: str | None = None
    reason: str = ""


_CONNECTOR = re.compile(r"^(card(\d+))-(HDMI-[A-Z]-\d+)$")


def find_hdmi_connected(drm_root: str = "/sys/class/drm") -> tuple[str, int, str] | None:
    """The first DRM card with a connected HDMI connector, as ``("card1", 1, "HDMI-A-1")``,
    scanning ``<drm_root>/card*-HDMI-*/status`` in card then connector order; None if none."""
    found = []
    for status_path in glob.glob(os.path.join(drm_root, "card*-HDMI-*", "status")):
        m = _CONNECTOR.match(os.path.basename(os.path.dirname(status_path)))
        if not m:
            continue
        try:
            with open(status_path, encoding="ascii") as fh:
                status = fh.read().strip()
        except OSError:
            continue
        if status == "connected":
            found.append((int(m.group(2)), m.group(3), m.group(1)))
    if not found:
        return None
    index, connector, card = min(found)
    return card, index, connector


def choose_video_driver(requested: str = "auto", environ: Mapping[str, str] | None = None,
                        drm_root: str = "/sys/class/drm") -> DriverChoice:
    """Decide the SDL video driver (see the module docstring for the order).

    Raises:
        TVConfigError: ``requested`` is not a known driver name.
    """
    env = os.environ if environ is None else environ
    req = (requested or "auto").strip().lower()
    if req not in DRIVERS:
        raise TVConfigError(f"tv driver {requested!r} is not one of {', '.join(DRIVERS)}")
    if req == "dummy":
        return DriverChoice("dummy", {"SDL_VIDEODRIVER": "dummy"}, reason="configured: dummy")
    if req == "auto" and env.get("SDL_VIDEODRIVER"):
        name = env["SDL_VIDEODRIVER"]
        return DriverChoice(name, {}, fullscreen=name == "kmsdrm",
                            reason=f"SDL_VIDEODRIVER={name} is set")
    desktop = env.get("WAYLAND_DISPLAY") or env.get("DISPLAY")
    if req == "window" or (req == "auto" and desktop):
        return DriverChoice("window", {}, reason=f"desktop session ({desktop or 'configured'})")
    hdmi = find_hdmi_connected(drm_root)
    if hdmi is not None:
        card, index, connector = hdmi
        return DriverChoice(
            "kmsdrm",
            {"SDL_VIDEODRIVER": "kmsdrm", "SDL_KMSDRM_DEVICE_INDEX": str(index)},
            fullscreen=True, card=card, connector=connector,
            reason=f"console; {card} {connector} is connected")
    if req == "kmsdrm":
        return DriverChoice("kmsdrm", {"SDL_VIDEODRIVER": "kmsdrm"}, fullscreen=True,
                            reason="configured: kmsdrm (no connected HDMI found)")
    return DriverChoice("dummy", {"SDL_VIDEODRIVER": "dummy"},
                        reason="no desktop and no connected HDMI: headless")


class TV(HasHealth):
    """The TV renderer.

    Args:
        draw: ``draw(surface, screen_state)``, paints the frame (from pi_app.screens); a
            list it returns names the rects it changed (only those reach the display).
        queue: where :class:`DeviceStatus` events go (``put(event)``), or None.
        size: ``(1920, 1080)`` or ``(1280, 720)``.
        fps: frame rate for :meth:`tick` (0 = unpaced).
        driver: ``"auto"``, ``"kmsdrm"``, ``"window"`` or ``"dummy"``.
        environ: environment to decide from (default ``os.environ``).
        drm_root: sysfs DRM directory (tests pass a fake one).
        clock: monotonic seconds (injectable), for the retry backoff.
        title: the window title.

    Raises:
        TVConfigError: a size, fps or driver outside the supported ones.
    """

    def __init__(self, draw: Draw, queue: Any = None, *, size: tuple[int, int] = (1920, 1080),
                 fps: int = DEFAULT_FPS, driver: str = "auto",
                 environ: Mapping[str, str] | None = None, drm_root: str = "/sys/class/drm",
                 clock: Callable[[], float] = time.monotonic,
                 retry_initial: float = DEFAULT_RETRY_INITIAL,
                 retry_max: float = DEFAULT_RETRY_MAX, title: str = "Poker table") -> None:
        size = (int(size[0]), int(size[1]))
        if size not in SIZES:
            raise TVConfigError(f"tv size {size[0]}x{size[1]} is not one of "
                                + ", ".join(f"{w}x{h}" for w, h in SIZES))
        if not isinstance(fps, int) or fps < 0:
            raise TVConfigError(f"tv fps must be an integer >= 0, got {fps!r}")
        self.draw = draw
        self.size = size
        self.fps = fps
        self.choice = choose_video_driver(driver, environ, drm_root)
        self.drm_root = drm_root
        self.title = title
        self._clock = clock
        self.health = Health("tv", queue, retry_initial=retry_initial, retry_max=retry_max,
                             online=False)
        self.surface: Any = None
        self._display = False          # surface is the display surface
        self._last_state: Any = None
        self._hdmi_next = 0.0
        self._pg_clock: Any = None
        self.frames_drawn = 0
        self.render_errors = 0
        self._errors_logged: set[str] = set()
        self.quit_requested = False
        self._closed = False

    # --- lifecycle -----------------------------------------------------------------------
    def open(self, now: float | None = None) -> bool:
        """Initialise pygame's display and open the screen; True when the real display is
        up.  On failure reports offline and draws off-screen until a retry succeeds."""
        import pygame

        now = self._clock() if now is None else now
        log.info("tv: %s", self.choice.reason)
        for name, value in self.choice.env.items():
            os.environ[name] = value
        try:
            pygame.display.init()
            if self.choice.fullscreen:
                try:
                    surface = pygame.display.set_mode(self.size, pygame.FULLSCREEN | pygame.SCALED)
                except pygame.error:
                    surface = pygame.display.set_mode(self.size, pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)
            elif self.choice.driver == "window":
                # SCALED: the frame keeps its logical size whatever the window's size, so a
                # 1920x1080 table fits a laptop screen when the window is made smaller.
                try:
                    surface = pygame.display.set_mode(self.size, pygame.SCALED | pygame.RESIZABLE)
                except pygame.error:
                    surface = pygame.display.set_mode(self.size)
            else:
                surface = pygame.display.set_mode(self.size)
            pygame.display.set_caption(self.title)
        except pygame.error as exc:
            self._offline(now, f"cannot open the {self.choice.driver} display: {exc}")
            return False
        self.surface = surface
        self._display = True
        self._pg_clock = pygame.time.Clock()
        self.health.works(now, f"{self.choice.driver} display open")
        return True

    def _offline(self, now: float, reason: str) -> None:
        import pygame

        self.health.failed(now, reason)
        self._display = False
        if self.surface is None or self.surface.get_size() != self.size or \
                self._surface_is_display():
            self.surface = pygame.Surface(self.size)
        if self._pg_clock is None:
            self._pg_clock = pygame.time.Clock()

    def _surface_is_display(self) -> bool:
        import pygame

        try:
            return pygame.display.get_init() and self.surface is pygame.display.get_surface()
        except pygame.error:
            return False

    def close(self) -> None:
        """Close the display (pygame's display subsystem only: the mixer stays).  Idempotent."""
        import pygame

        if self._closed:
            return
        self._closed = True
        self._display = False
        self.surface = None
        try:
            pygame.display.quit()
        except pygame.error:  # pragma: no cover
            pass

    def __enter__(self) -> Self:
        if self.surface is None:
            self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- frames --------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Show the last frame again (the window was exposed, the HDMI came back)."""
        if self._last_state is not None and self.surface is not None:
            self._show(self._last_state, self._clock(), whole=True)

    def render(self, state: Any, now: float | None = None) -> bool:
        """Draw ``state``; True (the frame was drawn).

        While offline, retries the display after the backoff; the frame is drawn into the
        off-screen surface meanwhile.  A screen that raises is counted and logged, and the
        fallback frame is shown (:meth:`_draw`)."""
        now = self._clock() if now is None else now
        if self.surface is None or self.health.retry_due(now):
            self.open(now)
        self._check_hdmi(now)
        self._show(state, now)
        return True

    def _show(self, state: Any, now: float, whole: bool = False) -> None:
        """Draw ``state`` and put on the display what changed (``whole``: all of it)."""
        import pygame

        rects = self._draw(state)
        self._last_state = state
        self.frames_drawn += 1
        if self._display:
            try:
                if whole or rects is None:
                    pygame.display.flip()
                elif rects:
                    pygame.display.update(rects)
            except pygame.error as exc:
                self._offline(now, f"flip failed: {exc}")
                self._draw(state)  # keep the off-screen copy current

    def _draw(self, state: Any) -> list[Any] | None:
        """``draw`` the state; the rects it says it changed, or None for the whole frame.
        If it raises, count, log and draw the fallback frame (None)."""
        try:
            drawn = self.draw(self.surface, state)
            return list(drawn) if isinstance(drawn, list) else None
        except Exception as exc:  # noqa: BLE001 - a screen bug must not freeze the TV
            self.render_errors += 1
            kind = f"{type(exc).__name__}: {exc}"[:200]
            if kind not in self._errors_logged and len(self._errors_logged) < 32:
                self._errors_logged.add(kind)
                log.exception("tv: the screen could not be drawn (%d failures so far); "
                              "showing the fallback frame", self.render_errors)
            else:
                log.error("tv: the screen could not be drawn (%d failures so far): %s",
                          self.render_errors, kind)
            draw_fallback(self.surface)
            forget = getattr(self.draw, "invalidate", None)
            if callable(forget):  # the next frame is drawn whole, not over the fallback
                forget()
            return None

    def pump(self) -> list[Any]:
        """Handle window events (close button, expose); returns them for the caller.
        Sets :attr:`quit_requested` when the window is closed."""
        import pygame

        if not self._display:
            return []
        try:
            events = pygame.event.get()
        except pygame.error:
            return []
        for ev in events:
            if ev.type == pygame.QUIT:
                self.quit_requested = True
            elif ev.type in (pygame.VIDEOEXPOSE, getattr(pygame, "WINDOWEXPOSED", -1)):
                self.invalidate()
        return events

    def tick(self) -> int:
        """Pace the frame with :meth:`pygame.time.Clock.tick` (``fps``; 0 = no wait);
        returns the milliseconds since the previous tick."""
        import pygame

        if self._pg_clock is None:
            self._pg_clock = pygame.time.Clock()
        return int(self._pg_clock.tick(self.fps) if self.fps else self._pg_clock.tick())

    def frame(self, state: Any, now: float | None = None) -> bool:
        """One loop iteration: :meth:`pump`, :meth:`render`, :meth:`tick`."""
        self.pump()
        drawn = self.render(state, now)
        self.tick()
        return drawn

    def save_png(self, path: str | os.PathLike[str]) -> str:
        """Write the current frame as a PNG at ``path`` (directories created); returns it.

        Raises:
            TVConfigError: no frame drawn yet.
        """
        import pygame

        if self.surface is None:
            raise TVConfigError("no TV frame yet: render a state before saving a PNG")
        path = os.fspath(path)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        pygame.image.save(self.surface, path)
        return path

    # --- HDMI hot-plug -------------------------------------------------------------------
    def _check_hdmi(self, now: float) -> None:
        if self.choice.driver != "kmsdrm" or self.choice.card is None or now < self._hdmi_next:
            return
        self._hdmi_next = now + HDMI_CHECK_INTERVAL
        status_path = os.path.join(self.drm_root, f"{self.choice.card}-{self.choice.connector}",
                                   "status")
        try:
            with open(status_path, encoding="ascii") as fh:
                connected = fh.read().strip() == "connected"
        except OSError:
            connected = False
        if not connected and self.online:
            self.health.failed(now, f"{self.choice.connector} disconnected")
        elif connected and not self.online and self._display:
            self.health.works(now, f"{self.choice.connector} connected")
            self.invalidate()


FALLBACK_LINES = ("The TV picture could not be drawn.",
                  "The table carries on: see the service log.")


def draw_fallback(surface: Any) -> None:
    """A plain dark frame with :data:`FALLBACK_LINES` in pygame's default font (fixed
    words only: nothing from the table state).  Never raises: if even the text fails,
    the dark background stays."""
    import pygame

    surface.fill((10, 14, 22))
    try:
        if not pygame.font.get_init():
            pygame.font.init()
        w, h = surface.get_size()
        font = pygame.font.Font(None, max(24, h // 16))
        for i, line in enumerate(FALLBACK_LINES):
            img = font.render(line, True, (236, 240, 246))
            surface.blit(img, img.get_rect(center=(w // 2, h // 2 + (i - 0.5) * h // 12)))
    except Exception:  # noqa: BLE001 - the background alone is the last resort
        log.exception("tv: the fallback frame's words could not be drawn")


@dataclass(frozen=True)
class TVSettings:
    """The ``[tv]`` settings a :class:`TV` is built from: ``size`` in pixels (one of
    :data:`SIZES`), ``fps`` (frames per second, 0 = unpaced) and the video ``driver``
    (one of :data:`DRIVERS`)."""

    size: tuple[int, int] = (1920, 1080)
    fps: int = DEFAULT_FPS
    driver: str = "auto"

    @classmethod
    def from_mapping(cls, cfg: Mapping[str, Any] | None) -> TVSettings:
        """From a ``[tv]`` table: ``size`` (``"1920x1080"`` or ``[1920, 1080]``), ``fps``,
        ``driver``.

        Raises:
            TVConfigError: a size that is not ``WIDTHxHEIGHT``.
        """
        cfg = dict(cfg or {})
        size = cfg.get("size", "1920x1080")
        if isinstance(size, str):
            try:
                w, h = (int(x) for x in size.lower().split("x"))
            except ValueError:
                raise TVConfigError(f"tv size {size!r}: expected e.g. '1920x1080'") from None
            size = (w, h)
        return cls(size=(int(size[0]), int(size[1])), fps=int(cfg.get("fps", DEFAULT_FPS)),
                   driver=str(cfg.get("driver", "auto")))

    def make(self, draw: Draw, queue: Any = None, **kw: Any) -> TV:
        """The :class:`TV` of these settings (not opened).

        Raises:
            TVConfigError: a size, fps or driver outside the supported ones.
        """
        return TV(draw, queue, size=self.size, fps=self.fps, driver=self.driver, **kw)


def tv_from_config(cfg: Mapping[str, Any] | None, draw: Draw, queue: Any = None, **kw: Any) -> TV:
    """A :class:`TV` from the ``[tv]`` config table (see :meth:`TVSettings.from_mapping`)."""
    return TVSettings.from_mapping(cfg).make(draw, queue, **kw)
