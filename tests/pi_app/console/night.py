"""The league night of issue 10, step by step, through ``pokertable ctl`` and HTTP on a real
table service (:class:`tests.pi_app.console.table_process.Table`).  Each step checks what it did;
the night's script is data: tests/data/console/night.json."""

from __future__ import annotations

import json
from typing import Any

from tests.data_paths import data
from tests.pi_app.console.table_process import Table

SCRIPT = data("console", "night.json")


def load_script() -> dict[str, Any]:
    return json.loads(SCRIPT.read_text())


def ctl_ok(table: Table, *args: str) -> str:
    r = table.ctl(*args)
    assert r.returncode == 0, f"ctl {args}: {r.stderr}"
    return r.stdout


def ctl_json(table: Table, *args: str) -> Any:
    return json.loads(ctl_ok(table, *args, "--json"))


def dealer_token(table: Table) -> str:
    return ctl_ok(table, "token", "--role", "dealer").strip()


def post_ok(table: Table, path: str, body: Any, token: str) -> dict[str, Any]:
    status, doc = table.post(path, body, token=token)
    assert status == 200, f"{path} {body}: {status} {doc}"
    return doc


def state(table: Table, token: str) -> dict[str, Any]:
    status, doc = table.get("/api/state", token=token)
    assert status == 200, doc
    return doc


def register_and_start(table: Table, names: list[str]) -> None:
    """Step 1: the walk-ins registered, seats drawn, the tournament started."""
    for name in names:
        assert "waits for the seat draw" in ctl_ok(table, "register", name)
    drawn = ctl_ok(table, "seat-draw")
    assert all(name in drawn for name in names)
    ctl_ok(table, "start")
    status = ctl_json(table, "status")
    assert sorted(status["registered"]) == sorted(names)
    assert status["clock"]["level"] == 1 and status["clock"]["running"] is True


def deal_hole_cards(table: Table, dealer: str, cards: list[str]) -> None:
    """NEXT HAND, then the hole cards keyed by the dealer (the shoe of a mock table has no
    one drawing from it)."""
    post_ok(table, "/api/next-hand", {}, dealer)
    for card in cards:
        if state(table, dealer)["console"]["actor"] is not None:
            return
        post_ok(table, "/api/card", {"card": card}, dealer)
    assert state(table, dealer)["console"]["actor"] is not None


def exact_bet_then_folds(table: Table, dealer: str, amount: int) -> int:
    """Step 3: the seat to act bets exactly ``amount`` (not a step of the keys), everyone
    else folds; returns the betting seat."""
    doc = state(table, dealer)
    assert (doc["clock"]["small_blind"], doc["clock"]["big_blind"]) == (100, 200)
    seat = doc["console"]["actor"]
    assert doc["console"]["legal"]["min_raise_to"] < amount
    ctl_ok(table, "bet", str(seat), str(amount))
    screen = state(table, dealer)["screen"]["table"]
    assert any(s["seat"] == seat and s["bet"] == amount for s in screen["seats"])
    while (actor := state(table, dealer)["console"]["actor"]) is not None:
        post_ok(table, "/api/fold", {"seat": actor}, dealer)
    assert state(table, dealer)["console"]["in_hand"] is False
    return seat


def overridden_ruling(table: Table, dealer: str, cards: list[str], note: str) -> None:
    """Step 5c: the first card of a deal exposed, the misdeal ruling overridden by the floor
    with a note (the deal goes on), then the hand played out by folds."""
    post_ok(table, "/api/next-hand", {}, dealer)
    post_ok(table, "/api/card", {"card": cards[0]}, dealer)
    post_ok(table, "/api/declare", {"kind": "exposed_card"}, dealer)
    ruling = state(table, dealer)["console"]["ruling"]
    assert ruling is not None and ruling["status"] == "advisory", ruling
    assert ruling["rule"].startswith("TDA")
    doc = post_ok(table, "/api/ruling/override", {"note": note}, dealer)
    assert doc["detail"] == f"ruling overridden ({note})"
    for card in cards[1:]:
        if state(table, dealer)["console"]["actor"] is not None:
            break
        post_ok(table, "/api/card", {"card": card}, dealer)
    while (actor := state(table, dealer)["console"]["actor"]) is not None:
        post_ok(table, "/api/fold", {"seat": actor}, dealer)
    assert state(table, dealer)["console"]["in_hand"] is False


