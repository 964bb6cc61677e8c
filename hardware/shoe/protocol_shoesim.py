"""pyserial URL handler ``shoesim://NAME?seed=S&corrupt=P&drop=P&duplicate=P``.

``serial.serial_for_url("shoesim://table1?seed=3")`` opens a simulated shoe (created on the
first open, kept afterwards under ``NAME`` so it survives the client's reopen after an
unplug).  pyserial finds this module through ``serial.protocol_handler_packages``, to which
:func:`register` adds ``"hardware.shoe"`` (importing :mod:`hardware.shoe.simulator` does it).

The handler resolves the URL to the simulator's pty path and pyserial's ordinary POSIX
``Serial`` class (``serial_class_for_url``), so the client talks to a real tty exactly as
on the Pi.  While the simulated cable is unplugged, opening raises ``SerialException``.
"""

from __future__ import annotations

import os
import threading
import urllib.parse

import serial

from hardware.shoe.simulator import Faults, SimulatedShoe

_registry: dict[str, SimulatedShoe] = {}
_lock = threading.Lock()


def simulator_for_url(url: str) -> SimulatedShoe:
    """The (started) simulator named by ``url``, created on first use.

    Raises:
        serial.SerialException: not a ``shoesim://`` URL or a bad query value.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != "shoesim":
        raise serial.SerialException(f"not a shoesim:// URL: {url!r}")
    name = parts.netloc or "default"
    with _lock:
        sim = _registry.get(name)
        if sim is None:
            opts = urllib.parse.parse_qs(parts.query)
            try:
                seed = int(opts.get("seed", ["0"])[0])
                faults = Faults(corrupt=float(opts.get("corrupt", ["0"])[0]),
                                drop=float(opts.get("drop", ["0"])[0]),
                                duplicate=float(opts.get("duplicate", ["0"])[0]))
            except ValueError as exc:
                raise serial.SerialException(f"bad shoesim URL {url!r}: {exc}") from None
            sim = SimulatedShoe(seed=seed, faults=faults)
            sim.on_stop = lambda n=name: _registry.pop(n, None)
            sim.start()
            _registry[name] = sim
        return sim


def serial_class_for_url(url: str) -> tuple[str, type]:
    """pyserial hook: ``(pty path, serial.Serial)`` for ``url``."""
    sim = simulator_for_url(url)
    if not os.path.lexists(sim.path):
        raise serial.SerialException(f"{url}: the simulated shoe is unplugged")
    return sim.path, serial.Serial


def register() -> None:
    """Make ``shoesim://`` known to :func:`serial.serial_for_url` (idempotent)."""
    if "hardware.shoe" not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append("hardware.shoe")
