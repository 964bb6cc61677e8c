"""Page weight of the console (issue 10: at most 200 kB), next to the public page as peer.

The weight of a page is the bytes a phone downloads to show it: the HTML plus every script,
stylesheet, icon and image it names (followed from the HTML; nothing comes from elsewhere:
no CDN).  Measured from the files as shipped (``pi_app/console/static``, which the console
serves verbatim), or with ``--url http://127.0.0.1:PORT`` from a running table's console
over HTTP.  The gzip size is printed too (what a compressing proxy would send).

Run: ``.venv/bin/python bench/bench_page_weight.py [--url BASE] [--bar-kb 200]``
Exit status 1 when the console is over the bar.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "pi_app" / "console" / "static"
# the venue's room page is served at "/" by the director's console (pi_app/console/venue.py)
PAGES = {"console": "/console", "public page": "/", "venue room": "/static/venue.html"}
FILES = {"/console": "console.html", "/": "index.html"}
MAX_BYTES = 2_000_000  # a file larger than this is not a page part: refuse to read it


class _Parts(HTMLParser):
    """The same-origin paths a page loads: script src, stylesheet/icon href, img src."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        ref = None
        if tag in ("script", "img") and a.get("src"):
            ref = a["src"]
        elif tag == "link" and a.get("href") and (a.get("rel") or "") in ("stylesheet", "icon"):
            ref = a["href"]
        if ref and not ref.startswith("data:"):
            if "//" in ref:
                raise ValueError(f"the page loads {ref} from elsewhere: everything must come "
                                 "from the table")
            self.paths.append(ref)


def fetch_file(path: str) -> bytes:
    """The bytes of a console path from the shipped files (``/static/x`` or a page)."""
    name = FILES.get(path) or path.removeprefix("/static/")
    target = (STATIC / name).resolve()
    if STATIC.resolve() not in target.parents or not target.is_file():
        raise ValueError(f"{path}: not a shipped static file")
    if target.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES} bytes")
    return target.read_bytes()


def fetch_url(base: str):
    if not base.startswith(("http://127.", "http://localhost", "http://[::1]")):
        raise ValueError("--url must be a loopback address (http://127.0.0.1:PORT)")

    def fetch(path: str) -> bytes:
        with urllib.request.urlopen(base.rstrip("/") + path, timeout=10) as r:
            return r.read(MAX_BYTES + 1)
    return fetch


def load(page: str, fetch) -> dict[str, bytes]:
    """``{path: content}`` of the page and every part it loads."""
    html = fetch(page)
    parser = _Parts()
    parser.feed(html.decode("utf-8"))
    parts = {page: html}
    for path in parser.paths:
        parts[path] = fetch(path)
    return parts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="measure a running console (loopback) instead of the files")
    p.add_argument("--bar-kb", type=int, default=200, help="the console's bar (default 200)")
    args = p.parse_args(argv)
    fetch = fetch_url(args.url) if args.url else fetch_file
    totals = {}
    for name, page in PAGES.items():
        parts = load(page, fetch)
        totals[name] = sum(len(b) for b in parts.values())
        zipped = sum(len(gzip.compress(b, 9)) for b in parts.values())
        print(f"{name} ({page}): {totals[name]:,} bytes, {zipped:,} gzipped")
        for path, content in parts.items():
            print(f"    {path}: {len(content):,}")
    bar = args.bar_kb * 1000
    console, peer = totals["console"], totals["public page"]
    print(f"console / public page: {console / peer:.2f}x")
    print(f"console / bar ({args.bar_kb} kB): {console / bar:.3f}  "
          f"{'within the bar' if console <= bar else 'OVER THE BAR'}")
    return 0 if console <= bar else 1


if __name__ == "__main__":
    sys.exit(main())
