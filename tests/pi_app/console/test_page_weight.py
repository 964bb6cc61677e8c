"""The page-weight bench runs (once, on the shipped files) and the console is within its
200 kB bar; every part of a page comes from the table itself."""

import importlib.util
import subprocess
import sys

import pytest

from tests.data_paths import REPO

BENCH = REPO / "bench" / "bench_page_weight.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_page_weight", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_runs_and_the_console_is_within_the_bar():
    r = subprocess.run([sys.executable, str(BENCH)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "console / public page:" in r.stdout and "within the bar" in r.stdout
    total = int(r.stdout.split("console (/console): ")[1].split(" bytes")[0].replace(",", ""))
    assert 10_000 < total <= 200_000


def test_bench_fails_over_a_smaller_bar():
    r = subprocess.run([sys.executable, str(BENCH), "--bar-kb", "5"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1 and "OVER THE BAR" in r.stdout


def test_every_shipped_file_is_part_of_a_page():
    bench = _bench()
    used = set()
    for page in bench.PAGES.values():
        used |= {p.removeprefix("/static/") for p in bench.load(page, bench.fetch_file)}
    shipped = {p.name for p in bench.STATIC.iterdir() if p.is_file()}
    assert shipped - {"index.html", "console.html"} <= used


@pytest.mark.parametrize("tag", ['<script src="https://cdn.example/htmx.js"></script>',
                                 '<link rel="stylesheet" href="//cdn.example/x.css">'])
def test_a_part_from_elsewhere_is_refused(tag):
    parser = _bench()._Parts()
    with pytest.raises(ValueError, match="from elsewhere"):
        parser.feed(tag)


def test_only_loopback_urls_are_measured():
    with pytest.raises(ValueError, match="loopback"):
        _bench().fetch_url("http://192.0.2.1:8765")
