"""PHH hand histories written as TOML text: :func:`dumps_hand` (``.phh``) and
:func:`dumps_hands` (``.phhs``), the inverse of :func:`engine.history.phh.loads_hand` and
:func:`engine.history.phh.loads_hands`.  Amounts are written back in the file's units
(:func:`engine.history.phh.format_amount`); a public history hides every hole card not shown.

>>> from engine.history.phh import loads_hand
>>> h = loads_hand('''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 22.50]
... actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p1 f']
... ''')
>>> loads_hand(dumps_hand(h, public=False)) == h
True
>>> 'AsKs' in dumps_hand(h, public=True)     # p1 never showed: hidden in public
False
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from engine.history.phh import PhhError, PhhHand, format_amount

__all__ = ["dumps_hand", "dumps_hands", "dumps_private"]

#: a bare TOML key: ASCII letters, digits, ``_`` and ``-``
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
#: what a TOML literal string ('...') holds as it is: no quote, no control character but
#: tab (TOML 1.0: DEL is a control character too)
_LITERAL = re.compile(r"[^'\x00-\x08\x0a-\x1f\x7f]*")


def _toml_key(key: str) -> str:
    if _BARE_KEY.fullmatch(key):
        return key
    return _toml_string(key)


def _toml_string(s: str) -> str:
    if _LITERAL.fullmatch(s):
        return f"'{s}'"
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c < " " or c == "\x7f":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _toml_value(v: Any) -> str:
    if type(v) is str:  # the most of a history (its actions): no other test first
        return _toml_string(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Decimal):
        if v.is_infinite():
            return "inf" if v > 0 else "-inf"
        if v.is_nan():
            return "nan"
        s = str(v)
        return s if any(c in s for c in ".eE") else s + ".0"
    if isinstance(v, float):
        return "inf" if v == math.inf else "-inf" if v == -math.inf else repr(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        if v and all(type(x) is str for x in v) and _LITERAL.fullmatch("".join(v)):
            # strings with no quote or control character (one match for them all, as a
            # history's actions are): each a literal string, as _toml_string writes it
            return "['" + "', '".join(v) + "']"
        return "[" + ", ".join([_toml_value(x) for x in v]) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise PhhError(f"cannot write {type(v).__name__} value {v!r} to PHH")


class _Raw(str):
    """A pre-formatted TOML value."""


def _fields(h: PhhHand, actions: list[str] | None = None) -> dict[str, Any]:
    cpu = h.chips_per_unit

    def amounts(vals: Iterable[int | None]) -> _Raw:
        return _Raw("[" + ", ".join("inf" if v is None else format_amount(v, cpu)
                                    for v in vals) + "]")

    f: dict[str, Any] = {"variant": h.variant}
    if h.ante_trimming_status is not None:
        f["ante_trimming_status"] = h.ante_trimming_status
    f["antes"] = amounts(h.antes)
    f["blinds_or_straddles"] = amounts(h.blinds_or_straddles)
    f["min_bet"] = _Raw(format_amount(h.min_bet, cpu))
    f["starting_stacks"] = amounts(h.starting_stacks)
    f["actions"] = [a.format(cpu) for a in h.actions] if actions is None else actions
    if h.players is not None:
        f["players"] = list(h.players)
    if h.seats is not None:
        f["seats"] = list(h.seats)
    if h.winnings is not None:
        f["winnings"] = amounts(h.winnings)
    if h.finishing_stacks is not None:
        f["finishing_stacks"] = amounts(h.finishing_stacks)
    f.update(h.extra)
    order = [k for k in h.field_order if k in f] + [k for k in f if k not in h.field_order]
    return {k: f[k] for k in order}


def _body(h: PhhHand, actions: list[str] | None = None) -> list[str]:
    return [f"{_toml_key(k)} = {v if isinstance(v, _Raw) else _toml_value(v)}"
            for k, v in _fields(h, actions).items()]


def dumps_hand(hand: PhhHand, *, public: bool = True) -> str:
    """One hand as ``.phh`` text (fields at the top level), ending with a newline.

    ``public=True`` (the default) writes ``??`` for every hole card not shown at the
    table (see :meth:`PhhHand.public`); ``public=False`` writes all known cards.
    """
    h = hand.public() if public else hand
    return "\n".join(_body(h)) + "\n"


def dumps_private(hand: PhhHand, actions: list[str]) -> str:
    """``dumps_hand(hand, public=False)`` of ``hand`` with its actions given as their
    texts (each :meth:`PhhAction.format` of the file's units) instead of ``hand.actions``:
    a history written as a hand ends formats each action once, with no action object."""
    return "\n".join(_body(hand, actions)) + "\n"


def dumps_hands(hands: Iterable[PhhHand], *, public: bool = True) -> str:
    """Several hands as ``.phhs`` text: tables ``[label]`` (or ``[1]``, ``[2]``, ...
    for hands without a label), separated by a blank line, ending with a newline."""
    parts = []
    for i, hand in enumerate(hands, 1):
        h = hand.public() if public else hand
        label = h.label if h.label is not None else str(i)
        parts.append("\n".join([f"[{_toml_key(label)}]"] + _body(h)))
    return "\n\n".join(parts) + "\n"
