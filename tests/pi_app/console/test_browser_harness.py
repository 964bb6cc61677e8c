"""The browser harness itself: Debian's Chromium starts headless with a fresh profile, runs
the page's script and gives the page exactly the phone's and the desktop's viewports."""

import pytest

from tests.pi_app.console.browser import DESKTOP, FLAGS, PHONE, chromium

PAGE = ("data:text/html,<meta name=viewport content='width=device-width,initial-scale=1'>"
        "<p id=x></p><script>document.getElementById('x').textContent="
        "innerWidth+'x'+innerHeight+' '+navigator.webdriver</script>")


@pytest.mark.parametrize("size", [PHONE, DESKTOP])
def test_chromium_runs_scripts_at_the_asked_viewport(size):
    with chromium(size) as d:
        d.get(PAGE)
        assert d.find_element("id", "x").text == f"{size[0]}x{size[1]} true"
        profile = d.capabilities["chrome"]["userDataDir"]
        assert "pokertable-chromium-" in profile


def test_flags_keep_the_browser_local():
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"):
        assert flag in FLAGS
