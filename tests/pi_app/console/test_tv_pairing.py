"""The TV's pairing panel comes from the console: the open code and its address go into the
TV's screen state only (``ScreenState.extra``), never into a pushed document."""

from __future__ import annotations

from engine.views import ScreenState
from pi_app.console.server import PAIR_CODE, PAIR_URL, ConsoleServer


class _Loop:
    def __init__(self) -> None:
        self.observers: list = []
        self.tv_overlays: list = []


def test_tv_shows_the_open_pairing_code_and_its_address(tmp_path):
    server = ConsoleServer(_Loop(), host="127.0.0.1", port=8765, state_dir=tmp_path)
    try:
        plain = ScreenState(extra={"other": "x"})
        assert server.tv_pairing(plain) is plain  # no code open: nothing shown
        code, seconds = server.gate.pairing.open()
        shown = server.tv_pairing(plain)
        assert shown.extra == {"other": "x", PAIR_CODE: code,
                               PAIR_URL: f"http://127.0.0.1:8765/console#pair={code}"}
        assert seconds == 600 and len(code) == 6
        assert server.gate.pairing.try_code(code)  # one pairing closes the window
        assert server.tv_pairing(plain) is plain
    finally:
        server.gate.tokens.close()


def test_wildcard_listen_gives_an_address_of_this_machine_a_phone_can_reach(tmp_path):
    import ipaddress

    from pi_app.console.lan import interface_addresses

    server = ConsoleServer(_Loop(), host="0.0.0.0", port=9000, state_dir=tmp_path)
    try:
        url = server.pairing_url("ABC234")
        host = url.removeprefix("http://").split("/")[0].rsplit(":", 1)[0].strip("[]")
        own = interface_addresses()
        assert host in own  # one of this machine's own interfaces, never a name
        if any(not ipaddress.ip_address(a).is_loopback
               and not ipaddress.ip_address(a).is_link_local for a in own):
            assert not ipaddress.ip_address(host).is_loopback
        assert url.endswith(":9000/console#pair=ABC234")
        assert server.pairing_url("ABC234", "table.local:9000").startswith("http://table.local:9000/")
    finally:
        server.gate.tokens.close()


def test_the_lan_address_is_chosen_private_ipv4_first():
    from pi_app.console.lan import choose_lan_address

    # documentation and private ranges, as strings only: nothing is contacted
    assert choose_lan_address(["127.0.0.1", "169.254.3.4", "fe80::1", "fd00::2",
                               "10.1.2.3", "192.168.1.20"]) == "10.1.2.3"
    assert choose_lan_address(["::1", "fd00::2", "127.0.0.1"]) == "fd00::2"
    assert choose_lan_address(["127.0.0.1", "::1", "fe80::1", "not an address"]) is None
