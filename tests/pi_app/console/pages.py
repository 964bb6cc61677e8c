"""Driving the console's pages in Chromium as a person would: tap a tab, type, tap a button,
read the toast that says what the table answered.  Waits are on what the page shows (pushed
state), never on a fixed sleep."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 30.0  #: seconds a page may take to show what the table pushed (a busy CI machine)


class Page:
    """One browser on one of the console's pages."""

    def __init__(self, driver: WebDriver, base: str) -> None:
        self.d = driver
        self.base = base

    def open(self, path: str) -> Page:
        self.d.get(self.base + path)
        return self

    def find(self, id_: str) -> Any:
        """The element, scrolled to the middle of the screen (clear of the tab bar), as a
        person scrolls to what they tap."""
        node = self.d.find_element(By.ID, id_)
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
        return node

    def text(self, id_: str) -> str:
        return self.d.execute_script(
            "const n = document.getElementById(arguments[0]); return n ? n.textContent : null;",
            id_)

    def visible(self, id_: str) -> bool:
        return bool(self.d.execute_script(
            "const n = document.getElementById(arguments[0]);"
            "return !!n && n.getClientRects().length > 0;", id_))

    def wait(self, predicate, what: str, timeout: float = WAIT) -> Any:
        return WebDriverWait(self.d, timeout).until(lambda _d: predicate(), message=what)

    def wait_text(self, id_: str, part: str, timeout: float = WAIT) -> str:
        self.wait(lambda: part in (self.text(id_) or ""),
                  f"#{id_} never showed {part!r} (shows {self.text(id_)!r})", timeout)
        return self.text(id_) or ""

    def tab(self, name: str) -> None:
        self.d.find_element(By.CSS_SELECTOR, f'#tabs button[data-tab="{name}"]').click()
        self.wait(lambda: self.visible(f"tab-{name}"), f"tab {name} did not open")

    def type(self, id_: str, text: str) -> None:
        node = self.find(id_)
        node.clear()
        node.send_keys(text)

    def act(self, id_: str, *, taps: int = 1, expect: str = "Done") -> str:
        """Tap ``id_`` (``taps`` times for the buttons that ask for a second tap) and return
        the toast that answers; asserts it starts with ``expect``."""
        self.d.execute_script("const t = document.getElementById('toast');"
                              "t.textContent = ''; t.hidden = true;")
        self.wait(lambda: self.visible(id_), f"#{id_} is not shown")
        for _ in range(taps):
            self.find(id_).click()
        self.wait(lambda: bool(self.text("toast")), f"no answer after tapping #{id_}")
        toast = self.text("toast") or ""
        assert toast.startswith(expect), f"#{id_}: {toast}"
        return toast

    def rows(self, tbody: str) -> list[list[str]]:
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll('#' + arguments[0] + ' tr'))"
            ".map(r => Array.from(r.cells).map(c => c.textContent));", tbody)

    def shot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.d.save_screenshot(str(path))


def pushed_frames(driver: WebDriver) -> list[str]:
    """Every WebSocket message the page received since the last call, as sent (Chrome's
    performance log: the browser must be started with ``network_log=True``)."""
    frames = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.webSocketFrameReceived":
            frames.append(msg["params"]["response"]["payloadData"])
    return frames