def first_half(table: Table, script: dict[str, Any]) -> tuple[str, int]:
    """Steps 1 to 4: registration, the exact bet in hand 1, a stack correction.  Returns
    the dealer's token and the corrected seat."""
    register_and_start(table, script["walk_ins"])
    dealer = dealer_token(table)
    deal_hole_cards(table, dealer, script["cards"])
    seat = exact_bet_then_folds(table, dealer, script["exact_bet"])
    before = {p["seat"]: p["chips"] for p in ctl_json(table, "status")["players"]}[seat]
    fix = script["correction"]
    to = before + fix["chips_delta"]
    out = ctl_ok(table, "stack", str(seat), str(to), fix["reason"])
    assert f"{before} -> {to}" in out
    audit = ctl_json(table, "audit")["audit"][-1]
    assert audit["command"] == "stack" and audit["role"] == "director" and audit["at"]
    assert f"{before} -> {to}" in audit["detail"] and fix["reason"] in audit["detail"]
    return dealer, seat


def second_half(table: Table, script: dict[str, Any], dealer: str) -> dict[str, Any]:
    """Steps 2 and 5 to 6: a late entry at level 2 with its deduction, a mistaken bust
    undone, time added, a ruling overridden, the end; returns ``results --json``."""
    ctl_ok(table, "jump-level", str(script["late_level"]))
    name = script["late_entry"]
    shown = ctl_ok(table, "late-entry", name)
    preview = ctl_json(table, "late-entry", name)
    assert preview["open"] and preview["level"] == script["late_level"]
    assert preview["deduction"] > 0 and str(preview["chips"]) in shown
    ctl_ok(table, "late-entry", name, "--chips", str(preview["chips"]))
    players = {p["name"]: p for p in ctl_json(table, "status")["players"]}
    assert players[name]["chips"] == preview["chips"]
    victim = players[script["walk_ins"][2]]
    ctl_ok(table, "eliminate", str(victim["seat"]))
    assert {p["name"]: p for p in ctl_json(table, "status")["players"]}[
        victim["name"]]["status"] == "out"
    ctl_ok(table, "undo-elimination")
    back = {p["name"]: p for p in ctl_json(table, "status")["players"]}[victim["name"]]
    assert back["status"] == "in" and back["chips"] == victim["chips"]
    left = ctl_json(table, "status")["clock"]["remaining_seconds"]
    ctl_ok(table, "add-time", str(script["add_time"]))
    assert ctl_json(table, "status")["clock"]["remaining_seconds"] > left + script[
        "add_time"] // 2
    overridden_ruling(table, dealer, script["second_hand_cards"], script["ruling_note"])
    return finish(table)


def finish(table: Table) -> dict[str, Any]:
    """Step 6: players out one by one (the shortest stack first) until one is left; the
    results exported as CSV and JSON.  Each is knocked out by the biggest stack: the
    knockouts are in the results; late registration is closed once it is over."""
    knocked = 0
    while True:
        status = ctl_json(table, "status")
        ins = sorted((p for p in status["players"] if p["status"] == "in"),
                     key=lambda p: (p["chips"], p["seat"]))
        if len(ins) < 2:
            break
        out = ctl_ok(table, "eliminate", str(ins[0]["seat"]), "--by", str(ins[-1]["seat"]))
        assert f"knocked out by seat {ins[-1]['seat']}" in out
        knocked += 1
    results = ctl_json(table, "results")
    assert results["finished"] is True
    assert sum(r["knockouts"] for r in results["results"]) == knocked
    clock = ctl_json(table, "status")["screen"]["clock"]
    assert clock["late_registration_open"] is False
    assert not any("Late registration" in n for n in clock["notices"])
    csv_text = ctl_ok(table, "results", "--csv")
    (table.folder / "results.csv").write_text(csv_text)
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("place,name,seat") and len(lines) == 1 + len(results["results"])
    return results
