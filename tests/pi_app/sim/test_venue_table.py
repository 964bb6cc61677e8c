"""A simulated venue table (pi_app/sim/venue_table.py) as a process of its own, driven by
a test acting as the director through a real Mosquitto: hands only on go, seats and moves
with their chips, a break, a SIGKILL and resume, the broker killed and restarted."""

from __future__ import annotations

import json
import time

import pytest

from pi_app.venue.broker import LocalBroker
from pi_app.venue.messages import SeatPlayer
from pi_app.venue.node import command_topic, report_topic
from tests.pi_app.sim.venue_harness import (
    NIGHT,
    Observer,
    TableProcess,
    TestDirector,
    joined_nights,
    load,
    write_venue,
)
from tests.ports import free_port

CHIPS = {"P01": 20000, "P02": 15000, "P03": 10000, "P04": 5000}


@pytest.fixture
def venue(tmp_path):
    path, users = write_venue(tmp_path / "venue")
    broker = LocalBroker(load(path), tmp_path / "broker", port=free_port()).start()
    director = TestDirector(broker.url, users["director"])
    tables: list[TableProcess] = []
    yield path, broker, director, tables, tmp_path
    for t in tables:
        t.kill()
    director.close()
    broker.stop()


def _draw(director: TestDirector) -> None:
    for i, (player, chips) in enumerate(CHIPS.items(), 1):
        cmd = director.seat(player, i, chips, for_hand=0)
        assert director.answered(cmd).kind == "applied"


def _hand(director: TestDirector, hand: int):
    director.go(hand)
    director.wait("hand_started", hand=hand)
    return director.wait("hand_finished", hand=hand)


def _records(journal) -> int:
    import sqlite3

    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def _chips(finished) -> dict[str, int]:
    return dict(finished.body.chips)


def test_a_table_deals_on_go_seats_and_moves_players_with_their_chips_and_breaks(venue):
    path, broker, director, tables, tmp = venue
    tables.append(TableProcess(path, tmp / "t1.db", broker.url))
    _draw(director)
    first = _hand(director, 1)
    assert sum(_chips(first).values()) == sum(CHIPS.values())
    assert first.body.elapsed_ms > 0
    # no hand 2 without a go: the table only answers what it is sent
    director.acknowledge()
    mover = max(_chips(first), key=lambda p: (_chips(first)[p], p))
    seat = list(CHIPS).index(mover) + 1
    cmd = director.move(mover, seat, for_hand=1)
    moved = director.wait("moved", command=cmd)
    assert moved.body.player == mover and moved.body.chips == _chips(first)[mover]
    cmd = director.seat("P09", 6, 7000, for_hand=1, reason="balance")
    assert director.answered(cmd).kind == "applied"
    second = _hand(director, 2)
    assert mover not in _chips(second) and "P09" in _chips(second)
    assert sum(_chips(second).values()) == sum(CHIPS.values()) - moved.body.chips + 7000
    cmd = director.signal("break", for_hand=2)
    assert director.answered(cmd).kind == "applied"
    out = {e.body.player: e.body.chips for e in director.reports if e.kind == "moved"
           and e.body.command == cmd}
    assert out == _chips(second)
    director.acknowledge(finished=True)
    summary = json.loads(tables[0].finish().splitlines()[-1])
    assert summary["table"] == 1 and summary["hands_played"] == 2
    # the public view carried names and stacks, never an unshown hole card
    assert director.publics and all(len(p.shown) <= 2 * len(p.players)
                                    for p in director.publics)
    seqs = [e.seq for e in director.reports]
    assert seqs == list(range(1, len(seqs) + 1))  # each report once, in order


def test_a_command_for_a_hand_already_dealt_is_refused(venue):
    path, broker, director, tables, tmp = venue
    tables.append(TableProcess(path, tmp / "t1.db", broker.url))
    _draw(director)
    _hand(director, 1)
    cmd = director.seat("P09", 6, 7000, for_hand=0, reason="balance")
    refused = director.answered(cmd)
    assert refused.kind == "refused" and refused.body.reason.startswith("stale")


