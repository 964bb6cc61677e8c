"""Which shoe ports stay on this machine.

The table never opens a connection to another host: a shoe port is a device path or a
pyserial URL (:func:`serial.serial_for_url`) whose traffic stays here.  Accepted:

* a path (``/dev/serial/by-id/...``, ``/dev/pokertable-shoe``);
* ``loop://`` and ``shoesim://`` (in this process), ``hwgrep://`` (a local serial port
  found by name);
* ``socket://HOST:PORT`` and ``rfc2217://HOST:PORT`` with HOST ``localhost`` or a
  loopback address (``127.0.0.0/8``, ``::1``);
* ``spy://PORT`` and ``alt://PORT`` wrapping an accepted port.

>>> off_machine("socket://127.0.0.1:4000") is None
True
>>> off_machine("socket://8.8.8.8:1")
'socket://8.8.8.8:1 reaches 8.8.8.8, off this machine: the shoe's host must be localhost, 127.0.0.0/8 or ::1'
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from engine.errors import InvalidInputError

LOCAL_SCHEMES = ("loop", "shoesim", "hwgrep")
NETWORK_SCHEMES = ("socket", "rfc2217")
WRAPPING_SCHEMES = ("spy", "alt")
_NESTING = 4  # spy://alt://spy://... deeper than this is refused


class ShoePortError(InvalidInputError):
    """A shoe port that would reach another host (:func:`off_machine`)."""


def off_machine(port: str, depth: int = 0) -> str | None:
    """Why ``port`` is not a port on this machine (None: it is).

    ``port`` is the configured ``[shoe] port`` text (not ``"sim"``).  Returns one clause
    naming what is wrong, for the caller to put after the setting's name.
    """
    scheme, sep, rest = port.partition("://")
    if not sep:
        return None  # a device path
    scheme = scheme.lower()
    if scheme in LOCAL_SCHEMES:
        return None
    if scheme in WRAPPING_SCHEMES:
        if depth >= _NESTING:
            return f"{port} wraps ports {_NESTING} deep or more"
        return off_machine(rest.partition("?")[0], depth + 1)
    if scheme not in NETWORK_SCHEMES:
        return (f"{port}: the pyserial URL scheme {scheme!r} is not one known to stay on "
                f"this machine (a device path, {', '.join(LOCAL_SCHEMES)}, socket or "
                "rfc2217 to localhost, spy or alt of those)")
    try:
        host = urlsplit(port).hostname or ""
    except ValueError:
        host = ""
    if not host:
        return f"{port} names no host"
    if host == "localhost" or _is_loopback(host):
        return None
    return (f"{port} reaches {host}, off this machine: the shoe's host must be localhost, "
            "127.0.0.0/8 or ::1")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name other than localhost: it may resolve anywhere
