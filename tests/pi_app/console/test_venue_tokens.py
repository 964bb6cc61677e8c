"""The venue console's tokens (pi_app/console/venue.py, with the table console's code of
pi_app/console/routes.py): a new pairing code, a new token for a role, the list and a
revocation, director only; a dealer's token views and may not act; every refusal (no
token, a dealer's, another site's Origin, a revoked token, a used pairing code) changes
nothing; a restart of the director keeps a paired token and a revocation."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pi_app.console.auth import TOKENS_DB
from pi_app.console.venue import VenueConsole

EVIL = {"Origin": "http://evil.example"}


@contextmanager
def venue_console(state: Path, submitted: list[Any]) -> Iterator[tuple[VenueConsole, Any]]:
    """A venue console on ``state`` (not listening: Starlette's test client), its
    requests appended to ``submitted`` (nobody answers them)."""
    console = VenueConsole(host="127.0.0.1", port=0, state_dir=state,
                           submit=submitted.append)
    client = TestClient(console.app, base_url="http://127.0.0.1:8765")
    try:
        yield console, client
    finally:
        client.close()
        console.gate.tokens.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored(console: VenueConsole) -> list[tuple[str, str, bool]]:
    return sorted((t.id, t.role, t.revoked) for t in console.gate.tokens.tokens())


@pytest.fixture
def venue(tmp_path):
    submitted: list[Any] = []
    with venue_console(tmp_path, submitted) as (console, client):
        token, _info = console.gate.tokens.mint("director", 3600)
        yield console, client, token, submitted


def test_a_director_opens_a_new_pairing_code_and_a_used_one_pairs_no_more(venue):
    console, client, token, submitted = venue
    first, _ = console.gate.pairing.open()  # the code printed at the start
    r = client.post("/api/pair", json={"code": first})
    assert r.status_code == 200 and r.json()["role"] == "director"
    phone = r.json()["token"]
    before = stored(console)
    r = client.post("/api/pair", json={"code": first})  # the link is single use
    assert r.status_code == 401 and "wrong or expired" in r.json()["error"]
    assert client.post("/api/pairing", json={}).status_code == 401
    assert client.post("/api/pairing", json={}, headers={
        **bearer(token), **EVIL}).status_code == 403
    assert console.gate.pairing.current() is None and stored(console) == before
    r = client.post("/api/pairing", json={}, headers=bearer(phone))  # a paired director
    assert r.status_code == 200
    code = r.json()["code"]
    assert r.json()["url"] == f"http://127.0.0.1:8765/console#pair={code}"
    assert 0 < r.json()["expires_in"] <= 600
    r = client.post("/api/pair", json={"code": code.lower()})
    assert r.status_code == 200 and client.get("/api/tokens", headers=bearer(
        r.json()["token"])).status_code == 200
    assert submitted == []  # tokens are the console's: nothing went to the director


def test_a_director_mints_lists_and_revokes_and_the_refusals_change_nothing(venue):
    console, client, token, _submitted = venue
    before = stored(console)
    assert client.post("/api/tokens", json={"role": "dealer"}).status_code == 401
    assert client.post("/api/tokens", json={"role": "dealer"}, headers={
        **bearer(token), **EVIL}).status_code == 403
    r = client.post("/api/tokens", json={"role": "croupier"}, headers=bearer(token))
    assert r.status_code == 400 and "role must be one of" in r.json()["error"]
    assert client.post("/api/tokens", json={"role": "dealer", "ttl_seconds": "1h"},
                       headers=bearer(token)).status_code == 400
    assert stored(console) == before
    r = client.post("/api/tokens", json={"role": "dealer", "ttl_seconds": 600},
                    headers=bearer(token))
    assert r.status_code == 200
    dealer, dealer_id = r.json()["token"], r.json()["id"]
    listing = client.get("/api/tokens", headers=bearer(token)).json()["tokens"]
    assert {(t["id"], t["role"], t["revoked"]) for t in listing} == {
        (i, role, revoked) for i, role, revoked in stored(console)}
    assert all(set(t) == {"id", "role", "created", "expires_at", "revoked"}
               for t in listing)  # never the token itself
    assert dealer not in str(listing) and token not in str(listing)
    for refused in ({}, bearer(dealer), {**bearer(token), **EVIL}):
        r = client.post("/api/tokens/revoke", json={"id": dealer_id}, headers=refused)
        assert r.status_code in (401, 403)
    assert (dealer_id, "dealer", False) in stored(console)
    r = client.post("/api/tokens/revoke", json={"id": "nope"}, headers=bearer(token))
    assert r.status_code == 409 and "no token" in r.json()["error"]
    r = client.post("/api/tokens/revoke", json={"id": dealer_id}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["revoked"] is True
    assert (dealer_id, "dealer", True) in stored(console)
    r = client.get("/api/tokens", headers=bearer(dealer))
    assert r.status_code == 401 and r.json()["error"] == "unknown, expired or revoked token"


def test_a_dealer_views_the_room_and_may_not_act(venue):
    console, client, token, submitted = venue
    dealer, _ = console.gate.tokens.mint("dealer", 3600)
    before = stored(console)
    for path, body in (("/api/venue/register", {"name": "Ann"}), ("/api/venue/start", {}),
                       ("/api/venue/pause", {}), ("/api/venue/resume", {}),
                       ("/api/pairing", {}), ("/api/tokens", {"role": "director"})):
        r = client.post(path, json=body, headers=bearer(dealer))
        assert r.status_code == 403, path
        error = r.json()["error"]
        assert "\n" not in error and "(director only)" in error, error
    assert client.get("/api/tokens", headers=bearer(dealer)).status_code == 403
    assert submitted == [] and stored(console) == before
    console.show({"type": "state", "role": "public", "phase": "registration",
                  "entries": 0, "venue": "Club"})
    texts = console.document_texts()
    assert '"role":"dealer"' in texts["dealer"] and '"console"' not in texts["dealer"]
    with client.websocket_connect("/api/ws") as ws:
        assert ws.receive_json()["role"] == "public"
        ws.send_json({"token": dealer})
        doc = ws.receive_json()
        assert doc["role"] == "dealer" and doc["venue"] == "Club"


def test_a_restart_of_the_director_keeps_a_paired_token_and_a_revocation(tmp_path):
    submitted: list[Any] = []
    with venue_console(tmp_path, submitted) as (console, client):
        code, _ = console.gate.pairing.open()
        phone = client.post("/api/pair", json={"code": code}).json()["token"]
        r = client.post("/api/tokens", json={"role": "dealer"}, headers=bearer(phone))
        dealer, dealer_id = r.json()["token"], r.json()["id"]
        assert client.post("/api/tokens/revoke", json={"id": dealer_id},
                           headers=bearer(phone)).status_code == 200
    db = tmp_path / TOKENS_DB
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    assert phone.encode() not in db.read_bytes() and dealer.encode() not in db.read_bytes()
    with venue_console(tmp_path, submitted) as (console, client):  # the director restarted
        r = client.get("/api/tokens", headers=bearer(phone))
        assert r.status_code == 200
        assert [t["revoked"] for t in r.json()["tokens"] if t["id"] == dealer_id] == [True]
        assert client.get("/api/tokens", headers=bearer(dealer)).status_code == 401
        assert client.post("/api/venue/pause", json={}, headers=bearer(dealer)
                           ).status_code == 401
    assert submitted == []