def test_a_table_killed_and_resumed_resends_only_what_is_unacknowledged(venue):
    path, broker, director, tables, tmp = venue
    journal = tmp / "t1.db"
    tables.append(TableProcess(path, journal, broker.url))
    _draw(director)
    first = _hand(director, 1)
    director.acknowledge(upto=first.seq)
    director.go(2)
    director.wait("hand_started", hand=2)
    tables[0].kill()
    password = (path.parent / "secrets" / "director.password").read_text().strip()
    observer = Observer(broker.url, password, report_topic(1))
    try:
        tables.append(TableProcess(path, journal, broker.url, resume=True))
        assert director.wait("resumed").body.hand == 2
        second = director.wait("hand_finished", hand=2)
        # a replay of the first seat command changes nothing: the mark is in the journal
        director.node.send(command_topic(1), 1, SeatPlayer("P01", 1, CHIPS["P01"], "draw"),
                           for_hand=0)
        director.go(3)
        third = director.wait("hand_finished", hand=3)
        copies = observer.seqs()
    finally:
        observer.close()
    assert copies and min(copies) > first.seq  # nothing acknowledged was sent again
    assert sum(_chips(third).values()) == sum(_chips(second).values()) == sum(CHIPS.values())
    answers = [e for e in director.reports if getattr(e.body, "command", None) == 1]
    assert [e.kind for e in answers] == ["applied"]  # applied once, never answered again
    cmd = director.signal("break", for_hand=3)
    director.answered(cmd)
    director.acknowledge(finished=True)
    tables[-1].finish()
    assert joined_nights(journal) == [NIGHT]  # the restart kept its night: it joined once


def test_reports_made_while_the_broker_is_down_arrive_once_when_it_is_back(venue):
    path, broker, director, tables, tmp = venue
    tables.append(TableProcess(path, tmp / "t1.db", broker.url))
    _draw(director)
    _hand(director, 1)
    director.go(2)
    director.wait("hand_started", hand=2)
    broker.kill()
    time.sleep(1.0)  # the table plays on meanwhile; its reports wait in its outbox
    broker.start()
    finished = director.wait("hand_finished", hand=2)
    assert sum(_chips(finished).values()) == sum(CHIPS.values())
    seqs = [e.seq for e in director.reports]
    assert seqs == list(range(1, len(seqs) + 1))
    cmd = director.signal("break", for_hand=2)
    director.answered(cmd)
    director.acknowledge(finished=True)
    tables[0].finish()


def test_a_table_with_a_new_journal_ignores_last_nights_state_and_queued_command(venue):
    """Last night's finished state is retained at the broker and one of its commands is
    queued in table 1's session: a table with a new journal starts its session clean,
    ignores that night (one line) and plays tonight's, whose seq 1 is not a replay."""
    from pi_app.venue.link import VenueLink
    from pi_app.venue.messages import Envelope, VenueState, encode
    from pi_app.venue.node import STATE_TOPIC
    path, broker, director, tables, tmp = venue
    last = "20261130-0000000000000009"
    secrets = path.parent / "secrets"
    session = VenueLink(broker.url, client_id="pokertable-table1", username="table1",
                        password=(secrets / "table1.password").read_text().strip(),
                        subscriptions=(command_topic(1),), put=lambda _e: None).start()
    assert session.wait_ready(30)
    session.close()  # last night's table 1: its session stays on the broker
    boss = VenueLink(broker.url, client_id="last-night", username="director",
                     password=(secrets / "director.password").read_text().strip(),
                     subscriptions=(), put=lambda _e: None).start()
    assert boss.wait_connected(30)
    queued = Envelope("director", 1, SeatPlayer("P09", 6, 999, "draw"), 0, night=last)
    over = VenueState(80, (), (), (("P09", 1),), ((1, 50),), (), 1, True)
    for topic, env, retain in ((command_topic(1), queued, False),
                               (STATE_TOPIC, Envelope("director", 200, over, night=last),
                                True)):
        assert boss.wait_acknowledged(boss.publish(topic, encode(env), retain=retain), 30)
    boss.close()
    journal = tmp / "t1.db"
    tables.append(TableProcess(path, journal, broker.url))
    deadline = time.monotonic() + 60
    while last not in tables[0].log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    _draw(director)  # tonight's seq 1, 2, ...: applied, not taken for replays
    finished = _hand(director, 1)
    assert sorted(_chips(finished)) == sorted(CHIPS)  # P09 was never seated
    assert all(e.night == NIGHT for e in director.reports)
    cmd = director.signal("break", for_hand=1)
    director.answered(cmd)
    director.acknowledge(finished=True)
    tables[0].finish()
    said = [line for line in tables[0].log.read_text().splitlines() if last in line]
    assert len(said) == 1 and "ignored the messages of night" in said[0]
    assert joined_nights(journal) == [NIGHT]


