"""Firmware tests run under CPython with a fake ``machine`` module.

The pure modules are imported as ``firmware.shoe.*`` (the host layout).  ``main.py`` is
imported as the board sees it -- a top-level ``main`` next to a package ``shoe`` -- with
``firmware/`` on ``sys.path`` and the fake ``machine`` installed.
"""

from __future__ import annotations

import importlib
import sys

import pytest

from tests.data_paths import REPO
from tests.firmware.shoe.fake_machine import make_module

FIRMWARE_DIR = REPO / "firmware"


@pytest.fixture
def board_main(monkeypatch):
    """``main`` imported as on the board (package ``shoe`` + fake ``machine``)."""
    monkeypatch.setitem(sys.modules, "machine", make_module())
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    for name in [n for n in sys.modules if n == "shoe" or n.startswith("shoe.")]:
        monkeypatch.delitem(sys.modules, name)
    spec = importlib.util.spec_from_file_location("main", FIRMWARE_DIR / "shoe" / "main.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    for name in [n for n in sys.modules if n == "shoe" or n.startswith("shoe.")]:
        sys.modules.pop(name, None)
