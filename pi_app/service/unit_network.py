"""The network the table service may use, derived from its configuration, as a systemd
drop-in (``pokertable config network FILE``; written by ``systemd/install.sh``).

The unit itself (``systemd/pokertable.service``) allows no IP traffic at all
(``IPAddressDeny=any``, no ``AF_INET``/``AF_INET6``).  This drop-in opens exactly what the
configuration needs, and nothing else:

* the director's console, when the configuration has a ``[console]`` section (``listen =
  "HOST:PORT"``, loopback by default): its clients are on the console's own subnet, so the
  allow-list holds ``localhost`` plus the network of the interface that holds HOST (every
  interface's network for ``0.0.0.0`` or ``::``); a loopback HOST adds nothing beyond
  ``localhost``;
* a shoe on the network, ``[shoe] port = "socket://HOST:PORT"`` (or ``rfc2217://``): HOST
  itself (each address it resolves to, as a /32 or /128).

``IPAddressAllow=`` matches the *peer's* address (systemd.resource-control(5), "IP
Accounting and Access Lists"), which is why the console's subnet, not its own address, is
what its clients need.

>>> import ipaddress
>>> lan = [ipaddress.ip_interface("192.168.1.50/24")]
>>> allow_list("127.0.0.1:8080", "/dev/pokertable-shoe", lan)
['localhost']
>>> allow_list("192.168.1.50:8080", "socket://10.0.0.7:4000", lan)
['localhost', '192.168.1.0/24', '10.0.0.7/32']
>>> allow_list(None, "/dev/pokertable-shoe", lan)   # no console, a USB shoe: no IP at all
[]
"""

from __future__ import annotations

import ipaddress
import json
import socket
import subprocess
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from engine.errors import InvalidInputError
from engine.text import safe_text

Interface = ipaddress.IPv4Interface | ipaddress.IPv6Interface
DEFAULT_CONSOLE_LISTEN = "127.0.0.1:8765"   # pi_app/service/console_config.py
NETWORK_SHOE_SCHEMES = ("socket", "rfc2217")


class NetworkConfigError(InvalidInputError):
    """A console or shoe address the allow-list cannot be derived from."""


def split_host_port(text: str, what: str) -> tuple[str, int]:
    """``"HOST:PORT"`` or ``"[V6]:PORT"`` -> (host, port).

    Raises:
        NetworkConfigError: not of that form, or a port outside 1..65535.
    """
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise NetworkConfigError(f"{what} must be HOST:PORT with a port 1..65535, "
                                 f"got {text!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, int(port)


def _ip(host: str, what: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address of an IP literal (None for ``localhost``)."""
    if host == "localhost":
        return None
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        raise NetworkConfigError(f"{what}: give an IP address, got {host!r}") from None


def console_networks(listen: str, interfaces: Iterable[Interface]) -> list[str]:
    """The networks the console's clients may come from (``localhost`` not included).

    Raises:
        NetworkConfigError: a malformed ``listen``, a hostname, or an address that no
            interface of this machine holds (the console could not bind it).
    """
    host, _ = split_host_port(listen, "console.listen")
    ip = _ip(host, "console.listen")
    if ip is None or ip.is_loopback:
        return []
    nets = [i for i in interfaces if not i.ip.is_loopback]
    if ip.is_unspecified:
        return [str(i.network) for i in nets]
    held = [str(i.network) for i in nets if i.ip == ip]
    if not held:
        raise NetworkConfigError(f"console.listen: no interface of this machine has the "
                                 f"address {host}")
    return held


def shoe_hosts(port: str, resolve: Callable[[str], list[str]]) -> list[str]:
    """``/32`` or ``/128`` of each address of a network shoe's host ([] for a local port)."""
    parts = urlsplit(port)
    if parts.scheme not in NETWORK_SHOE_SCHEMES:
        return []
    if not parts.hostname:
        raise NetworkConfigError(f"shoe.port: no host in {port!r}")
    try:
        addrs = [ipaddress.ip_address(parts.hostname)]
    except ValueError:
        addrs = [ipaddress.ip_address(a) for a in resolve(parts.hostname)]
    return [str(ipaddress.ip_network(a)) for a in addrs]


def allow_list(listen: str | None, shoe_port: str, interfaces: Iterable[Interface],
               resolve: Callable[[str], list[str]] | None = None) -> list[str]:
    """``IPAddressAllow=`` entries, no duplicates: with a console (``listen`` not None),
    ``localhost`` (``pokertable ctl`` on the Pi itself) and the console's networks; the
    network shoe's host.  Empty: the service needs no IP traffic."""
    out = [] if listen is None else ["localhost", *console_networks(listen, interfaces)]
    for entry in shoe_hosts(shoe_port, resolve or resolve_host):
        if entry not in out:
            out.append(entry)
    return out


def drop_in(source: str, allow: list[str]) -> str:
    """The text of ``/etc/systemd/system/pokertable.service.d/network.conf``: the address
    families and ``IPAddressAllow=`` for ``allow``, or no change at all when it is empty
    (the unit's ``IPAddressDeny=any`` stands).  ``source`` is shown made safe."""
    head = (f"# Written by `pokertable config network {safe_text(source, 200)}` "
            "(systemd/install.sh).\n"
            "# The IP traffic the table service may have: see docs/operations.md.\n"
            "[Service]\n")
    if not allow:
        return head + "# No console and no network shoe: no IP traffic (the unit's own rule).\n"
    return (head + "RestrictAddressFamilies=AF_INET AF_INET6\n"
            f"IPAddressAllow={' '.join(allow)}\n")


def resolve_host(host: str) -> list[str]:
    """Addresses of ``host`` from the system's resolver (``/etc/hosts`` first).

    Raises:
        NetworkConfigError: the name does not resolve.
    """
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise NetworkConfigError(f"shoe.port: cannot resolve {host!r}: {exc}") from None
    return sorted({str(info[4][0]) for info in infos})


def local_interfaces() -> list[Interface]:
    """This machine's addresses with their prefixes, from ``ip -json addr`` (iproute2)."""
    try:
        out = subprocess.run(["ip", "-json", "addr", "show"], capture_output=True, text=True,
                             timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise NetworkConfigError(f"cannot list this machine's addresses (ip addr): "
                                 f"{exc}") from None
    found: list[Interface] = []
    for link in json.loads(out or "[]"):
        for a in link.get("addr_info", []):
            try:
                found.append(ipaddress.ip_interface(f"{a['local']}/{a['prefixlen']}"))
            except (KeyError, ValueError):
                continue
    return found
