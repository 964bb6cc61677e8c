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


def test_wildcard_listen_gives_the_machine_name(tmp_path):
    import socket

    server = ConsoleServer(_Loop(), host="0.0.0.0", port=9000, state_dir=tmp_path)
    try:
        assert server.pairing_url("ABC234") == \
            f"http://{socket.gethostname()}:9000/console#pair=ABC234"
        assert server.pairing_url("ABC234", "table.local:9000").startswith("http://table.local:9000/")
    finally:
        server.gate.tokens.close()
