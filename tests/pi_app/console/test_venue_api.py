"""The venue console's API (pi_app/console/venue.py) with the table console's rules, in
front of a real registration desk (pi_app/venue/desk.py) on its own thread: who asks
first (401), then the origin (403), the role (403), the type (415) and the body (400);
then the desk's answer (400 for a name it cannot take as written, 409 for one taken); a
refusal journals nothing."""

from __future__ import annotations

import threading

import pytest
from starlette.testclient import TestClient

from engine.tournament.structure_file import load_structure
from pi_app.console.venue import VenueConsole
from pi_app.venue.desk import Desk
from pi_app.venue.director_journal import DirectorJournal


@pytest.fixture
def desk_console(tmp_path):
    ready = threading.Event()
    holder: dict = {}

    def run() -> None:  # SQLite: the journal stays on the thread that opened it
        desk = Desk(DirectorJournal(tmp_path / "director.sqlite3"), load_structure("mini"), 4)
        holder["desk"] = desk
        ready.set()
        holder["players"] = desk.run(timeout=60)
        desk.journal.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    console = VenueConsole(host="127.0.0.1", port=0, state_dir=tmp_path,
                           submit=holder["desk"].events.put)
    token, _info = console.gate.tokens.mint("director", 3600)
    client = TestClient(console.app, base_url="http://127.0.0.1:8765")
    yield client, token, holder, thread
    if thread.is_alive():  # a test that did not start the night: start it, so the desk ends
        auth = {"Authorization": f"Bearer {token}"}
        for name in ("End1", "End2"):
            client.post("/api/venue/register", json={"name": name}, headers=auth)
        client.post("/api/venue/start", json={}, headers=auth)
        thread.join(10)
    assert not thread.is_alive()
    client.close()
    console.gate.tokens.close()


def test_registration_through_the_api_and_its_refusals(desk_console, tmp_path):
    client, token, holder, thread = desk_console
    auth = {"Authorization": f"Bearer {token}"}
    url = "/api/venue/register"
    assert client.post(url, json={"name": "Ann"}).status_code == 401
    assert client.post(url, json={"name": "Ann"}, headers={
        "Authorization": "Bearer not-a-token"}).status_code == 401
    assert client.post(url, json={"name": "Ann"}, headers={
        **auth, "Origin": "http://evil.example"}).status_code == 403
    assert client.post(url, content=b"name=Ann", headers={
        **auth, "Content-Type": "application/x-www-form-urlencoded"}).status_code == 415
    r = client.post(url, json={"name": "Ann", "chips": 9}, headers=auth)
    assert r.status_code == 400 and "unknown field" in r.json()["error"]
    r = client.post(url, json={"name": "Ann\u202e"}, headers=auth)
    assert r.status_code == 400 and "bidi" in r.json()["error"]
    assert client.post("/api/venue/start", json={}, headers=auth).status_code == 409
    for what in ("pause", "resume"):  # the director's clock: same rules, none before start
        assert client.post(f"/api/venue/{what}", json={}).status_code == 401
        assert client.post(f"/api/venue/{what}", json={}, headers={
            **auth, "Origin": "http://evil.example"}).status_code == 403
        assert client.post(f"/api/venue/{what}", json={"now": 1},
                           headers=auth).status_code == 400
        r = client.post(f"/api/venue/{what}", json={}, headers=auth)
        assert r.status_code == 409 and "has not started" in r.json()["error"]
    r = client.post(url, json={"name": "Ann"}, headers=auth)
    assert r.status_code == 200 and r.json() == {
        "ok": True, "name": "Ann", "chips": load_structure("mini").starting_stack}
    r = client.post(url, json={"name": "ANN"}, headers=auth)
    assert r.status_code == 409 and "already entered" in r.json()["error"]
    assert holder["desk"].players == ["Ann"]  # the refusals journaled nothing
    assert client.post(url, json={"name": "Bob"}, headers=auth).status_code == 200
    r = client.post("/api/venue/start", json={}, headers=auth)
    assert r.status_code == 200 and r.json() == {"ok": True, "players": 2}
    thread.join(10)
    assert holder["players"] == ["Ann", "Bob"]
    journal = DirectorJournal(tmp_path / "director.sqlite3")
    try:
        assert journal.registered() == ["Ann", "Bob"]
    finally:
        journal.close()


def test_the_room_pages_are_served_to_anyone(desk_console):
    client, _token, _holder, _thread = desk_console
    for path in ("/", "/table/2"):
        r = client.get(path)
        assert r.status_code == 200 and "venue.js" in r.text
    assert client.get("/api/nothing").json()["error"].startswith("no such path")
