"""engine.text: text from outside checked at the entry, made safe at the view."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInputError, PokerTableError
from engine.text import (
    UidFormatError,
    UnsafeTextError,
    check_name_text,
    check_text,
    check_uid,
    is_uid,
    name_key,
    safe_text,
    shown,
)


@pytest.mark.parametrize("uid", ["04A1B2C3", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6A7B8C9"])
def test_uids_of_4_7_and_10_bytes_pass(uid):
    assert check_uid(uid) == uid and is_uid(uid)


@pytest.mark.parametrize("uid", ["", "04A1B2C3\u0000D4E5F6", "04a1b2c3d4e5f6", "04A1B2C3D4E5F",
                                 "04A1B2C3D4E5F6 ", "04:A1:B2:C3:D4:E5:F6", "\u202e04A1B2C3",
                                 "04A1B2C3D4E5F6AA", "０４Ａ１Ｂ２Ｃ３", None, 4, b"04A1B2C3"])
def test_anything_else_is_not_a_uid(uid):
    with pytest.raises(UidFormatError) as exc:
        check_uid(uid)
    assert isinstance(exc.value, ValueError) and isinstance(exc.value, PokerTableError)
    assert str(exc.value).isprintable()


@pytest.mark.parametrize("name", ["Ann", "José", "李小龍", "Zoë-Ann O'Neil", "🂡 Ace",
                                  "ناصر\u200cی"])   # a ZWNJ inside a Persian name is text
def test_names_in_any_script_pass(name):
    assert check_text(name, "name", max_len=24) == name


@pytest.mark.parametrize("name,why", [
    ("Ann\u0000", "control"), ("Ann\x1b[31m", "control"), ("A\nB", "control"),
    ("\u202eAnn", "bidirectional"), ("Ann\u2066x\u2069", "bidirectional"),
    ("\u200b\u200b", "invisible"), ("\u2028", "control"), ("\ud800", "control"),
    ("x" * 25, "at most 24"), ("", "empty"), (7, "text"),
])
def test_unsafe_names_are_refused(name, why):
    with pytest.raises(UnsafeTextError, match=why) as exc:
        check_text(name, "name", max_len=24)
    assert isinstance(exc.value, InvalidInputError) and str(exc.value).isprintable()


@pytest.mark.parametrize("name,why", [
    ("Bo\u200bb", "format character U+200B"),      # zero-width space
    ("Bo\u00adb", "format character U+00AD"),      # soft hyphen
    ("\ufeffAnn", "format character U+FEFF"),      # byte-order mark
    ("Bo\u200cb", "format character U+200C"),      # a non-joiner between Latin letters
    ("\u200dAnn", "format character U+200D"),      # a joiner at an end joins nothing
    ("\u3164", "blank filler character U+3164"),   # Hangul filler
    ("Ann\u115f", "blank filler character U+115F"), ("\u1160", "blank filler"),
    ("\uffa0\uffa0", "blank filler"), ("\u2800", "blank filler character U+2800"),
])
def test_invisible_and_blank_looking_names_are_refused(name, why):
    with pytest.raises(UnsafeTextError, match=re.escape(why)) as exc:
        check_text(name, "player name", max_len=24)
    message = str(exc.value)
    assert message.startswith("player name must not hold ") and message.isprintable()
    assert "\n" not in message


def test_every_format_character_is_refused_outside_a_joining_context():
    refused = 0
    for code in range(0x110000):
        ch = chr(code)
        if unicodedata.category(ch) == "Cf":
            with pytest.raises(UnsafeTextError):
                check_text(f"A{ch}b", "name", max_len=24)
            refused += 1
    assert refused > 150


def test_names_are_stored_in_nfc_and_compared_by_nfkc_case_fold():
    assert check_name_text("Ma\u0301ria", "player name", max_len=24) == "M\u00e1ria"
    assert name_key("Ma\u0301ria") == name_key("M\u00e1ria") == name_key("M\u00c1RIA")
    assert name_key("\uff21lice") == name_key("Alice") == name_key("ALICE")
    assert name_key("Alice") != name_key("Alicia")
    with pytest.raises(UnsafeTextError, match="space"):
        check_name_text(" Ann", "player name", max_len=24)


_INVISIBLE = ("Cc", "Cf", "Cs", "Zl", "Zp")


@settings(max_examples=300)
@given(st.text(max_size=300), st.integers(1, 200), st.booleans())
def test_safe_text_never_raises_and_leaves_nothing_unsafe(text, limit, latin1):
    out = safe_text(text, limit, latin1=latin1)
    assert len(out) <= limit
    assert not any(unicodedata.category(ch) in _INVISIBLE for ch in out)
    if latin1:
        assert all(ord(ch) <= 0xFF for ch in out)
    if len(text) <= limit and text.isprintable():
        assert out == text or latin1


def test_safe_text_elides_long_text_and_shows_other_values():
    assert safe_text("a" * 400, 20) == "a" * 17 + "..."
    assert safe_text(None) == "None" and safe_text(12) == "12"
    assert safe_text("tag \u0000\u202e04A1", 40) == "tag ?04A1"


def test_shown_escapes_and_cuts():
    assert shown("a\u202eb") == "'a\\u202eb'"
    assert len(shown("x" * 500)) <= 40
    assert shown(10**5000) == "<int>"
