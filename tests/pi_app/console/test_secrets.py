"""Secrets across a night on a real table service: the public state (``/api/status``) and
every message pushed over ``/api/ws`` to a public page and to a director's page never
hold a hole card that was not shown; the board's cards do appear once dealt."""

from __future__ import annotations

import asyncio
import json
import threading

import websockets

from tests.pi_app.console.night import dealer_token, post_ok, state
from tests.pi_app.console.table_process import Table

HOLE_AND_BOARD = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c",  # 4 players, 2 each
                  "2c", "3d", "4s", "5h"]  # burn, flop
SECOND_HAND = ["Ah", "Ks", "Qd", "Jh", "Tc", "9s", "8d", "7h"]


class Listener:
    """A page on ``/api/ws`` in a thread, keeping every message (optionally as a role)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.url = f"ws://127.0.0.1:{port}/api/ws"
        self.token = token
        self.messages: list[str] = []
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    async def _run(self) -> None:
        async with websockets.connect(self.url) as ws:
            if self.token:
                await ws.send(json.dumps({"token": self.token}))
            self.ready.set()
            while not self.stop.is_set():
                try:
                    self.messages.append(await asyncio.wait_for(ws.recv(), 0.2))
                except TimeoutError:
                    continue

    def close(self) -> list[str]:
        self.stop.set()
        self.thread.join(30)
        return self.messages


def _cards_in(text: str, cards: list[str]) -> set[str]:
    return {c for c in cards if f'"{c}"' in text}


def test_public_and_pushed_state_never_hold_an_unshown_hole_card(tmp_path):
    table = Table(tmp_path).start()
    try:
        director = table.ctl("token", "--role", "director").stdout.strip()
        public = Listener(table.port)
        role = Listener(table.port, director)
        for name in ("Ann", "Bob", "Cyd", "Dee"):
            post_ok(table, "/api/register", {"name": name}, director)
        post_ok(table, "/api/seat-draw", {}, director)
        post_ok(table, "/api/start", {}, director)
        dealer = dealer_token(table)
        statuses = []
        post_ok(table, "/api/next-hand", {}, dealer)
        for card in HOLE_AND_BOARD[:8]:
            post_ok(table, "/api/card", {"card": card}, dealer)
            statuses.append(json.dumps(table.get("/api/status")[1]))
        while (actor := state(table, dealer)["console"]["actor"]) is not None:  # all call
            post_ok(table, "/api/call", {"seat": actor}, dealer)
        for card in HOLE_AND_BOARD[8:]:
            post_ok(table, "/api/card", {"card": card}, dealer)
        statuses.append(json.dumps(table.get("/api/status")[1]))
        while (actor := state(table, dealer)["console"]["actor"]) is not None:
            post_ok(table, "/api/fold", {"seat": actor}, dealer)
        post_ok(table, "/api/next-hand", {}, dealer)
        for card in SECOND_HAND:
            post_ok(table, "/api/card", {"card": card}, dealer)
            statuses.append(json.dumps(table.get("/api/status")[1]))
        while (actor := state(table, dealer)["console"]["actor"]) is not None:
            post_ok(table, "/api/fold", {"seat": actor}, dealer)
        director_doc = json.dumps(state(table, director))
    finally:
        pushed_public = public.close()
        pushed_role = role.close()
        table.close()
    hole = HOLE_AND_BOARD[:8] + SECOND_HAND
    assert len(pushed_public) > 10 and len(pushed_role) > 10
    assert any('"role":"director"' in m for m in pushed_role)
    for text in statuses + pushed_public + pushed_role + [director_doc]:
        assert _cards_in(text, hole) == set(), text[:300]
    flop = HOLE_AND_BOARD[9:]  # the burn card stays face down
    assert any(_cards_in(m, flop) == set(flop) for m in pushed_public)
    assert not any(_cards_in(m, [HOLE_AND_BOARD[8]]) for m in pushed_public)
