"""What the venue's console asks of the director's loop: an entry, the start, a pause or
resume of the clock.

The console runs on its own threads (uvicorn's); the director's state changes only on its
loop.  A request goes on the loop's queue and the console waits for the loop's answer
(a :class:`concurrent.futures.Future`): the result, or the error that refused it (a
:class:`engine.errors.PokerTableError`, shown to the operator in one line).

>>> e = Entry("Ann")
>>> e.answer(lambda name: (name, 5000), e.name)
>>> e.wait(1.0)
('Ann', 5000)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalActionError, PokerTableError


class ClockRefused(IllegalActionError):
    """A pause or resume the director's clock cannot take now (paused already, not
    paused, not started, the night over)."""


@dataclass
class Request:
    """A request answered by the loop."""

    future: Future[Any] = field(default_factory=Future, init=False, repr=False)

    def answer(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` (on the loop) and give its result, or the error that refused
        the request, to the one waiting."""
        try:
            self.future.set_result(fn(*args))
        except PokerTableError as exc:
            self.future.set_exception(exc)

    def wait(self, timeout: float) -> Any:
        """The loop's answer (raises the error that refused the request; TimeoutError
        when the loop has not answered within ``timeout`` seconds)."""
        return self.future.result(timeout)


@dataclass
class Entry(Request):
    """Enter ``name``: registered before the start, a late entry after it."""

    name: str = ""


@dataclass
class Start(Request):
    """Start the tournament: draw the seats of everyone registered."""


@dataclass
class ClockRequest(Request):
    """Pause the director's clock (``pause`` True) or resume it; answered with the
    clock's ``{"running", "remaining_ms"}``."""

    pause: bool = True
