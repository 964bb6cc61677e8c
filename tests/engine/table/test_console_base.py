"""A name or a reason from the console: refused when it holds a control or direction
character, a line break (checked before spaces are collapsed, so "Ev\\nil" is not joined
into "Ev il") or a lone surrogate (what a Latin-1 terminal's byte becomes: no UTF-8 journal
can hold it)."""

from __future__ import annotations

import pytest

from engine.table.console_base import ConsoleCommandError, check_name
from engine.table.console_commands import _text

BAD = ["M\udcfcller", "\ud800", "Ev\nil", "Ann\r", "Tab\there", "Bob\u202e", "Cy\u2028d",
       "Zero\u200bwidth", "\x1b[31mRed"]


@pytest.mark.parametrize("name", BAD)
def test_a_bad_name_is_refused(name):
    with pytest.raises(ConsoleCommandError, match="control or direction"):
        check_name(name)


@pytest.mark.parametrize("reason", [b for b in BAD if b != "Zero\u200bwidth"])
def test_a_bad_reason_is_refused(reason):
    with pytest.raises(ConsoleCommandError, match="control or direction"):
        _text({"reason": reason}, "reason")


def test_good_names_and_reasons_pass_with_spaces_collapsed():
    assert check_name("  Müller   Jr ") == "Müller Jr"
    assert check_name("Zoë") == "Zoë"
    assert _text({"reason": " count  on the felt "}, "reason") == "count on the felt"
    with pytest.raises(ConsoleCommandError, match="give a reason"):
        _text({"reason": "   "}, "reason")


@pytest.mark.parametrize("name", ["Bo\u00adb", "\u3164", "\ufeffAnn", "Ann\u2800"])
def test_an_invisible_or_blank_looking_name_is_refused(name):
    with pytest.raises(ConsoleCommandError, match="control or direction"):
        check_name(name)


def test_a_name_is_kept_composed():
    assert check_name("Ma\u0301ria  Jr") == "M\u00e1ria Jr"