def test_a_table_on_a_night_that_is_over_says_so_in_one_line_while_another_runs(venue):
    from pi_app.venue.link import VenueLink
    from pi_app.venue.messages import Envelope, VenueState, encode
    from pi_app.venue.node import STATE_TOPIC

    path, broker, director, tables, tmp = venue
    journal = tmp / "t1.db"
    tables.append(TableProcess(path, journal, broker.url))
    _draw(director)
    director.answered(director.signal("break", for_hand=0))
    director.acknowledge(finished=True)
    tables[0].finish()  # last night is over
    tonight = "20261202-00000000000000aa"
    boss = VenueLink(broker.url, client_id="tonight", username="director",
                     password=(path.parent / "secrets" / "director.password").read_text()
                     .strip(), subscriptions=(), put=lambda _e: None).start()
    assert boss.wait_connected(30)
    running = Envelope("director", 1, VenueState(0, (), (), (), (), (), 0, False),
                       night=tonight)
    assert boss.wait_acknowledged(boss.publish(STATE_TOPIC, encode(running), retain=True), 30)
    boss.close()
    before = _records(journal)
    again = TableProcess(path, journal, broker.url, resume=True)
    tables.append(again)
    assert again.proc.wait(timeout=60) == 2
    lines = [ln for ln in again.log.read_text().splitlines() if ln.strip()]
    said = [ln for ln in lines if "new state folder" in ln]
    assert len(said) == 1 and NIGHT in said[0] and tonight in said[0], lines
    assert not any("Traceback" in ln for ln in lines)
    assert joined_nights(journal) == [NIGHT]  # it joined neither night again
    assert _records(journal) == before  # refused: not even a restart is journaled


def test_a_running_state_of_another_night_during_the_tables_night_changes_nothing(venue):
    """A second director on the same broker (or a forged message from the director's
    user) publishes a running state of its own night: the table stays with its night,
    says so once, and plays on (it never tells the operator to drop its journal)."""
    from pi_app.venue.link import VenueLink
    from pi_app.venue.messages import Envelope, VenueState, encode
    from pi_app.venue.node import STATE_TOPIC

    path, broker, director, tables, tmp = venue
    tables.append(TableProcess(path, tmp / "t1.db", broker.url))
    _draw(director)
    first = _hand(director, 1)
    director.acknowledge()
    other = "20261202-00000000000000bb"
    boss = VenueLink(broker.url, client_id="another", username="director",
                     password=(path.parent / "secrets" / "director.password").read_text()
                     .strip(), subscriptions=(), put=lambda _e: None).start()
    assert boss.wait_connected(30)
    for seq in (1, 2):  # twice: said once
        forged = Envelope("director", seq, VenueState(0, (), (), (), (), (), 0, False),
                          night=other)
        assert boss.wait_acknowledged(boss.publish(STATE_TOPIC, encode(forged)), 30)
    boss.close()
    second = _hand(director, 2)
    assert tables[0].proc.poll() is None  # still at its night
    assert sum(_chips(second).values()) == sum(_chips(first).values())
    director.acknowledge(finished=True)
    summary = json.loads(tables[0].finish().splitlines()[-1])
    assert summary["hands_played"] == 2
    lines = tables[0].log.read_text().splitlines()
    said = [ln for ln in lines if other in ln]
    assert len(said) == 1 and "stays with night " + NIGHT in said[0], said
    assert not any("new state folder" in ln for ln in lines)
    assert joined_nights(tmp / "t1.db") == [NIGHT]


def test_a_resume_with_another_seed_names_the_seed_the_table_was_started_with(tmp_path):
    from pi_app.sim.simulator import SimError
    from pi_app.sim.venue_table import VenueTableOptions, VenueTableSim

    path, _users = write_venue(tmp_path / "venue")
    journal = str(tmp_path / "t2.db")
    VenueTableSim(VenueTableOptions(table=2, config=str(path), seed=7, journal=journal,
                                    broker="mqtt://127.0.0.1:9")).sim.close()
    with pytest.raises(SimError) as err:
        VenueTableSim(VenueTableOptions(table=2, config=str(path), seed=8, journal=journal,
                                        broker="mqtt://127.0.0.1:9", resume=True))
    assert "with seed 7 " in str(err.value) and "seed 9" not in str(err.value)
