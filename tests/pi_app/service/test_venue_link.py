"""A live table joining its venue (pi_app/service/venue_link.py): ``pokertable run`` with
``[venue]`` and mocked devices, driven by a test acting as the director through a real
Mosquitto: its commands are applied and answered, the public view is retained, and after
a restart the table reports resumed and sends again nothing the director acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from pi_app.venue.broker import LocalBroker
from pi_app.venue.messages import Go
from pi_app.venue.node import report_topic
from tests.pi_app.sim.venue_harness import (
    NIGHT,
    ROOT_DIR,
    WAIT,
    Observer,
    TestDirector,
    joined_nights,
    load,
    write_venue,
)
from tests.ports import free_port


def _start(config):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([sys.executable, "-m", "pi_app.cli.main", "run", "--config",
                             str(config)], cwd=ROOT_DIR, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(config.with_suffix(".log"), "ab"),
                            start_new_session=True)


def _over_journaled(journal) -> bool:
    import json
    import sqlite3

    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return any(json.loads(d).get("kind") == "over"
                   for (d,) in db.execute("SELECT data FROM events"))


def _stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


@pytest.fixture
def live(tmp_path):
    path, users = write_venue(tmp_path / "venue", tables=2, seats=6)
    port = free_port()
    path.write_text(f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n' + path.read_text())
    broker = LocalBroker(load(path), tmp_path / "broker", port=port).start()
    config = tmp_path / "table.toml"
    config.write_text(f'[seats]\ncount = 6\n[venue]\nfile = "{path}"\ntable = 1\n'
                      f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    director = TestDirector(broker.url, users["director"])
    procs: list[subprocess.Popen] = []
    yield config, broker, director, procs, users["director"]
    for p in procs:
        _stop(p)
    director.close()
    broker.stop()


def test_a_live_table_applies_the_directors_commands_and_resends_only_the_unacknowledged(
        live):
    config, broker, director, procs, password = live
    procs.append(_start(config))
    for i, chips in enumerate((9000, 8000, 7000), 1):
        cmd = director.seat(f"P0{i}", i, chips, for_hand=0)
        assert director.answered(cmd).kind == "applied"
    refused = director.answered(director.send(Go(5), for_hand=0))
    assert refused.kind == "refused" and "the next hand is 1" in refused.body.reason
    director.wait_any(("applied",), command=director.go(1))
    go = director.seq
    deadline = time.monotonic() + WAIT
    while not any(p.applied == go for p in director.publics):
        assert time.monotonic() < deadline, "no public view with the go applied"
        director.pump()
    acked = director.reports[-1].seq
    director.acknowledge(upto=acked)
    _stop(procs.pop())
    observer = Observer(broker.url, password, report_topic(1))
    try:
        procs.append(_start(config))
        assert director.wait("resumed").body.hand == 0
        cmd = director.seat("P04", 4, 6000, for_hand=0, reason="late_entry")
        assert director.answered(cmd).kind == "applied"
        copies = observer.seqs()
    finally:
        observer.close()
    assert copies and min(copies) > acked
    assert joined_nights(config.parent / "state" / "journal.db") == [NIGHT]  # kept: once


def test_a_live_table_of_a_night_that_is_over_says_so_once_while_another_runs(live):
    from pi_app.venue.link import VenueLink
    from pi_app.venue.messages import Envelope, VenueState, encode
    from pi_app.venue.node import STATE_TOPIC

    config, broker, director, procs, password = live
    procs.append(_start(config))
    cmd = director.seat("P01", 1, 9000, for_hand=0)
    assert director.answered(cmd).kind == "applied"
    director.acknowledge(finished=True)
    journal = config.parent / "state" / "journal.db"
    deadline = time.monotonic() + WAIT
    while not _over_journaled(journal) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _over_journaled(journal)  # the table knows, from its journal, its night is over
    _stop(procs.pop())  # last night is over; tonight's director has started
    tonight = "20261202-00000000000000bb"
    boss = VenueLink(broker.url, client_id="tonight", username="director", password=password,
                     subscriptions=(), put=lambda _e: None).start()
    assert boss.wait_connected(WAIT)
    running = Envelope("director", 1, VenueState(0, (), (), (), (), (), 0, False),
                       night=tonight)
    assert boss.wait_acknowledged(boss.publish(STATE_TOPIC, encode(running), retain=True),
                                  WAIT)
    boss.close()
    procs.append(_start(config))
    log = config.with_suffix(".log")
    deadline = time.monotonic() + WAIT
    while "new state folder" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)  # more retained copies would be said again by now
    said = [ln for ln in log.read_text().splitlines() if "new state folder" in ln]
    assert len(said) == 1 and NIGHT in said[0] and tonight in said[0]
    assert joined_nights(config.parent / "state" / "journal.db") == [NIGHT]


def test_the_directors_state_reaches_the_tv_and_public_view_before_the_next_event():
    """The director's state (a move announced at a bust) is taken on the broker's thread
    and changes no journaled state: the link asks the loop to draw and publish it at once
    (a view call), not at the next event or clock tick, up to a second later."""
    from types import SimpleNamespace

    from pi_app.service.venue_link import VenueJoin
    from pi_app.venue.messages import Envelope, VenueState
    from pi_app.venue.node import STATE_TOPIC, Delivered

    calls: list = []
    taken: list = []
    link = VenueJoin.__new__(VenueJoin)
    link.service = SimpleNamespace(
        clock=SimpleNamespace(now=lambda: 1.0),
        loop=SimpleNamespace(put=lambda e: calls.append(("put", e)),
                             call_soon=lambda fn: calls.append(("view", fn))))
    link.table = SimpleNamespace(on_delivered=lambda d, t, m: taken.append(d))
    state = Envelope("director", 3, VenueState(0, (), (), (), (), (), 0, False), night=NIGHT)
    link._on_node(Delivered(STATE_TOPIC, state, retained=False))
    assert len(taken) == 1 and [kind for kind, _ in calls] == ["view"]
    assert calls[0][1] == link._refresh  # publish the public view, then the loop draws
