"""A director at a real table service with a paired phone (a Chromium page): set-up
requests over HTTP with a director's token, as ``ctl`` does; taps on the page, each
checked against the journal file (read as recovery reads it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.events import ConsoleCommand
from pi_app.service.journal import Journal
from tests.pi_app.console.browser import PHONE, chromium
from tests.pi_app.console.pages import Page
from tests.pi_app.console.table_process import Table

CARDS = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s", "Ad",
         "Kh", "Qc", "Js", "Td", "9s", "8d"]


def console_commands(journal: Path, after: int = 0) -> list[tuple[int, ConsoleCommand]]:
    """The console commands in the journal file after record ``after``: ``(seq, event)``."""
    j = Journal.open_readonly(journal)
    try:
        return [(seq, ev) for seq, ev in j.events(after) if isinstance(ev, ConsoleCommand)]
    finally:
        j.close()


class Director:
    """The table, its director's phone (a Chromium page) and a token for set-up requests."""

    def __init__(self, table: Table, page: Page) -> None:
        self.table, self.page = table, page
        self.token = table.ctl("token", "--role", "director").stdout.strip()
        self.mark = 0

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        status, answer = self.table.post(path, body or {}, token=self.token)
        assert status == 200, (path, body, answer)
        return answer

    def state(self) -> dict[str, Any]:
        status, doc = self.table.get("/api/state", token=self.token)
        assert status == 200, doc
        return doc

    def pair(self) -> None:
        p = self.page.open("/console")
        p.wait(lambda: p.visible("pair-view"), "the pairing form is shown")
        p.d.execute_script("document.querySelector('#pair-view details').open = true")
        p.type("token-input", self.token)
        p.find("token-go").click()
        p.wait_text("role", "director")

    def seat(self, names: list[str], *, start: str = "/api/start") -> list[int]:
        for name in names:
            self.post("/api/register", {"name": name})
        self.post("/api/seat-draw")
        if start:
            self.post(start)
        return sorted(p["seat"] for p in self.state()["players"] if p["name"] in names)

    def tap(self, id_: str, *, taps: int = 1, expect: str = "Done") -> str:
        """Tap a button on the page; remember where the journal was before."""
        self.mark = self.last_seq()
        return self.page.act(id_, taps=taps, expect=expect)

    def last_seq(self) -> int:
        j = Journal.open_readonly(self.table.state / "journal.db")
        try:
            return j.last_seq
        finally:
            j.close()

    def journaled(self, command: str, journal: Path | None = None) -> dict[str, Any]:
        """The one console command journaled since the last tap: its ``args``; asserts
        its name, and that it was sent by the director's token."""
        path = journal or self.table.state / "journal.db"
        got = console_commands(path, self.mark if journal is None else 0)
        if journal is not None:
            got = got[-1:]
        assert [ev.command for _, ev in got] == [command], got
        ev = got[0][1]
        assert ev.role == "director" and ev.token and ev.at.endswith("Z")
        return dict(ev.args)


def deal_to(d: Director, until: str) -> None:
    """NEXT HAND, then cards keyed and every seat checking or calling, until ``until``:
    ``"action"`` (a seat to act) or ``"showdown"``."""
    d.post("/api/next-hand")
    cards = iter(CARDS)
    for _ in range(80):
        c = d.state()["console"]
        table = d.state()["screen"]["table"]
        if until == "action" and c["actor"] is not None:
            return
        if until == "showdown" and table and table["street"] == "showdown" \
                and c["actor"] is None:
            return
        if c["actor"] is not None:
            d.post("/api/call", {"seat": c["actor"]})
        else:
            d.post("/api/card", {"card": next(cards)})
    raise AssertionError(f"the hand never reached {until}")


@contextmanager
def paired(folder: Path, **replace: str) -> Iterator[Director]:
    """A table started in ``folder`` (``replace``: changes to the mock table's config) and
    its director's phone, paired; both closed on exit."""
    table = Table(folder, **replace).start()
    try:
        with chromium(PHONE) as driver:
            d = Director(table, Page(driver, table.base))
            d.pair()
            yield d
    finally:
        table.close()
