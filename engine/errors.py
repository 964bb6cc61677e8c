"""The exception hierarchy shared by every package of the project.

Every error a user can cause subclasses both :class:`PokerTableError` and the
matching builtin (as gpiozero does), so callers may catch either.  The CLI turns
any :class:`PokerTableError` into one line on stderr and exit status 2.

Each module defines its specific errors next to the code that raises them, always
deriving from one of the classes below.
"""

from __future__ import annotations


class PokerTableError(Exception):
    """Base class of every error raised deliberately by this project."""


class InvalidCardError(PokerTableError, ValueError):
    """A card or deck string could not be parsed (e.g. ``"1x"``)."""


class IllegalActionError(PokerTableError, ValueError):
    """An action that the rules do not allow now; the message says what is legal.

    Raising it never changes the state it was raised from.
    """


class InvalidInputError(PokerTableError, ValueError):
    """A malformed value (file, amount, script line) given by a user."""


class DeviceError(PokerTableError, OSError):
    """A hardware device failed or is unreachable."""
