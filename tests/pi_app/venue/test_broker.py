"""The venue's broker and links, against a real Mosquitto started on a free loopback port
(Debian's ``mosquitto``; ``.ci/run`` installs it, and these tests never skip for want of it).

Checked: the login (a wrong password is refused), the access list (a table cannot publish on
another table's topics, nor read another table's commands), QoS 1 delivery between the
director and a table, the retained presence and its will, and the broker's faults: a
message published while the broker is down is delivered once it is back, a node's
persistent session keeps what was sent to it while it was away, across a restart of the
broker, and the links come back by themselves after the broker is killed with SIGKILL.  (A broker killed outright may lose its last second of state,
saved every second: the nodes' journal outboxes, not the broker, are what make a message
arrive once; docs/design/venue-topics.md.)"""

from __future__ import annotations

import os
import pwd
import queue
import subprocess
import time
from pathlib import Path

import pytest

from pi_app.venue.broker import ROOT, LocalBroker, acl_text, find_mosquitto
from pi_app.venue.config import parse_venue
from pi_app.venue.link import LinkError, LinkStatus, Received, VenueLink
from tests.ports import free_port

WAIT = 10.0  # seconds: generous for a loaded 2-core machine; most waits end in milliseconds


def _venue(tmp_path: Path, tables: int = 2):
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    users = {"director": "director-pw"} | {f"table{n}": f"pw-{n}:x y" for n in
                                              range(1, tables + 1)}
    for user, pw in users.items():
        f = secrets / f"{user}.password"
        f.write_text(pw + "\n")
        f.chmod(0o600)
    text = '[director]\nusername = "director"\npassword_file = "secrets/director.password"\n'
    for n in range(1, tables + 1):
        text += (f'[tables.{n}]\nseats = 9\nusername = "table{n}"\n'
                 f'password_file = "secrets/table{n}.password"\n')
    return parse_venue(text, "venue.toml", base_dir=tmp_path), users


class Node:
    """A link with its queue, as a node of the venue would hold it."""

    def __init__(self, url: str, user: str, password: str, subscriptions: tuple[str, ...]):
        self.events: queue.Queue[object] = queue.Queue()
        self.link = VenueLink(url, client_id=f"pokertable-{user}", username=user,
                              password=password, subscriptions=subscriptions,
                              put=self.events.put).start()

    def received(self, topic: str, timeout: float = WAIT) -> list[bytes]:
        """Payloads received on ``topic`` until ``timeout`` passes with nothing new."""
        got: list[bytes] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.events.get(timeout=0.2)
            except queue.Empty:
                if got:
                    break
                continue
            if isinstance(ev, Received) and ev.topic == topic:
                got.append(ev.payload)
                deadline = time.monotonic() + 1.0  # collect what follows closely
        return got

    def status(self, online: bool, timeout: float = WAIT) -> LinkStatus:
        """The next status of the link that is ``online`` (or not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ev = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if isinstance(ev, LinkStatus) and ev.online == online:
                return ev
        raise AssertionError(f"the link did not become {'online' if online else 'offline'}")

    def close(self) -> None:
        self.link.close()


@pytest.fixture
def venue(tmp_path):
    cfg, users = _venue(tmp_path)
    broker = LocalBroker(cfg, tmp_path / "broker", port=free_port()).start()
    nodes: list[Node] = []

    def node(user: str, *subs: str, password: str | None = None) -> Node:
        n = Node(broker.url, user, users[user] if password is None else password, subs)
        nodes.append(n)
        return n
    yield broker, node
    for n in nodes:
        n.close()
    broker.stop()


def test_mosquitto_is_there():
    assert Path(find_mosquitto()).exists()


def test_the_access_list_gives_each_table_only_its_own_topics(tmp_path):
    cfg, _ = _venue(tmp_path, tables=3)
    acl = acl_text(cfg)
    block = acl.split("user table2\n")[1].split("\n\n")[0]
    assert f"topic write {ROOT}/table/2/report" in block
    assert f"topic read {ROOT}/table/2/command" in block
    assert f"{ROOT}/table/1/" not in block and f"{ROOT}/table/3/" not in block
    assert f"topic readwrite {ROOT}/#" in acl.split("user table1")[0]


def test_the_password_file_holds_hashes_not_passwords(venue):
    broker, _node = venue
    text = (broker.folder / "passwords").read_text()
    assert text.count("\n") == 3 and "director-pw" not in text and "pw-1" not in text
    assert (broker.folder / "passwords").stat().st_mode & 0o077 == 0


def test_a_command_reaches_its_table_and_a_report_the_director(venue):
    _broker, node = venue
    director = node("director", f"{ROOT}/table/+/report")
    table1 = node("table1", f"{ROOT}/table/1/command")
    assert director.link.wait_ready(WAIT) and table1.link.wait_ready(WAIT)
    mid = director.link.publish(f"{ROOT}/table/1/command", b"seat Ann")
    assert director.link.wait_acknowledged(mid, WAIT)
    assert table1.received(f"{ROOT}/table/1/command") == [b"seat Ann"]
    mid = table1.link.publish(f"{ROOT}/table/1/report", b"applied")
    assert table1.link.wait_acknowledged(mid, WAIT)
    assert director.received(f"{ROOT}/table/1/report") == [b"applied"]


def test_a_wrong_password_is_refused(venue):
    _broker, node = venue
    intruder = node("table1", password="guess")
    status = intruder.status(online=False)
    assert "refused" in status.reason
    assert not intruder.link.connected.is_set()


def test_a_table_cannot_write_or_read_another_tables_topics(venue):
    _broker, node = venue
    director = node("director", f"{ROOT}/table/+/report")
    table1 = node("table1", f"{ROOT}/table/2/command")  # not in its access list
    assert director.link.wait_ready(WAIT) and table1.link.wait_ready(WAIT)
    mid = table1.link.publish(f"{ROOT}/table/2/report", b"forged")
    assert table1.link.wait_acknowledged(mid, WAIT)
    mid = director.link.publish(f"{ROOT}/table/2/command", b"for table 2")
    assert director.link.wait_acknowledged(mid, WAIT)
    mid = table1.link.publish(f"{ROOT}/table/1/report", b"genuine")
    assert table1.link.wait_acknowledged(mid, WAIT)
    assert director.received(f"{ROOT}/table/1/report") == [b"genuine"]
    assert director.received(f"{ROOT}/table/2/report", timeout=1.0) == []
    assert table1.received(f"{ROOT}/table/2/command", timeout=1.0) == []


def test_presence_is_online_then_the_will_says_offline(venue):
    broker, node = venue
    director = node("director", f"{ROOT}/presence/+")
    table1 = node("table1")
    assert director.link.wait_ready(WAIT) and table1.link.wait_connected(WAIT)
    assert b"online" in director.received(f"{ROOT}/presence/table1")
    table1.link.client.socket().close()  # the connection lost, not closed: the will fires
    table1.link.client.loop_stop()
    assert director.received(f"{ROOT}/presence/table1", timeout=WAIT)[-1:] == [b"offline"]


def _reporting(node) -> tuple[Node, Node]:
    """The director, subscribed to the tables' reports, and table 1, both ready."""
    director = node("director", f"{ROOT}/table/+/report")
    table1 = node("table1")
    assert director.link.wait_ready(WAIT) and table1.link.wait_ready(WAIT)
    return director, table1


