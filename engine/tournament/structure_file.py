"""Reading a tournament structure: a preset by name or a TOML file, parsed (``tomllib``) and
checked (:mod:`engine.tournament.structure_check`) into an immutable
:class:`engine.tournament.structure.Structure`.  The format is documented in docs/tournament.md.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from engine.input_file import InputFileError, loads_toml, read_text
from engine.tournament.structure import Structure, StructureError, StructureFileError
from engine.tournament.structure_check import Validator

PRESET_PACKAGE = "engine.tournament.presets"


def preset_names() -> tuple[str, ...]:
    """Names of the shipped presets (``engine/tournament/presets/*.toml``)."""
    files = resources.files(PRESET_PACKAGE).iterdir()
    return tuple(sorted(f.name[:-5] for f in files if f.name.endswith(".toml")))


def structure_source(name_or_path: str | Path) -> tuple[str, str]:
    """The TOML text of a preset (by name) or a structure file (by path), and the name
    messages use for it; nothing is parsed.

    Raises:
        StructureFileError: a file that cannot be read; StructureError: no such preset.
    """
    text_name = str(name_or_path)
    path = Path(text_name)
    if path.suffix == ".toml" or path.exists() or "/" in text_name:
        try:
            return read_text(path), text_name
        except InputFileError as exc:
            raise StructureFileError([str(exc)]) from None
    res = resources.files(PRESET_PACKAGE).joinpath(f"{text_name}.toml")
    if not res.is_file():
        raise StructureError([
            (f"{text_name}: no such structure file or preset "
            f"(presets: {', '.join(preset_names())})")])
    return res.read_text(encoding="utf-8"), f"preset {text_name}"


def load_structure(name_or_path: str | Path) -> Structure:
    """Load a preset by name (``"gunpowder"``) or a structure file by path.

    Raises:
        StructureError: unknown preset / missing file, TOML syntax error, or invalid content.
    """
    return parse_structure(*structure_source(name_or_path))


def parse_structure(text: str, filename: str = "<structure>") -> Structure:
    """Parse and validate TOML text.  Raises :class:`StructureError` listing every problem."""
    try:
        raw = loads_toml(text, filename)
    except tomllib.TOMLDecodeError as exc:
        raise StructureError([f"{filename}: not valid TOML: {exc}"]) from None
    except InputFileError as exc:
        raise StructureFileError([str(exc)]) from None
    return Validator(filename).build(raw)
