"""Caches of the TV renderer, bounded by the bytes they hold, not by their number of entries.

A rendered text at the 1080p clock's size is about 1.5 MB; a cache of 2,048 such entries
would hold 3 GB, so every renderer cache counts bytes (:class:`ByteLRU`) and evicts the
least recently used entries past its budget.  The budgets are in :data:`BUDGETS` and
measured in ``bench/bench_night.py``.

>>> c = ByteLRU(100, size_of=len)
>>> len(c.get("a", lambda: b"x" * 60)), len(c.get("b", lambda: b"y" * 60))
(60, 60)
>>> len(c), c.bytes  # "a" was evicted: both would hold 120 bytes
(1, 60)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

#: bytes held at most by each renderer cache (text surfaces, countdown glyphs, fonts, the
#: pairing QR codes, whole-area layers and the parts of a frame: pi_app.screens.parts)
BUDGETS = {"text": 8 * 1024 * 1024, "glyphs": 8 * 1024 * 1024, "fonts": 16 * 1024 * 1024,
           "qr": 4 * 1024 * 1024, "layers": 12 * 1024 * 1024, "parts": 12 * 1024 * 1024}


class ByteLRU(Generic[V]):
    """A least-recently-used cache holding at most ``max_bytes`` (as counted by
    ``size_of(value)``).  A value larger than the whole budget is returned but not kept.

    Raises:
        ValueError: ``max_bytes`` below 0.
    """

    def __init__(self, max_bytes: int, size_of: Callable[[V], int]) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, got {max_bytes}")
        self.max_bytes = int(max_bytes)
        self._size_of = size_of
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value of ``key``, or ``make()`` (then kept while it fits)."""
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
            self.hits += 1
            return item[0]
        self.misses += 1
        value = make()
        size = int(self._size_of(value))
        if size > self.max_bytes:
            return value
        self._items[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _k, (_v, s) = self._items.popitem(last=False)
            self.bytes -= s
        return value

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def resize(self, max_bytes: int) -> None:
        """Change the budget, evicting what no longer fits."""
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, got {max_bytes}")
        self.max_bytes = int(max_bytes)
        while self.bytes > self.max_bytes:
            _k, (_v, s) = self._items.popitem(last=False)
            self.bytes -= s
