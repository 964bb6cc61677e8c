"""The console served by a real table service on loopback (mock hardware): the pages,
``/api/status`` and the WebSocket push of the public state."""

from __future__ import annotations

import asyncio
import json
import tomllib

import pytest
import websockets

from pi_app.service.config import load_config
from tests.pi_app.console.table_process import MOCK_TABLE, Table


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path).start()
    yield t
    t.close()


def test_mock_table_config_is_nine_mocked_seats_on_loopback(tmp_path):
    cfg = load_config(MOCK_TABLE, env={"STATE_DIRECTORY": str(tmp_path)})
    assert cfg.seats == tuple(range(1, 10))
    assert set(cfg.backends.values()) == {"mock"}
    assert (cfg.tv_width, cfg.tv_height) == (1920, 1080)
    assert cfg.console is not None and cfg.console.listen == "127.0.0.1:8765"
    assert cfg.state_dir == tmp_path
    assert cfg.table_settings().players == {}  # no bots, no players until registered
    raw = tomllib.loads(MOCK_TABLE.read_text())  # no path relative to the file's folder
    assert raw["state"]["directory"] == "" and "/" not in raw["tournament"]["structure"]


def test_pages_status_and_push(table):
    for path in ("/", "/console", "/static/index.html"):
        status, body = table.get(path)
        assert status == 200 and "<html" in body, path
    status, doc = table.get("/api/status")
    assert status == 200
    assert doc["type"] == "state" and doc["role"] == "public"
    assert doc["clock"]["level"] == 1 and doc["clock"]["running"] is False
    assert doc["players"] == [] and doc["table"] == "Mock table"

    async def first_message() -> dict:
        async with websockets.connect(f"ws://127.0.0.1:{table.port}/api/ws") as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

    pushed = asyncio.run(first_message())
    assert pushed["type"] == "state" and pushed["clock"] == doc["clock"]
    assert table.stop() == 0


def test_console_refuses_a_taken_port(tmp_path):
    (tmp_path / "a").mkdir()
    first = Table(tmp_path / "a").start()
    try:
        (tmp_path / "b").mkdir()
        second = Table(tmp_path / "b")
        second.config.write_text(second.config.read_text().replace(
            f"127.0.0.1:{second.port}", f"127.0.0.1:{first.port}"))
        second.port = first.port
        with pytest.raises(AssertionError, match="cannot listen on 127.0.0.1"):
            second.start(timeout=30)
    finally:
        first.close()
