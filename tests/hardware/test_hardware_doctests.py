import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["hardware.debounce"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
