"""Debounce of the shoe-mounted exposed-card key over timestamps (pure).

The key is sampled every loop pass; a level must hold for ``stable_ms`` before it is
believed, and a press is reported once, on the debounced released->pressed edge.
"""

from .presence import ticks_diff


class KeyDebounce:
    """``update(now_ms, pressed) -> bool``: True exactly once per debounced press."""

    def __init__(self, stable_ms=30):
        self.stable_ms = stable_ms
        self._level = False       # debounced level
        self._raw = False
        self._since = None

    def update(self, now_ms, pressed):
        pressed = bool(pressed)
        if pressed != self._raw:
            self._raw = pressed
            self._since = now_ms
            return False
        if pressed == self._level or self._since is None:
            return False
        if ticks_diff(now_ms, self._since) >= self.stable_ms:
            self._level = pressed
            return pressed
        return False
