"""Pairing a phone on a real table service: the code opened by the director (``ctl pair``)
gives one director token; wrong codes are limited (429); a page on the WebSocket gets its
role's documents after sending a valid token, an error otherwise; the pairing code is never
in a public document."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.pi_app.console.table_process import Table


def _ws_after_token(port: int, token: str) -> list[dict]:
    async def run() -> list[dict]:
        async with websockets.connect(f"ws://127.0.0.1:{port}/api/ws") as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await ws.send(json.dumps({"token": token}))
            second = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return [first, second]
    return asyncio.run(run())


def test_pair_a_phone_then_rate_limit(tmp_path):
    table = Table(tmp_path).start()
    try:
        out = table.ctl("pair", "--json")
        assert out.returncode == 0, out.stderr
        opened = json.loads(out.stdout)
        code = opened["code"]
        assert opened["url"] == f"http://127.0.0.1:{table.port}/console#pair={code}"
        status, doc = table.get("/api/status")
        assert code not in json.dumps(doc)  # the code is on the TV, not on public pages
        status, paired = table.post("/api/pair", {"code": code.lower()})
        assert status == 200 and paired["role"] == "director"
        assert table.post("/api/register", {"name": "Ann"}, token=paired["token"])[0] == 200
        assert table.post("/api/pair", {"code": code}) == (
            401, {"error": "wrong or expired pairing code"})  # one pairing per code
        first, second = _ws_after_token(table.port, paired["token"])
        assert first["role"] == "public" and "console" not in first
        assert second["role"] == "director" and second["console"]["waiting"] == ["Ann"]
        _, bad = _ws_after_token(table.port, "not-a-token")
        assert bad == {"type": "error", "status": 401,
                       "error": "unknown, expired or revoked token"}
        answers = [table.post("/api/pair", {"code": "WRONG1"})[0] for _ in range(7)]
        assert answers[:4] == [401] * 4 and answers[-1] == 429
        new_code = json.loads(table.ctl("pair", "--json").stdout)["code"]
        status, doc = table.post("/api/pair", {"code": new_code})
        assert (status, doc) == (429, {"error": "too many wrong pairing codes: wait a minute"})
    finally:
        table.close()