def test_a_report_sent_while_the_broker_is_down_arrives_once_it_is_back(venue):
    broker, node = venue
    director, table1 = _reporting(node)
    broker.stop()
    table1.status(online=False)  # the link noticed
    mid = table1.link.publish(f"{ROOT}/table/1/report", b"hand 7 finished")
    assert not table1.link.acknowledged(mid)
    broker.start()
    assert table1.link.wait_connected(WAIT) and director.link.wait_connected(WAIT)
    assert table1.link.wait_acknowledged(mid, WAIT)
    assert director.received(f"{ROOT}/table/1/report") == [b"hand 7 finished"]


def test_links_come_back_by_themselves_after_the_broker_is_killed(venue):
    broker, node = venue
    director, table1 = _reporting(node)
    broker.kill()
    table1.status(online=False)
    director.status(online=False)
    broker.start()
    assert director.link.wait_ready(WAIT) and table1.link.wait_ready(WAIT)
    mid = table1.link.publish(f"{ROOT}/table/1/report", b"resumed")
    assert table1.link.wait_acknowledged(mid, WAIT)
    assert director.received(f"{ROOT}/table/1/report") == [b"resumed"]


def test_a_persistent_session_keeps_commands_across_a_broker_restart(venue):
    broker, node = venue
    table1 = node("table1", f"{ROOT}/table/1/command")
    assert table1.link.wait_ready(WAIT)
    table1.link.close()  # the table's Pi is away; its session stays on the broker
    director = node("director")
    assert director.link.wait_connected(WAIT)
    mid = director.link.publish(f"{ROOT}/table/1/command", b"move Bob")
    assert director.link.wait_acknowledged(mid, WAIT)
    broker.stop()  # SIGTERM: Mosquitto saves its state (sessions, queues) before it exits
    broker.start()
    back = node("table1", f"{ROOT}/table/1/command")
    assert back.link.wait_connected(WAIT)
    assert back.received(f"{ROOT}/table/1/command") == [b"move Bob"]


@pytest.mark.parametrize("url", ["http://127.0.0.1:1883", "mqtt://", "mqtt://h:99999"])
def test_a_bad_broker_url_is_refused(url):
    with pytest.raises(LinkError, match="broker URL"):
        VenueLink(url, client_id="x", username="u", password="p", subscriptions=(),
                  put=lambda _e: None)


def _venue_file(tmp_path: Path, port: int = 1883) -> Path:
    _venue(tmp_path)  # the password files in tmp_path/secrets
    text = f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n'
    text += '[director]\nusername = "director"\npassword_file = "secrets/director.password"\n'
    for n in (1, 2):
        text += (f'[tables.{n}]\nseats = 9\nusername = "table{n}"\n'
                 f'password_file = "secrets/table{n}.password"\n')
    path = tmp_path / "venue.toml"
    path.write_text(text)
    return path


