"""What each role's pushed document holds, on a real table service: the dealer, who may not
read the audit list (``GET /api/audit``: 403), gets no audit lines pushed either, nor in
``GET /api/state``; the director gets them in both."""

from __future__ import annotations

import json
import time

from tests.pi_app.console.table_process import Table
from tests.pi_app.console.test_secrets import Listener


def role_docs(messages: list[str], role: str) -> list[dict]:
    docs = [json.loads(m) for m in messages]
    return [d for d in docs if d.get("type") == "state" and d.get("role") == role]


def wait_for(predicate, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_the_dealer_gets_no_audit_lines_pushed_or_read(tmp_path):
    table = Table(tmp_path).start()
    try:
        director = table.ctl("token", "--role", "director").stdout.strip()
        dealer = table.ctl("token", "--role", "dealer").stdout.strip()
        for name in ("Ann", "Bob"):
            assert table.post("/api/register", {"name": name}, token=director)[0] == 200
        assert table.post("/api/seat-draw", {}, token=director)[0] == 200
        first = table.get("/api/status")[1]["players"][0]
        seat, name = first["seat"], first["name"]
        assert table.post("/api/stack", {"seat": seat, "chips": 6000, "reason": "recount zz9"},
                          token=director)[0] == 200
        director_page, dealer_page = Listener(table.port, director), Listener(table.port, dealer)
        wait_for(lambda: role_docs(director_page.messages, "director")
                 and role_docs(dealer_page.messages, "dealer"), "no role document pushed")
        assert table.post("/api/stack", {"seat": seat, "chips": 5900, "reason": "recount yy8"},
                          token=director)[0] == 200
        wait_for(lambda: len(role_docs(dealer_page.messages, "dealer")) >= 2
                 and any("recount yy8" in m for m in director_page.messages),
                 "the correction was not pushed to both pages")
        directors = role_docs(director_page.close(), "director")
        dealers = role_docs(dealer_page.close(), "dealer")
        assert [a["detail"] for a in directors[-1]["console"]["audit"][-2:]] == [
            f"seat {seat} {name}: 6300 -> 6000 (recount zz9)",
            f"seat {seat} {name}: 6000 -> 5900 (recount yy8)"]
        chips = {p["seat"]: p["chips"] for p in dealers[-1]["players"]}
        assert chips[seat] == 5900  # the dealer's page follows
        for doc in dealers:
            assert "audit" not in doc["console"], doc["console"].keys()
            assert "recount" not in json.dumps(doc)
        status, doc = table.get("/api/state", token=dealer)
        assert status == 200 and "audit" not in doc["console"] and "recount" not in json.dumps(doc)
        assert table.get("/api/audit", token=dealer)[0] == 403
        status, doc = table.get("/api/state", token=director)
        assert status == 200 and "recount yy8" in doc["console"]["audit"][-1]["detail"]
    finally:
        table.close()


def test_a_page_whose_token_is_revoked_gets_no_more_of_its_roles_state(tmp_path):
    table = Table(tmp_path).start()
    try:
        director = table.ctl("token", "--role", "director").stdout.strip()
        status, lost = table.post("/api/tokens", {"role": "director"}, token=director)
        assert status == 200
        for name in ("Ann", "Bob"):
            assert table.post("/api/register", {"name": name}, token=director)[0] == 200
        phone = Listener(table.port, lost["token"])  # the lost phone, still connected
        wait_for(lambda: role_docs(phone.messages, "director"), "no director document")
        assert table.post("/api/tokens/revoke", {"id": lost["id"]}, token=director)[0] == 200
        wait_for(lambda: any('"status": 401' in m for m in phone.messages),
                 "the revoked page was not told")
        assert table.post("/api/seat-draw", {}, token=director)[0] == 200
        wait_for(lambda: any("Seat draw" in m for m in phone.messages[-1:]), "no push after")
        messages = phone.close()
        told = next(i for i, m in enumerate(messages) if '"status": 401' in m)
        after = [json.loads(m) for m in messages[told + 1:]]
        assert after and all(d["role"] == "public" and "console" not in d for d in after)
        assert "seat_draw" not in "".join(messages[told + 1:])  # no audit line either
    finally:
        table.close()
