"""Where the service finds the table core.

* :func:`core_class` returns the core class: ``engine.table.core.TableCore`` (the team's real
  core) unless a ``"module:Class"`` spec is given, or ``$POKERTABLE_CORE`` names one
  (tests, benchmarks).  A journal records the spec of the core that wrote it
  (``meta.core``), and :func:`class_for_journal` uses it.
* :func:`make_core` builds a fresh core for a configuration, through
  ``pi_app.core_factory.make_core(config)`` when that module exists, else
  ``core_class().from_config(config)``.

Only modules under :data:`ALLOWED_PREFIXES` are imported from a spec, so a journal file
cannot make the service import arbitrary code.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from engine.errors import PokerTableError

REAL_CORE = "engine.table.core:TableCore"
ENV = "POKERTABLE_CORE"
ALLOWED_PREFIXES = ("engine.", "pi_app.", "tests.", "bench.")
#: What a table core class must offer (docs/design/contracts.md; pi_app.service.recovery uses them).
CORE_METHODS = ("restore", "snapshot", "apply", "screen_state", "summary")


class CoreUnavailableError(PokerTableError, RuntimeError):
    """The table core named could not be imported (not built yet, or a bad spec)."""


def spec_of(cls: type) -> str:
    """``"module:QualName"`` of a core class (stored in a journal's meta)."""
    return f"{cls.__module__}:{cls.__qualname__}"


def load_class(spec: str) -> type:
    """Import ``"module:Class"``.

    Raises:
        CoreUnavailableError: a bad spec, a module outside :data:`ALLOWED_PREFIXES`, an
            import failure, or something that is not a core class (a class without the
            :data:`CORE_METHODS`).
    """
    module_name, _, qualname = spec.partition(":")
    if not module_name or not qualname:
        raise CoreUnavailableError(f"core {spec!r}: expected 'module:Class'")
    if not module_name.startswith(ALLOWED_PREFIXES):
        raise CoreUnavailableError(
            f"core {spec!r}: only modules under {', '.join(ALLOWED_PREFIXES)} may be loaded")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise CoreUnavailableError(f"core {spec!r} is not available: {exc}") from None
    if not isinstance(obj, type):
        raise CoreUnavailableError(f"core {spec!r} is not a class")
    missing = [m for m in CORE_METHODS if not callable(getattr(obj, m, None))]
    if missing:
        raise CoreUnavailableError(
            f"core {spec!r} is not a table core class (it lacks {', '.join(missing)})")
    return obj


def core_class(spec: str | None = None) -> type:
    """The core class: ``spec``, else ``$POKERTABLE_CORE``, else :data:`REAL_CORE`."""
    return load_class(spec or os.environ.get(ENV) or REAL_CORE)


def class_for_journal(meta: dict[str, str], override: str | None = None) -> type:
    """The class to restore a journal with: ``override``, else the journal's ``meta.core``,
    else :func:`core_class`."""
    if override:
        return load_class(override)
    if meta.get("core"):
        return load_class(meta["core"])
    return core_class()


def make_core(config: Any) -> Any:
    """A fresh core for ``config`` (see the module docstring).

    Raises:
        CoreUnavailableError: neither the factory nor the core class is available.
    """
    try:
        factory = importlib.import_module("pi_app.core_factory")
    except ModuleNotFoundError as exc:
        if exc.name != "pi_app.core_factory":
            raise
        factory = None
    if factory is not None and hasattr(factory, "make_core"):
        return factory.make_core(config)
    cls = core_class()
    if hasattr(cls, "from_config"):
        return cls.from_config(config)
    raise CoreUnavailableError("no core factory: pi_app.core_factory.make_core is missing")
