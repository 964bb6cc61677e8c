"""The pairing panel on the TV: a QR code of the console's pairing address and the short
pairing code, so the director can pair a phone without a password.

The service puts what to show into :attr:`engine.views.ScreenState.extra` with
:func:`with_pairing` (the keys :data:`PAIR_CODE` and :data:`PAIR_URL`); the renderer draws
the panel over any layout while both keys are present, under the ruling banner.  The QR
code is made by segno (ISO/IEC 18004, error correction level M, a quiet zone of 4 modules)
and drawn module by module into a cached surface, so a redraw only blits it.

Example (what the console's pairing does)::

    state = with_pairing(state, "K7QF-2M", "http://192.0.2.10:8765/console#pair=K7QF-2M")
    draw_screen(surface, state)
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import segno

from engine.views import ScreenState
from pi_app.screens.cache import BUDGETS, ByteLRU
from pi_app.screens.theme import ACCENT, MUTED, PANEL, TEXT, Canvas, surface_bytes

PAIR_CODE = "pair_code"  #: ``ScreenState.extra`` key: the short code, as typed on a phone
PAIR_URL = "pair_url"    #: ``ScreenState.extra`` key: ``http://HOST:PORT/console#pair=CODE``

QUIET_ZONE = 4  #: modules of white around the symbol (ISO/IEC 18004 asks for 4)
#: The panel in design pixels (1920x1080): x, y, width, height; right side of the TV.
PANEL_RECT = (1490, 110, 410, 740)
QR_SIDE = 350  #: design pixels of the QR symbol including its quiet zone

QR_DARK = (0, 0, 0)
QR_LIGHT = (255, 255, 255)


def with_pairing(state: ScreenState, code: str | None, url: str | None) -> ScreenState:
    """``state`` with the pairing panel on (``code`` and ``url`` given) or off (either None).

    Raises:
        ValueError: ``code`` or ``url`` empty, or ``url`` not an ``http://`` address.
    """
    extra = {k: v for k, v in state.extra.items() if k not in (PAIR_CODE, PAIR_URL)}
    if code is not None and url is not None:
        if not code.strip():
            raise ValueError("the pairing code is empty")
        if not url.startswith("http://"):
            raise ValueError(f"the pairing address must start with http://, got {url!r}")
        extra[PAIR_CODE], extra[PAIR_URL] = code, url
    return replace(state, extra=extra)


def pairing_of(state: ScreenState) -> tuple[str, str] | None:
    """``(code, url)`` when the pairing panel is on, else None."""
    code, url = state.extra.get(PAIR_CODE), state.extra.get(PAIR_URL)
    if code and url:
        return code, url
    return None


def qr_modules(url: str) -> list[list[bool]]:
    """The QR symbol of ``url`` as rows of modules (True = dark), quiet zone included.

    Raises:
        segno.DataOverflowError: ``url`` too long for a QR code.
    """
    qr = segno.make_qr(url, error="m")
    return [[bool(m) for m in row] for row in qr.matrix_iter(scale=1, border=QUIET_ZONE)]


#: rendered QR symbols, bounded by bytes (:mod:`pi_app.screens.cache`)
QR_SURFACES: ByteLRU[pygame.Surface] = ByteLRU(BUDGETS["qr"], surface_bytes)


def qr_surface(url: str, side: int) -> pygame.Surface:
    """The QR symbol of ``url`` as a ``side`` x ``side`` pixel surface (whole modules, centred
    on white: every module is the same size, so phones read it at any TV size); cached."""
    return QR_SURFACES.get((url, side), lambda: _qr_surface(url, side))


def _qr_surface(url: str, side: int) -> pygame.Surface:
    rows = qr_modules(url)
    n = len(rows)
    module = max(1, side // n)
    surf = pygame.Surface((side, side))
    surf.fill(QR_LIGHT)
    off = (side - module * n) // 2
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surf.fill(QR_DARK, (off + x * module, off + y * module, module, module))
    return surf


def draw_pairing(cv: Canvas, code: str, url: str) -> pygame.Rect:
    """Draw the pairing panel (design :data:`PANEL_RECT`) and return its real rect."""
    x, y, w, h = PANEL_RECT
    r = cv.rect(x, y, w, h)
    cv.panel(r, fill=PANEL, edge=ACCENT, radius=24, width=6)
    cv.text("DIRECTOR'S PHONE", "bold", 36, ACCENT, (x + w / 2, y + 24), "midtop",
            max_width=w - 40, minor=True)
    cv.text("scan to pair the console", "sans", 26, TEXT, (x + w / 2, y + 74), "midtop",
            max_width=w - 40, minor=True)
    qr = qr_surface(url, cv.px(QR_SIDE))
    qr_rect = qr.get_rect(midtop=cv.point(x + w / 2, y + 120))
    cv.surface.blit(qr, qr_rect)
    cv.text("or enter the code", "sans", 26, MUTED, (x + w / 2, y + 500), "midtop",
            max_width=w - 40, minor=True)
    cv.text(code, "bold", 80, TEXT, (x + w / 2, y + 540), "midtop", max_width=w - 40,
            minor=True)
    address = url.split("#", 1)[0]
    cv.text(address, "sans", 24, MUTED, (x + w / 2, y + h - 22), "midbottom",
            max_width=w - 40, minor=True)
    return r
