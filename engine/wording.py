"""Reasons in words for the public screens: no raw identifier reaches the TV or a seat.

The engine records reasons in a compact form that its journal and tests read (a void
reason is ``"fouled_deck: TDA 35-E"``: the ruling's code, then the rule it cites; a house
knob is ``one_extra_card``).  A player reads words instead: :func:`words` turns every
identifier joined by underscores into words, :func:`void_message` gives the table's line
for a void hand and :func:`void_note` the shorter one that fits a seat's display (21
characters for every reason the engine gives).  Pure functions of their text.

>>> void_message("fouled_deck: TDA 35-E")
'Hand void: fouled deck (TDA 35-E)'
>>> void_note("fouled_deck: TDA 35-E")
'Void: fouled deck'
>>> words("House rule (gunpowder; one_extra_card, after RRoP)")
'House rule (gunpowder; one extra card, after RRoP)'
"""

from __future__ import annotations

import re

_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+|_+")


def _spoken(m: re.Match[str]) -> str:
    raw = m.group()
    text = " ".join(part for part in raw.split("_") if part)
    return text.lower() if raw.isupper() else text


def words(text: str) -> str:
    """``text`` with every identifier joined by underscores in words: ``FOULED_DECK`` ->
    ``fouled deck``, ``one_extra_card`` -> ``one extra card`` (an all-capitals one in
    lower case); a stray underscore becomes a space.  Never raises on a ``str``."""
    if "_" not in text:
        return text
    return _IDENTIFIER.sub(_spoken, text).replace("_", " ")


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and ``noun`` agreeing in number: ``counted(1, "returned card")`` ->
    ``"1 returned card"``, ``counted(2, "returned card")`` -> ``"2 returned cards"``
    (``plural``: the plural when it is not ``noun`` + "s").

    >>> counted(0, "card"), counted(3, "box", "boxes")
    ('0 cards', '3 boxes')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _split(reason: str) -> tuple[str, str]:
    """``"fouled_deck: TDA 35-E"`` -> ``("fouled deck", "TDA 35-E")`` (no rule: ``""``)."""
    what, _, rule = reason.partition(": ")
    return words(what.strip()), words(rule.strip())


def void_message(reason: str | None) -> str:
    """The table's line for a hand void for ``reason`` (a hand's ``void_reason``):
    ``"Hand void: fouled deck (TDA 35-E)"``; ``"Hand void"`` with no reason."""
    what, rule = _split(reason or "")
    if not what:
        return "Hand void"
    return f"Hand void: {what}" + (f" ({rule})" if rule else "")


def void_note(reason: str | None) -> str:
    """A seat display's line for a hand void for ``reason``: ``"Void: fouled deck"``
    (the rule is on the TV; the seat's row holds 21 characters)."""
    what, _ = _split(reason or "")
    return f"Void: {what}" if what else "Hand void"
