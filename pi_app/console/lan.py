"""The address a phone on the venue's network uses to reach the console.

With a wildcard ``[console] listen`` (``0.0.0.0`` or ``::``) the pairing QR code needs an
address of this machine that a phone on the LAN can reach.  The host name is no good: a
phone rarely resolves a Pi's name.  The interfaces' addresses come from ``ifaddr``; the
choice among them is :func:`choose_lan_address` (pure).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

WILDCARDS = ("0.0.0.0", "::", "")


def choose_lan_address(addresses: Iterable[str]) -> str | None:
    """The address a phone on the LAN most likely reaches, among this machine's own
    ``addresses`` (IPv4 dotted or IPv6 text, without a zone): a private IPv4 address
    (RFC 1918) first, then any other IPv4 address that is not loopback or link-local,
    then a unique-local or global IPv6 address; None when there is only loopback and
    link-local.  Ties go to the first given (the interfaces' order)."""
    ranked: list[tuple[int, int, str]] = []
    for n, text in enumerate(addresses):
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            continue
        if ip.version == 4:
            rank = 0 if ip.is_private else 1
        else:
            rank = 2 if ip.is_private else 3
        ranked.append((rank, n, str(ip)))
    return min(ranked)[2] if ranked else None


def interface_addresses() -> list[str]:
    """Every address of this machine's interfaces (IPv4 first, in the interfaces' order)."""
    import ifaddr

    v4: list[str] = []
    v6: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                v4.append(ip.ip)
            else:
                v6.append(ip.ip[0])
    return v4 + v6


def reachable_host(host: str) -> str:
    """``host`` as a phone should dial it: a wildcard becomes this machine's LAN address
    (:func:`choose_lan_address`; loopback when it has no other), any other host is kept."""
    if host not in WILDCARDS:
        return host
    chosen = choose_lan_address(interface_addresses())
    if chosen is None:
        return "::1" if host == "::" else "127.0.0.1"
    return chosen
