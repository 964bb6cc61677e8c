"""The console's pages under bad or hostile input, in headless Chromium against a real
service: a wrong pairing code changes nothing and says so; a revoked token sends the phone
back to pairing; a player's name is shown as text, never run as HTML."""

from __future__ import annotations

import json

import pytest

from tests.pi_app.console.browser import PHONE, chromium
from tests.pi_app.console.pages import Page
from tests.pi_app.console.table_process import Table

pytestmark = pytest.mark.slow
TOKEN_KEY = "return localStorage.getItem('pokertable.console.token')"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    t = Table(tmp_path_factory.mktemp("auth")).start()
    try:
        yield t
    finally:
        t.close()


def use_token(page: Page, token: str) -> None:
    page.open("/console")
    enter_token(page, token)


def enter_token(page: Page, token: str) -> None:
    page.wait(lambda: page.visible("pair-view"), "the pairing form is shown")
    page.d.execute_script("document.querySelector('#pair-view details').open = true")
    page.type("token-input", token)
    page.find("token-go").click()


def test_wrong_pairing_code_is_refused_and_nothing_is_kept(table):
    with chromium(PHONE) as d:
        page = Page(d, table.base).open("/console#pair=WRONG1")
        page.wait_text("toast", "wrong or expired pairing code")
        assert page.visible("pair-view") and not page.visible("app")
        assert d.execute_script(TOKEN_KEY) is None
        assert d.current_url.endswith("/console")


def test_revoked_token_sends_the_phone_back_to_pairing(table):
    minted = json.loads(table.ctl("token", "--role", "director", "--json").stdout)
    with chromium(PHONE) as d:
        page = Page(d, table.base)
        use_token(page, minted["token"])
        page.wait_text("role", "director")
        assert table.ctl("revoke", minted["id"]).returncode == 0
        # told at once over its link, before the phone sends anything
        page.wait(lambda: page.visible("pair-view"), "the pairing form came back")
        assert "unknown, expired or revoked token" in (page.text("toast") or "")
        assert d.execute_script(TOKEN_KEY) is None
    status, _ = table.post("/api/register", {"name": "Ann"}, token=minted["token"])
    assert status == 401
    status = json.loads(table.ctl("status", "--json").stdout)
    assert "Ann" not in json.dumps(status)  # the refused command changed nothing


def test_a_name_is_text_on_every_page(table):
    name = "<img src=x onerror=f()>"
    assert table.ctl("register", name).returncode == 0
    token = table.ctl("token", "--role", "director").stdout.strip()
    with chromium(PHONE) as d:
        page = Page(d, table.base).open("/console")
        d.execute_script("window.f = () => { document.title = 'owned'; }")
        enter_token(page, token)
        page.wait(lambda: name in (page.text("waiting") or ""), "the name is listed")
        assert d.execute_script("return document.querySelectorAll('img').length") == 0
        assert d.title != "owned"
