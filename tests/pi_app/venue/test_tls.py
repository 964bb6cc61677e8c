"""The venue's TLS (pi_app/venue/tls.py, ``pokertable venue ca``): the CA and the broker's
certificate made with ``openssl``, a real Mosquitto listening with them on a loopback
port, a node that trusts the venue's CA logging in over TLS, and one that does not trust
it refused; the command's mistakes in one line, overwriting nothing."""

from __future__ import annotations

import queue
import stat
from pathlib import Path

import pytest

from pi_app.cli.main import main
from pi_app.venue.broker import LocalBroker
from pi_app.venue.config import load_venue
from pi_app.venue.link import LinkStatus, VenueLink
from pi_app.venue.tls import CertificateError, make_ca, san_entry
from tests.pi_app.venue.venue_fixture import password, write_venue
from tests.ports import free_port

WAIT = 10.0


def _tls_venue(folder: Path, port: int) -> Path:
    """The test venue of two tables on ``mqtts://127.0.0.1:PORT``, trusting certs/."""
    path = write_venue(folder, 2, 9, port)
    path.write_text(path.read_text().replace(
        f'url = "mqtt://127.0.0.1:{port}"',
        f'url = "mqtts://127.0.0.1:{port}"\nca_file = "certs/venue-ca.crt"'))
    return path


def _status(events: queue.Queue[object]) -> LinkStatus:
    while True:
        ev = events.get(timeout=WAIT)
        if isinstance(ev, LinkStatus):
            return ev


def test_a_broker_with_the_venues_certificate_accepts_a_tls_client_that_trusts_its_ca(
        tmp_path, capsys):
    port = free_port()
    path = _tls_venue(tmp_path, port)
    assert main(["venue", "ca", str(tmp_path / "certs"), "--host", "127.0.0.1"]) == 0
    assert "venue-ca.crt" in capsys.readouterr().out
    for key in ("venue-ca.key", "broker.key"):
        assert stat.S_IMODE((tmp_path / "certs" / key).stat().st_mode) == 0o600
    venue = load_venue(path)
    assert venue.tls and venue.ca_file == tmp_path / "certs" / "venue-ca.crt"
    with LocalBroker(venue, tmp_path / "broker", port=port, certs=tmp_path / "certs") as b:
        assert b.url == f"mqtts://127.0.0.1:{port}"
        conf = (tmp_path / "broker" / "mosquitto.conf").read_text()
        assert f"certfile {tmp_path / 'broker' / 'broker.crt'}" in conf
        trusted: queue.Queue[object] = queue.Queue()
        link = VenueLink(b.url, client_id="pokertable-table1", username="table1",
                         password=password(venue, "table1"), subscriptions=(), put=trusted.put,
                         ca_file=venue.ca_file).start()
        try:
            assert link.wait_connected(WAIT)
        finally:
            link.close()
        stranger: queue.Queue[object] = queue.Queue()  # trusts the system's CAs only
        other = VenueLink(b.url, client_id="pokertable-table2", username="table2",
                          password=password(venue, "table2"), subscriptions=(), put=stranger.put).start()
        try:
            status = _status(stranger)
            assert not status.online and not other.connected.is_set()
        finally:
            other.close()


def test_an_mqtts_venue_wants_the_certificates_and_a_plain_one_refuses_them(tmp_path, capsys):
    port = free_port()
    path = _tls_venue(tmp_path, port)
    assert main(["venue", "broker-files", str(path), str(tmp_path / "mq")]) == 2
    assert "give --certs DIR" in capsys.readouterr().err
    assert main(["venue", "broker-files", str(path), str(tmp_path / "mq"), "--certs",
                 str(tmp_path / "nothing")]) == 2
    assert "venue-ca.crt is missing" in capsys.readouterr().err
    assert not (tmp_path / "mq").exists()
    make_ca(tmp_path / "certs", ["127.0.0.1"])
    path.write_text(path.read_text().replace("mqtts://", "mqtt://").replace(
        'ca_file = "certs/venue-ca.crt"\n', ""))
    assert main(["venue", "broker-files", str(path), str(tmp_path / "mq"), "--certs",
                 str(tmp_path / "certs")]) == 2
    err = capsys.readouterr().err
    assert "--certs is for an mqtts:// broker" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "mq").exists()


def test_the_ca_overwrites_nothing_and_refuses_a_bad_host(tmp_path, capsys):
    folder = tmp_path / "certs"
    make_ca(folder, ["broker.venue.lan", "192.168.1.20"])
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["venue", "ca", str(folder), "--host", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert "is already there: nothing is overwritten" in err and len(err.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    for bad in ("bad host", "-x.lan", "a..b", "caf\u00e9.lan", "x" * 300):
        assert main(["venue", "ca", str(tmp_path / "other"), f"--host={bad}"]) == 2
        assert "--host must be a DNS name or an IP address" in capsys.readouterr().err
    assert main(["venue", "ca", str(tmp_path / "other"), "--host", "h.lan", "--days",
                 "0"]) == 2
    assert "--days must be 1..3650" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()


@pytest.mark.parametrize("host, entry", [("10.0.0.5", "IP:10.0.0.5"), ("::1", "IP:::1"),
                                         ("pi-director.lan", "DNS:pi-director.lan")])
def test_subject_alternative_names(host, entry):
    assert san_entry(host) == entry


def test_a_host_with_a_line_break_cannot_reach_the_extensions_file():
    with pytest.raises(CertificateError):
        san_entry("h.lan\nbasicConstraints=CA:TRUE")


@pytest.mark.parametrize("content, words", [
    (None, "cannot read"),
    (b"garbage\n", "holds no PEM certificate"),
    (b"\xff\xfe not text", "not UTF-8"),
])
def test_a_ca_file_that_is_no_certificate_is_one_line_at_check_and_at_connect(
        tmp_path, capsys, content, words):
    """`venue check`, a table's `config check` and the broker link itself refuse a
    ``broker.ca_file`` that is missing or holds no certificate in one line naming the key,
    rather than passing the check and failing later in ssl with a traceback."""
    from pi_app.service.config import ConfigError, parse_config
    from pi_app.venue.config import VenueConfigError

    path = _tls_venue(tmp_path, free_port())
    if content is not None:
        (tmp_path / "certs").mkdir()
        (tmp_path / "certs" / "venue-ca.crt").write_bytes(content)
    assert main(["venue", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: broker.ca_file: " in err and words in err
    assert len(err.strip().splitlines()) == 1
    table = f'[seats]\ncount = 9\n[venue]\nfile = "{path}"\ntable = 1\n'
    with pytest.raises(ConfigError, match=f"venue.file: .*broker.ca_file: .*{words}"):
        parse_config(table, "table.toml")
    venue = load_venue(path)
    with pytest.raises(VenueConfigError, match=f"broker.ca_file: .*{words}"):
        VenueLink(venue.broker_url, client_id="pokertable-table1", username="table1",
                  password="x", subscriptions=(), put=lambda _e: None, ca_file=venue.ca_file)