def test_broker_files_written_by_the_command_start_a_broker_the_tables_log_in_to(tmp_path,
                                                                                 capsys):
    from pi_app.cli.main import main

    port = free_port()
    venue_file = _venue_file(tmp_path, port)
    assert main(["venue", "broker-files", str(venue_file), str(tmp_path / "mq"),
                 "--listen", f"127.0.0.1:{port}"]) == 0
    out = capsys.readouterr().out
    conf = tmp_path / "mq" / "mosquitto.conf"
    assert f"listens on 127.0.0.1:{port} with 3 users" in out
    # the files are the writer's (mode 600): the hint gives them to the broker's user
    # first and runs the system's service on the conf, never a bare "mosquitto -c" as root
    assert f"sudo chown -R mosquitto: {conf.parent} && sudo systemctl edit mosquitto" in out
    assert f"ExecStart=/usr/sbin/mosquitto -c {conf})" in out
    assert "start it with mosquitto -c" not in out
    assert not conf.read_text().startswith("user ")  # the system's broker keeps its own user
    conf.write_text(f"user {pwd.getpwuid(os.geteuid()).pw_name}\n" + conf.read_text())
    proc = subprocess.Popen([find_mosquitto(), "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        table2 = Node(f"mqtt://127.0.0.1:{port}", "table2", "pw-2:x y", ())
        try:
            assert table2.link.wait_connected(WAIT)
        finally:
            table2.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("listen, message", [
    ("127.0.0.1", "--listen must be HOST:PORT"),
    ("127.0.0.1:0", "--listen must be HOST:PORT"),
    (":1883", "--listen must be HOST:PORT with a host"),
    ("h:99999", "--listen must be HOST:PORT"),
    ("h:x", "--listen must be HOST:PORT"),
    (" 127.0.0.1:1883", "without spaces"),
    ("127.0.0.1:1883 ", "without spaces"),
    ("127.0.0.1: 1883", "without spaces"),
    ("127.0.0.1:1884", "the port must be broker.url's, 1883 (where the tables connect)"),
    ("192.0.2.7:1883", "192.0.2.7 is not an address of this machine"),
    ("[2001:db8::7]:1883", "2001:db8::7 is not an address of this machine"),
    ("broker.lan:1883", "give an IP address of this machine"),
])
def test_broker_files_refuse_a_bad_listener_in_one_line(tmp_path, capsys, listen, message):
    from pi_app.cli.main import main

    assert main(["venue", "broker-files", str(_venue_file(tmp_path)), str(tmp_path / "mq"),
                 "--listen", listen]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "mq").exists()


@pytest.mark.parametrize("listen", ["127.0.0.1:1883", "0.0.0.0:1883", "[::1]:1883",
                                    "localhost:1883"])
def test_broker_files_listen_on_this_machine_at_the_venues_port(tmp_path, capsys, listen):
    from pi_app.cli.main import main

    assert main(["venue", "broker-files", str(_venue_file(tmp_path)), str(tmp_path / "mq"),
                 "--listen", listen]) == 0
    host = listen.rpartition(":")[0].strip("[]")
    assert f"listener 1883 {host}" in (tmp_path / "mq" / "mosquitto.conf").read_text()


def test_broker_files_refuse_a_password_file_others_may_read(tmp_path, capsys):
    from pi_app.cli.main import main

    venue_file = _venue_file(tmp_path)
    (tmp_path / "secrets" / "table2.password").chmod(0o644)
    assert main(["venue", "broker-files", str(venue_file), str(tmp_path / "mq")]) == 2
    err = capsys.readouterr().err
    assert f"{venue_file}: tables.2.password_file" in err and "chmod 600" in err
    assert "pw-2" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "mq").exists()  # nothing written


def test_broker_files_refuse_a_folder_whose_name_would_add_lines_to_the_conf(tmp_path, capsys):
    from pi_app.cli.main import main

    bad = tmp_path / "mq\npassword_file /etc/shadow"
    assert main(["venue", "broker-files", str(_venue_file(tmp_path)), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "control character U+000A" in err and len(err.strip().splitlines()) == 1
    assert not bad.exists() and not (tmp_path / "mq").exists()


def test_broker_files_name_their_files_by_absolute_path(tmp_path, capsys, monkeypatch):
    from pi_app.cli.main import main

    venue_file = _venue_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["venue", "broker-files", str(venue_file), "mq"]) == 0
    lines = (tmp_path / "mq" / "mosquitto.conf").read_text().splitlines()
    named = [line.split(" ", 1)[1] for line in lines
             if line.split(" ")[0] in ("password_file", "acl_file", "persistence_location")]
    assert len(named) == 3
    assert all(Path(p).is_absolute() and Path(p).resolve().parent == (tmp_path / "mq").resolve()
               or Path(p).resolve() == (tmp_path / "mq" / "data").resolve() for p in named)
