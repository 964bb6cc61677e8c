"""The venue console's pairing and tokens on its page (pi_app/console/static/venue.js) in
real headless Chromium, against a venue console listening on loopback in this process:
the director, logged in through the printed link, opens a new pairing code (which pairs
once), mints a dealer's token, sees the tokens and revokes one with its button; a
dealer's token views the room, without the director's desk, clock or tokens."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any

import pytest

from engine.tournament.structure_file import load_structure
from pi_app.console.venue import VenueConsole
from pi_app.console.venue_state import registration_document
from tests.pi_app.console.browser import DESKTOP, chromium
from tests.pi_app.console.pages import Page
from tests.ports import free_port

pytestmark = pytest.mark.slow


def _call(base: str, path: str, body: dict | None = None,
          token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data, headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def console(tmp_path):
    server = VenueConsole(host="127.0.0.1", port=free_port(), state_dir=tmp_path,
                          submit=lambda _request: None)
    server.start()
    desk = SimpleNamespace(players=["Ann", "Bob"], structure=load_structure("mini"))
    venue = SimpleNamespace(name="Club", tables=[SimpleNamespace(number=1, name="Table 1",
                                                                 seats=6)])
    server.show(registration_document(desk, venue))
    yield server, f"http://127.0.0.1:{server.port}"
    server.stop()


def test_the_director_pairs_again_mints_and_revokes_on_the_page_and_a_dealer_views(console):
    server, base = console
    code = server.gate.pairing.current()
    assert code is not None  # the code printed at the start
    with chromium(DESKTOP) as driver:
        p = Page(driver, base).open(f"/console#pair={code}")
        p.wait(lambda: p.visible("tokens"), "the director's tokens never showed")
        p.wait(lambda: len(p.rows("token-list")) == 1, "the paired token is not listed")
        assert p.rows("token-list")[0][1] == "director"
        p.find("pairing-go").click()
        shown = p.wait_text("pairing-code", "code ")
        second = shown.split()[1]
        assert second != code and f"#pair={second}" in shown
        status, paired = _call(base, "/api/pair", {"code": second})
        assert status == 200
        assert _call(base, "/api/pair", {"code": second})[0] == 401  # once only
        p.find("mint-go").click()  # the role chosen: dealer, the first
        answer = p.wait_text("tokens-answer", "dealer token ")
        dealer = answer.rsplit(": ", 1)[1]
        p.wait(lambda: len(p.rows("token-list")) == 3, "the new tokens are not listed")
        p.d.find_element("css selector", f"button[data-id='{paired['id']}']").click()
        p.wait_text("tokens-answer", f"token {paired['id']} revoked")
        p.wait(lambda: ["revoked"] == [r[2] for r in p.rows("token-list")
                                       if r[0] == paired["id"]],
               "the revoked token is not shown revoked")
        assert _call(base, "/api/tokens", token=paired["token"])[0] == 401
        assert _call(base, "/api/tokens", token=dealer)[0] == 403  # a dealer's: good

        p.d.execute_script("localStorage.clear()")
        d = Page(driver, base).open("/")
        d.wait(lambda: d.visible("login"), "the login form is not shown")
        d.type("token-input", dealer)
        d.find("token-input").submit()
        d.wait(lambda: d.visible("viewer"), "the dealer's view never showed")
        assert "dealer" in d.text("viewer") and "view only" in d.text("viewer")
        assert not any(d.visible(part) for part in ("desk", "tokens", "login",
                                                    "clock-controls"))
        assert "Table 1" in d.text("table-1")
