"""The pairing panel on the TV: the QR code drawn is segno's symbol of the pairing address,
module for module; the code is shown; the panel survives the clock's partial redraws."""

from dataclasses import replace

import pygame
import pytest
import segno

from engine.views import ScreenState
from pi_app.screens import ScreenRenderer, draw_screen
from pi_app.screens.pairing import (
    PAIR_CODE,
    PAIR_URL,
    QR_DARK,
    QR_LIGHT,
    pairing_of,
    qr_modules,
    qr_surface,
    with_pairing,
)
from pi_app.screens.samples import CLOCK, table_preflop

URL = "http://127.0.0.1:8765/console#pair=AB12-CD"


def test_modules_are_segnos_symbol_with_its_quiet_zone():
    rows = qr_modules(URL)
    matrix = segno.make_qr(URL, error="m").matrix
    assert len(rows) == len(matrix) + 8 and all(len(r) == len(rows) for r in rows)
    assert not any(rows[0]) and not any(r[0] for r in rows)  # quiet zone is light
    inner = [row[4:-4] for row in rows[4:-4]]
    assert inner == [[bool(m) for m in row] for row in matrix]
    assert qr_modules(URL) != qr_modules(URL.replace("AB12", "ZZ99"))


@pytest.mark.parametrize("side", [350, 233, 97])
def test_surface_draws_every_module_at_the_same_size(side):
    rows = qr_modules(URL)
    surf = qr_surface(URL, side)
    n = len(rows)
    module = side // n
    off = (side - module * n) // 2
    for y in range(n):
        for x in range(n):
            centre = (off + x * module + module // 2, off + y * module + module // 2)
            want = QR_DARK if rows[y][x] else QR_LIGHT
            assert tuple(surf.get_at(centre))[:3] == want, (x, y)


def test_with_pairing_sets_and_clears_only_its_keys():
    st = ScreenState(clock=CLOCK, layout="clock", extra={"other": "kept"})
    on = with_pairing(st, "AB12-CD", URL)
    assert pairing_of(on) == ("AB12-CD", URL) and on.extra["other"] == "kept"
    off = with_pairing(on, None, None)
    assert pairing_of(off) is None and off.extra == {"other": "kept"}
    assert pairing_of(st) is None


@pytest.mark.parametrize("code,url", [("  ", URL), ("AB", "ftp://x/console#pair=AB"),
                                      ("AB", "javascript:alert(1)")])
def test_with_pairing_refuses_bad_values(code, url):
    with pytest.raises(ValueError):
        with_pairing(ScreenState(clock=CLOCK), code, url)


def _qr_found(surface: pygame.Surface) -> bool:
    """True when the QR symbol's pixels appear in ``surface`` where the panel puts it."""
    from pi_app.screens.pairing import PANEL_RECT, QR_SIDE
    from pi_app.screens.theme import Canvas
    cv = Canvas(surface)
    qr = qr_surface(URL, cv.px(QR_SIDE))
    x, y, w, _h = PANEL_RECT
    rect = qr.get_rect(midtop=cv.point(x + w / 2, y + 120))
    drawn = surface.subsurface(rect)
    return pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(qr, "RGB")


@pytest.mark.parametrize("layout,size", [("clock", (1920, 1080)), ("split", (1280, 720)),
                                         ("table", (1280, 720))])
def test_panel_is_drawn_over_every_layout(layout, size):
    st = ScreenState(clock=CLOCK, table=table_preflop(), layout=layout)
    surf = pygame.Surface(size)
    draw_screen(surf, st)
    assert not _qr_found(surf)
    draw_screen(surf, with_pairing(st, "AB12-CD", URL))
    assert _qr_found(surf)


def test_clock_tick_redraw_keeps_the_panel_on_top():
    st = with_pairing(ScreenState(clock=replace(CLOCK, remaining_seconds=2000.0),
                                  layout="clock"), "AB12-CD", URL)
    r = ScreenRenderer()
    surf = pygame.Surface((1920, 1080))
    r.render(surf, st)
    later = replace(st, clock=replace(st.clock, remaining_seconds=1999.0))
    rects = r.render(surf, later)
    assert r.stats["partial"] == 1 and len(rects) >= 2
    assert _qr_found(surf)
    whole = pygame.Surface((1920, 1080))
    draw_screen(whole, later)  # the partial redraw equals a full drawing of the new state
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(surf, "RGB")


def test_state_keys_are_the_documented_names():
    on = with_pairing(ScreenState(), "C0DE", URL)
    assert on.extra == {PAIR_CODE: "C0DE", PAIR_URL: URL}
