"""``[console]`` of a table config: where the director's console listens.

The systemd unit's address allow-list is derived from ``[console] listen`` too: keep the key.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from pi_app.service.config_schema import ConsoleSection, SectionError

DEFAULT_LISTEN = "127.0.0.1:8765"
_LISTEN = re.compile(r"\[([0-9A-Fa-f:.]+)\]:(\d{1,5})|([A-Za-z0-9.\-]+):(\d{1,5})")


@dataclass(frozen=True)
class ConsoleConfig:
    """``[console]``: the director's console served by the table service.

    ``host``/``port``: where it listens (``listen = "HOST:PORT"``; an IP literal or
    ``localhost``; loopback by default); ``registration``: the night starts with no
    players, who are registered by name from the console and seated by a draw."""

    host: str = "127.0.0.1"
    port: int = 8765
    registration: bool = False

    @property
    def listen(self) -> str:
        """``HOST:PORT`` (an IPv6 host in brackets)."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def console_config(sec: ConsoleSection | None) -> ConsoleConfig | None:
    """``[console]`` (None when the section is absent: no console is served).

    Raises:
        SectionError: ``console.listen`` is not ``HOST:PORT`` with an IP address or
            ``localhost`` and a port 1..65535.
    """
    if sec is None:
        return None
    key, listen = "console.listen", sec.listen
    m = _LISTEN.fullmatch(listen)
    if m is None:
        raise SectionError(key, f'must be "HOST:PORT" (an IPv6 host in brackets), '
                                f"got {listen!r}")
    host = m.group(1) or m.group(3)
    port = int(m.group(2) or m.group(4))
    if not 1 <= port <= 65535:
        raise SectionError(key, f"the port must be 1..65535, got {port}")
    if m.group(3) and host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise SectionError(key, f"the host must be an IP address or localhost, "
                                    f"got {host!r}") from None
    return ConsoleConfig(host=host, port=port, registration=sec.registration)
