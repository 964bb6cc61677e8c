"""Text from outside: checked where it enters, made safe where it is drawn.

Two duties, one module (used by the shoe link, the configuration readers, the TV, the seat
displays and the command line):

* **At the entry** (:func:`check_uid`, :func:`check_text`): a value from a file, a frame or
  a request is refused with a typed error when it is not what it claims to be.  A card UID
  is upper-case hex of 8, 14 or 20 digits (4-, 7- or 10-byte UIDs, ISO/IEC 14443-3
  section 6.5.4); a name or a label holds no control character, no line or paragraph
  separator, no bidirectional override or isolate, no other format character (zero-width
  space, soft hyphen, byte-order mark: Unicode category Cf; a zero-width joiner or
  non-joiner is text only between two non-ASCII letters, as in Persian or Devanagari, RFC
  5892 appendix A.1-A.2), no blank-looking filler (Hangul fillers, the blank Braille
  pattern), no lone surrogate, and is not made only of invisible characters.
* **Names** (:func:`check_name_text`, :func:`name_key`): a player's name is stored in NFC
  and two names are the same player when their NFKC case folds are equal, so a full-width
  ``Ａlice`` is ``Alice`` and a decomposed ``Ma\\u0301ria`` is ``M\\u00e1ria`` (Unicode Standard
  Annex #15; "compatibility caseless match", The Unicode Standard section 3.13).
* **At the view** (:func:`safe_text`): whatever reaches a screen or a terminal line is
  made drawable whatever slipped past an entry check: controls become ``?``, invisible
  format characters (bidi controls, zero-width characters) are removed, and long text is
  elided with ``...``.  ``safe_text`` never raises on a ``str``.

>>> check_uid("04A1B2C3D4E5F6")
'04A1B2C3D4E5F6'
>>> is_uid("04a1b2c3d4e5f6"), is_uid("04A1\\x00B2C3D4E5F6"), is_uid("88041A2B")
(False, False, True)
>>> safe_text("Ann\\x00\\u202eyeh", 40)
'Ann?yeh'
>>> safe_text("x" * 30, 10)
'xxxxxxx...'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from engine.errors import InvalidInputError

UID_LENGTHS = (8, 14, 20)          # hex digits: 4-, 7- and 10-byte UIDs (ISO/IEC 14443-3)
_UID = re.compile(r"(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})")
ELLIPSIS = "..."
# Bidirectional embeddings, overrides and isolates, and the implicit marks (Unicode
# Standard Annex #9, "Explicit Directional Formatting Characters" and section 2.6).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                          "\u200e\u200f\u061c")
_BAD_CATEGORIES = frozenset(("Cc", "Zl", "Zp", "Cs"))  # controls, separators, surrogates
# Letters that draw as nothing: Hangul choseong/jungseong/half-width fillers, Hangul filler,
# the blank Braille pattern (Unicode 15 chapters 18.6 and 21.1).
BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner


class UidFormatError(InvalidInputError):
    """A card UID that is not upper-case hex of 8, 14 or 20 digits."""


class UnsafeTextError(InvalidInputError):
    """A name or label holding a control, bidi-override or only invisible characters."""


def is_uid(uid: object) -> bool:
    """Whether ``uid`` is a ``str`` of upper-case hex with 8, 14 or 20 digits."""
    return isinstance(uid, str) and _UID.fullmatch(uid) is not None


def check_uid(uid: object, what: str = "card UID") -> str:
    """``uid`` itself when :func:`is_uid`; ``what`` names it in the message.

    Raises:
        UidFormatError: anything else (the message shows the value escaped and cut short).
    """
    if not is_uid(uid):
        raise UidFormatError(f"{what} must be upper-case hex of 8, 14 or 20 digits, "
                             f"got {shown(uid)}")
    assert isinstance(uid, str)
    return uid


def unsafe_reason(text: str) -> str | None:
    """Why ``text`` may not enter as a name or label, or None when it may."""
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _BAD_CATEGORIES:
            return f"a control character U+{ord(ch):04X}"
        if ch in BIDI_CONTROLS:
            return f"a bidirectional control U+{ord(ch):04X}"
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf" and not _joins_letters(text, i):
            return f"an invisible format character U+{ord(ch):04X}"
        if ch in BLANK_FILLERS:
            return f"a blank filler character U+{ord(ch):04X}"
    if text and not any(_visible(ch) for ch in text):
        return "only invisible characters"
    return None


def _joins_letters(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a zero-width (non-)joiner between two non-ASCII letters or
    marks, where it shapes the script (RFC 5892 appendix A.1-A.2, simplified)."""
    if text[i] not in _JOINERS or i == 0 or i == len(text) - 1:
        return False
    return all(ord(c) > 0x7F and unicodedata.category(c)[0] in "LM"
               for c in (text[i - 1], text[i + 1]))


