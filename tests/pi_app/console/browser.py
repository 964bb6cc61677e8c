"""Headless Chromium driven by Selenium, for the console's page tests.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them when missing); the
paths are found on PATH, never downloaded.  Every browser gets a fresh profile folder and
the flags that keep it quiet and local: no GPU, no QUIC, no first-run, no background
networking, no component updates, no sync.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PHONE = (390, 844)      #: the phone the console is designed for (CSS pixels)
DESKTOP = (1366, 768)   #: a laptop of the venue

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1")


class BrowserMissing(RuntimeError):
    """Chromium or its driver is not installed (run ``.ci/run`` as root, or apt-get install
    chromium chromium-driver)."""


def _which(*names: str) -> str:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserMissing(f"none of {', '.join(names)} on PATH: apt-get install chromium "
                         "chromium-driver")


@contextmanager
def chromium(size: tuple[int, int] = PHONE, *, network_log: bool = False,
             downloads: str | None = None) -> Iterator[webdriver.Chrome]:
    """A headless Chromium with a window of ``size`` CSS pixels and a fresh profile; closed
    (and its profile removed) on exit.  ``network_log``: keep Chrome's performance log (the
    WebSocket frames a page receives); ``downloads``: the folder downloads are saved to.

    Raises:
        BrowserMissing: chromium or chromedriver not installed.
    """
    binary = _which("chromium", "chromium-browser")
    driver_path = _which("chromedriver")
    profile = tempfile.mkdtemp(prefix="pokertable-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={size[0]},{size[1]}")
    opts.set_capability("goog:loggingPrefs",
                        {"browser": "ALL", **({"performance": "ALL"} if network_log else {})})
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=driver_path))
    try:
        set_viewport(driver, size)
        if downloads is not None:
            driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                   {"behavior": "allow", "downloadPath": downloads})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def set_viewport(driver: webdriver.Chrome, size: tuple[int, int]) -> None:
    """Make the page's viewport exactly ``size`` CSS pixels (the window's chrome varies)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1,
        "mobile": size[0] < 600})
