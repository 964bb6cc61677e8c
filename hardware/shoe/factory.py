"""Backend selection for the shoe: ``make_shoe(config, events)``.

``config`` is a mapping (the ``[shoe]`` table of the service's TOML) or a :class:`ShoeConfig`:

    [shoe]
    backend = "auto"     # "serial" (the real shoe), "sim" (simulator on a pty), "auto"
    port = "/dev/pokertable-shoe"   # udev symlink; or /dev/serial/by-id/usb-MicroPython_...-if00
    baudrate = 115200
    silent_timeout = 3.5 # s
    mode = "deal"        # initial mode asked of the shoe
    sim_seed = 0
    sim_name = "default" # the simulator is the pyserial URL shoesim://<sim_name>?seed=<sim_seed>

``auto`` means ``serial`` on a Raspberry Pi (``/proc/device-tree/model`` names one) and
``sim`` anywhere else, so development machines and CI get the simulator by default.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidInputError
from hardware.shoe.client import SILENT_TIMEOUT, EventSink, ShoeClient

BACKENDS = ("auto", "serial", "sim")
DEFAULT_PORT = "/dev/pokertable-shoe"  # the udev symlink of docs/shoe-hardware.md


class ShoeConfigError(InvalidInputError):
    """A bad ``[shoe]`` configuration value."""


@dataclass(frozen=True)
class ShoeConfig:
    backend: str = "auto"
    port: str = DEFAULT_PORT
    baudrate: int = 115200
    silent_timeout: float = SILENT_TIMEOUT
    mode: str = "deal"
    sim_seed: int = 0
    sim_name: str = "default"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> ShoeConfig:
        """Raises :class:`ShoeConfigError` for an unknown key or backend."""
        data = dict(data or {})
        known = {f.name for f in dataclasses.fields(cls)}
        extra = set(data) - known
        if extra:
            raise ShoeConfigError(f"[shoe]: unknown key(s) {', '.join(sorted(extra))}")
        cfg = cls(**data)
        if cfg.backend not in BACKENDS:
            raise ShoeConfigError(f"[shoe] backend {cfg.backend!r}: expected one of "
                                  + ", ".join(BACKENDS))
        return cfg


def on_raspberry_pi() -> bool:
    try:
        with open("/proc/device-tree/model", "rb") as fh:
            return b"Raspberry Pi" in fh.read()
    except OSError:
        return False


def make_shoe(config: ShoeConfig | Mapping[str, Any] | None, events: EventSink, *,
              clock: Callable[[], float] = time.monotonic, start: bool = True) -> ShoeClient:
    """A :class:`ShoeClient` for the configured backend, started unless ``start=False``.

    With the ``sim`` backend the client opens the pyserial URL ``shoesim://<sim_name>?seed=..``
    (:mod:`hardware.shoe.protocol_shoesim`): a :class:`hardware.shoe.simulator.SimulatedShoe`,
    created and started on first use, available as ``client.simulator`` (script it: ``deal``,
    ``unplug``...).  ``client.stop()`` does not stop it: call ``client.simulator.stop()``.

    Raises:
        ShoeConfigError: bad configuration.
    """
    cfg = config if isinstance(config, ShoeConfig) else ShoeConfig.from_mapping(config)
    backend = cfg.backend
    if backend == "auto":
        backend = "serial" if on_raspberry_pi() else "sim"
    sim = None
    port = cfg.port
    if backend == "sim":
        from hardware.shoe import protocol_shoesim

        port = f"shoesim://{cfg.sim_name}?seed={cfg.sim_seed}"
        sim = protocol_shoesim.simulator_for_url(port)
    client = ShoeClient(port, events, clock=clock, baudrate=cfg.baudrate,
                        silent_timeout=cfg.silent_timeout)
    client.simulator = sim
    client.set_mode(cfg.mode)
    if start:
        client.start()
    return client