def check_text(value: object, what: str, *, max_len: int, allow_empty: bool = False) -> str:
    """``value`` itself when it is a ``str`` of at most ``max_len`` characters that
    :func:`unsafe_reason` accepts (and not empty unless ``allow_empty``).

    Raises:
        UnsafeTextError: naming ``what`` and the problem (the value shown escaped).
    """
    if not isinstance(value, str):
        raise UnsafeTextError(f"{what} must be text, got {shown(value)}")
    if not value and not allow_empty:
        raise UnsafeTextError(f"{what} must not be empty")
    if len(value) > max_len:
        raise UnsafeTextError(f"{what} must be at most {max_len} characters, "
                              f"got {len(value)}")
    why = unsafe_reason(value)
    if why is not None:
        raise UnsafeTextError(f"{what} must not hold {why}: {shown(value)}")
    return value


def check_name_text(value: object, what: str, *, max_len: int) -> str:
    """A player's name in NFC (Unicode Standard Annex #15) when :func:`check_text` accepts
    it and it has no space at either end.

    >>> check_name_text("Ma\\u0301ria", "player name", max_len=24) == "M\\u00e1ria"
    True

    Raises:
        UnsafeTextError: naming ``what`` and the problem (the value shown escaped).
    """
    if isinstance(value, str):
        value = unicodedata.normalize("NFC", value)
    name = check_text(value, what, max_len=max_len)
    if name != name.strip():
        raise UnsafeTextError(f"{what} {shown(name)} must not start or end with a space")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the NFKC case fold (Unicode "compatibility caseless
    match", The Unicode Standard section 3.13), so ``Ａlice`` and ``ALICE`` are ``alice``.

    >>> name_key("\\uff21lice") == name_key("ALICE") == "alice"
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def whole_number(error: type[InvalidInputError], lo: int, hi: int
                 ) -> Callable[[object, str], int]:
    """A check of a bounded field (a seat, a chip count, a sequence number) that returns
    the value when it is an ``int`` (not a ``bool``) in ``lo..hi``.

    The check raises ``error``, naming the field and the value seen (escaped, shortened).

    >>> whole_number(InvalidInputError, 1, 10)(4, "seat")
    4
    """
    def check(value: object, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise error(f"{where} must be a whole number {lo}..{hi}, got {shown(value)}")
        return value
    return check


def player_name(error: type[InvalidInputError], max_len: int
                ) -> Callable[[object, str], str]:
    """A check of a player's name in a message or an event: text :func:`check_text`
    accepts, at most ``max_len`` characters, without spaces at its ends, returned in NFC
    (:func:`check_name_text`); it raises ``error``.

    >>> player_name(InvalidInputError, 24)("Ann", "player")
    'Ann'
    """
    def check(value: object, where: str) -> str:
        try:
            return check_name_text(value, where, max_len=max_len)
        except UnsafeTextError as exc:
            raise error(str(exc)) from None
    return check


def one_of(error: type[InvalidInputError], choices: tuple[str, ...]
           ) -> Callable[[object, str], str]:
    """A check of a field that takes one of ``choices`` (a signal, a reason); it raises
    ``error``, naming the field, the choices and the value seen (escaped, shortened).

    >>> one_of(InvalidInputError, ("hold", "go"))("go", "signal")
    'go'
    """
    def check(value: object, where: str) -> str:
        if value not in choices:
            raise error(f"{where} must be one of {', '.join(choices)}, got {shown(value)}")
        return str(value)
    return check


def _visible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return not (cat.startswith("Z") or cat in ("Cc", "Cf", "Cs", "Mn", "Me"))


def safe_text(text: object, max_len: int = 200, *, latin1: bool = False) -> str:
    """``text`` made safe to draw: controls, separators and lone surrogates become ``?``,
    format characters (bidi controls, zero-width characters) are removed, text longer than
    ``max_len`` characters is cut to ``max_len`` with :data:`ELLIPSIS` at the end.
    ``latin1``: characters outside Latin-1 also become ``?`` (bitmap fonts).
    A non-``str`` is shown as its ``str()``.  Never raises.
    """
    if not isinstance(text, str):
        try:
            text = str(text)
        except Exception:  # noqa: BLE001 - a view must never fail on a value
            text = "?"
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cf":
            continue
        if cat in _BAD_CATEGORIES or (latin1 and ord(ch) > 0xFF):
            out.append("?")
        else:
            out.append(ch)
    clean = "".join(out)
    if len(clean) > max_len:
        keep = max(0, max_len - len(ELLIPSIS))
        clean = clean[:keep] + ELLIPSIS[: max_len - keep]
    return clean


def shown(value: object, limit: int = 40) -> str:
    """``value`` for an error message: ``ascii(repr)``-escaped (so no control or bidi
    character reaches a terminal) and cut to about ``limit`` characters."""
    try:
        text = ascii(value)
    except (ValueError, RecursionError):  # a huge int, a deeply nested structure
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
