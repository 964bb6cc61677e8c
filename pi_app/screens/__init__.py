"""The TV screens (pygame-ce): clock, table, split layout, bonus wheel, ruling banner and
device status, drawn from the public views of :mod:`engine.views` only.

Public API::

    from pi_app.screens import draw_screen, ScreenRenderer
    draw_screen(surface, state)            # one whole frame, scaled from surface size
    r = ScreenRenderer(); rects = r.render(surface, state)   # redraws only what changed
    TV(draw=ScreenRenderer())              # hardware.tv wiring
    ViewChanges(screen_key)                # the loop's one change test (pi_app.service.changes)

Fonts are shipped in ``pi_app/screens/fonts`` (DejaVu, Bitstream Vera license).
"""

from pi_app.screens.render import LAYOUTS, Frame, draw_screen, render_frame
from pi_app.screens.renderer import ScreenRenderer, screen_key

__all__ = ["LAYOUTS", "Frame", "ScreenRenderer", "draw_screen", "render_frame", "screen_key"]
