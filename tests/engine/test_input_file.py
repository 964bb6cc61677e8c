"""The reader of files from outside (engine/input_file.py): TOML text checked before use."""

from __future__ import annotations

import pytest

from engine.errors import InvalidInputError
from engine.input_file import InputFileError, toml_document


def test_a_toml_document_is_parsed():
    assert toml_document('[a]\nb = [1, 2]\n', "x.toml") == {"a": {"b": [1, 2]}}


@pytest.mark.parametrize("text, message", [
    ("[a\n", "x.toml: invalid TOML: "),
    ("a = " + "[" * 40 + "]" * 40, "x.toml: nested deeper than 32 levels"),
])
def test_text_that_is_not_usable_toml_is_refused_naming_the_file(text, message):
    with pytest.raises(InputFileError) as info:
        toml_document(text, "x.toml")
    assert str(info.value).startswith(message)
    assert isinstance(info.value, InvalidInputError) and isinstance(info.value, ValueError)
