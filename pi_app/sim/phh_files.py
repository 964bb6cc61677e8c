"""Reading PHH hand-history files from disk for ``pokertable phh replay`` and ``sim --phh``:
which files are PHH files, and every hand of one, parsed by :mod:`engine.history.phh`."""

from __future__ import annotations

from pathlib import Path

from engine.errors import InvalidInputError
from engine.history.phh import UnknownVariantError, hand_from_table, load_tables
from engine.input_file import InputFileError, read_text


class PhhFileError(InvalidInputError):
    """A PHH file that cannot be read."""


def _label(label: str | None) -> int | str:
    if label is None:
        return 1
    return int(label) if label.isdigit() else label


def load(path: str) -> list[tuple[int | str, object]]:
    """``(hand label, PhhHand or UnknownVariantError)`` for every hand of a file.

    Raises:
        PhhFileError: unreadable file; PhhError: broken TOML or a malformed hand.
    """
    try:
        text = read_text(path)
    except InputFileError as exc:
        raise PhhFileError(str(exc)) from None
    out: list[tuple[int | str, object]] = []
    for label, table in load_tables(text, path):
        where = f"{path} hand {label}" if label is not None else path
        try:
            out.append((_label(label), hand_from_table(table, label, where)))
        except UnknownVariantError as exc:
            out.append((_label(label), exc))
    return out


PHH_SUFFIXES = (".phh", ".phhs")
NOT_PHH = "not a PHH file (.phh or .phhs)"


def is_phh_name(path: str) -> bool:
    """Whether ``path`` is named as a PHH file (``.phh`` or ``.phhs``, any case)."""
    return Path(path).suffix.lower() in PHH_SUFFIXES
