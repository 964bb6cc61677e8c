"""A whole simulated venue of two tables through a real Mosquitto (the director and each
table a process of its own) plays to a winner, and a subscriber to ``#`` sees no hole
card that was not shown: every card of a hand's hole cards that reaches the broker was
tabled at that hand's showdown (the public hand history says so)."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
from pathlib import Path

from pi_app.venue.broker import LocalBroker
from pi_app.venue.link import Received, VenueLink
from tests.pi_app.sim.venue_harness import ROOT_DIR, WAIT, TableProcess, load, write_venue
from tests.ports import free_port

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
DEALT = re.compile(r"'d dh p(\d+) ([2-9TJQKA][cdhs])([2-9TJQKA][cdhs])'")
SHOWN = re.compile(r"'p(\d+) sm ([2-9TJQKA][cdhs])([2-9TJQKA][cdhs])'")


def _histories(folder: Path, pattern: re.Pattern[str]) -> dict[int, dict[str, set[str]]]:
    """Hand number -> player -> the two cards ``pattern`` finds in each history."""
    out: dict[int, dict[str, set[str]]] = {}
    for path in folder.glob("hand-*.phh"):
        text = path.read_text()
        players = json.loads(re.search(r"^players = (.*)$", text, re.M).group(1)
                             .replace("'", '"'))
        hand = int(re.search(r"^hand = (\d+)$", text, re.M).group(1))
        out[hand] = {players[int(p) - 1]: {a, b} for p, a, b in pattern.findall(text)}
    return out


def _venue(tmp: Path) -> tuple[Path, str]:
    path, users = write_venue(tmp / "venue", tables=2, seats=6)
    port = free_port()
    text = path.read_text().replace("[tournament]\n", "[tournament]\nbreak_order = [1, 2]\n")
    path.write_text(f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n' + text)
    return path, users["director"]


def test_a_two_table_venue_plays_to_a_winner_and_no_unshown_hole_card_is_published(tmp_path):
    path, password = _venue(tmp_path)
    venue = load(path)
    broker = LocalBroker(venue, tmp_path / "broker", port=venue.broker_port).start()
    seen: queue.Queue[object] = queue.Queue()
    spy = VenueLink(broker.url, client_id="pokertable-spy", username="director",
                    password=password, subscriptions=("#",), put=seen.put).start()
    tables: list[TableProcess] = []
    director = None
    try:
        assert spy.wait_ready(WAIT)
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        director = subprocess.Popen(
            [sys.executable, "-m", "pi_app.cli.main", "director", "--config", str(path),
             "--sim-players", "8", "--seed", "2", "--state-dir", str(tmp_path / "dir"),
             "--timeout", "400", "--rounds"], cwd=ROOT_DIR, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        tables = [TableProcess(path, tmp_path / f"t{n}.db", broker.url, table=n, seed=2)
                  for n in (1, 2)]
        out, _ = director.communicate(timeout=420)
        assert director.returncode == 0
        result = json.loads(out.decode().strip().splitlines()[-1])
        for t in tables:
            t.finish()
    finally:
        for t in tables:
            t.kill()
        if director is not None and director.poll() is None:
            director.kill()
        spy.close()
        broker.stop()
    assert sorted(result["places"]) == [f"P{i:02d}" for i in range(1, 9)]
    assert sorted(result["places"].values())[0] == 1 and result["tables_broken"] == 1
    messages = []
    while not seen.empty():
        ev = seen.get()
        if isinstance(ev, Received):
            messages.append(ev)
    publics = [m for m in messages if m.topic.endswith("/public")]
    assert any(json.loads(m.payload)["body"]["shown"] for m in publics)  # showdowns came
    for m in messages:
        if not m.topic.endswith("/public"):
            assert not CARD.findall(m.payload.decode()), m.topic  # no card anywhere else
    for n in (1, 2):
        dealt = _histories(tmp_path / f"t{n}-hands", DEALT)
        shown = _histories(tmp_path / f"t{n}-hands" / "public", SHOWN)
        assert dealt
        for m in (x for x in publics if x.topic.endswith(f"/table/{n}/public")):
            body = json.loads(m.payload)["body"]
            holes = {c for cards in dealt.get(body["hand"], {}).values() for c in cards}
            tabled = {c for cards in shown.get(body["hand"], {}).values() for c in cards}
            published = set(CARD.findall(json.dumps(body)))
            assert published & holes <= tabled, (n, body["hand"])
