"""An undo is itself a journaled command: on a real table service, an undone elimination and
an undone player action each leave their own journal record (role, token, time), and a
service killed (SIGKILL) right after them replays the journal to the same table."""

from __future__ import annotations

from typing import Any

from tests.pi_app.console.director import CARDS, console_commands
from tests.pi_app.console.table_process import Table


def ok(table: Table, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    status, answer = table.post(path, body, token=token)
    assert status == 200, (path, body, answer)
    return answer


def table_now(table: Table, token: str) -> dict[str, Any]:
    """What an undo changes, as the director's document says it: players, results, the
    seat to act and its amounts, the bets and stacks of the hand, the audit."""
    status, doc = table.get("/api/state", token=token)
    assert status == 200, doc
    c, hand = doc["console"], doc["screen"]["table"]
    return {"players": doc["players"], "results": doc["results"], "actor": c["actor"],
            "legal": c["legal"], "in_hand": c["in_hand"],
            "bets": hand and {s["seat"]: (s["bet"], s["stack"]) for s in hand["seats"]},
            "audit": [(a["command"], a["detail"]) for a in c["audit"]]}


def test_undos_are_journaled_and_a_restart_replays_them(tmp_path):
    table = Table(tmp_path).start()
    try:
        director = table.ctl("token", "--role", "director").stdout.strip()
        for name in ("Ann", "Bob", "Cyd"):
            ok(table, "/api/register", {"name": name}, director)
        ok(table, "/api/seat-draw", {}, director)
        ok(table, "/api/start", {}, director)
        seat = table.get("/api/status")[1]["players"][0]["seat"]
        ok(table, "/api/eliminate", {"seat": seat}, director)
        undone = ok(table, "/api/undo-elimination", {}, director)
        ok(table, "/api/next-hand", {}, director)
        cards = iter(CARDS)
        while (actor := table_now(table, director)["actor"]) is None:
            ok(table, "/api/card", {"card": next(cards)}, director)
        ok(table, "/api/call", {"seat": actor}, director)
        before_undo = table_now(table, director)
        assert before_undo["actor"] != actor
        last = ok(table, "/api/undo", {}, director)
        now = table_now(table, director)
        assert now["actor"] == actor and now["bets"] != before_undo["bets"]

        journaled = {ev.command: (seq, ev) for seq, ev in
                     console_commands(table.state / "journal.db")}
        for command, answer in (("undo_elimination", undone), ("undo", last)):
            seq, ev = journaled[command]
            assert seq == answer["seq"] and ev.role == "director" and ev.token
            assert ev.at.endswith("Z") and ev.args == {}
        assert journaled["eliminate"][0] < journaled["undo_elimination"][0]
        assert journaled["call"][0] < journaled["undo"][0]

        table.kill()
        table.start()
        assert table_now(table, director) == now
    finally:
        table.close()
