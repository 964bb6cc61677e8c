"""The one reader of files from outside: table configs, structures, scenario and replay
scripts, PHH hand histories (a symlink to one included).

A file from outside is hostile until checked (:func:`read_text`):

* it is opened with ``O_NONBLOCK`` and checked with ``fstat`` before a byte is read, so a
  named pipe, ``/dev/zero``, a terminal or a folder is refused at once, never waited on or
  read forever;
* only a regular file of at most ``limit`` bytes (default :data:`MAX_BYTES`) is read;
* it must be UTF-8 text.

TOML and JSON text is checked for nesting (:func:`check_nesting`) before a parser that
recurses sees it: 500 nested brackets in a 1 kB file once gave a ``RecursionError``.
:func:`loads_toml` is ``tomllib.loads`` behind that guard.

Every refusal is an :class:`InputFileError` (an ``InvalidInputError``, so also a
``ValueError``) whose message is one line naming the file.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from engine.errors import InvalidInputError

MAX_BYTES = 4 * 1024 * 1024  #: the largest input file read (a PHH file of ~10,000 hands)
MAX_NESTING = 32  #: brackets deeper than this are refused (our files need at most 4)

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"))


class InputFileError(InvalidInputError):
    """An input file that is not read: not a regular file, too big, not UTF-8 text, or
    nested too deeply."""


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_BYTES) -> str:
    """The text of the regular file ``path`` (UTF-8, at most ``limit`` bytes).

    Raises:
        InputFileError: missing, unreadable, not a regular file, larger than ``limit``
            bytes, or not UTF-8 text; the message names the file.
    """
    name = os.fsdecode(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise InputFileError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
            raise InputFileError(f"{name}: is {kind}, not a regular file")
        if st.st_size > limit:
            raise InputFileError(f"{name}: is {st.st_size} bytes, larger than the limit of "
                                 f"{limit} bytes")
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise InputFileError(f"{name}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputFileError(f"{name}: is larger than the limit of {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def _read_at_most(fd: int, n: int) -> bytes:
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = os.read(fd, min(1 << 20, n - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in TOML or JSON ``text``, outside strings and
    comments (without recursion; an approximation that never undercounts brackets)."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            i = _skip_string(text, i)
            continue
        i += 1
    return deepest


def _skip_string(text: str, i: int) -> int:
    """The index after the string starting at ``i`` (basic, literal, multi-line)."""
    q = text[i]
    if text.startswith(q * 3, i):
        end = text.find(q * 3, i + 3)
        return len(text) if end < 0 else end + 3
    j = i + 1
    while j < len(text) and text[j] not in (q, "\n"):
        j += 2 if (q == '"' and text[j] == "\\") else 1
    return j + 1


def check_nesting(text: str, where: str, *, limit: int = MAX_NESTING) -> None:
    """Refuse TOML/JSON ``text`` nested deeper than ``limit`` brackets.

    Raises:
        InputFileError: "<where>: nested deeper than <limit> levels".
    """
    if nesting_depth(text) > limit:
        raise InputFileError(f"{where}: nested deeper than {limit} levels")


def loads_toml(text: str, where: str, **kw: Any) -> dict[str, Any]:
    """``tomllib.loads(text, **kw)`` after :func:`check_nesting` (dotted keys too deep are
    refused after parsing, without recursion).

    Raises:
        InputFileError: nested too deeply; tomllib.TOMLDecodeError: not TOML.
    """
    check_nesting(text, where)
    try:
        data = tomllib.loads(text, **kw)
    except RecursionError:
        raise InputFileError(f"{where}: nested too deeply") from None
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise InputFileError(f"{where}: nested deeper than {MAX_NESTING} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return data


def read_toml(path: str | os.PathLike[str], **kw: Any) -> dict[str, Any]:
    """:func:`read_text` then :func:`loads_toml` (``where`` is the file name)."""
    return loads_toml(read_text(path), str(Path(path)), **kw)


def toml_document(text: str, where: str) -> dict[str, Any]:
    """:func:`loads_toml`, with TOML that does not parse refused too.

    Raises:
        InputFileError: nested too deeply, or "<where>: invalid TOML: <the parser's reason>".
    """
    try:
        return loads_toml(text, where)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: invalid TOML: {exc}") from None
