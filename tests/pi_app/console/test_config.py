"""``[console]`` of a table config: ``listen`` and ``registration``, checked before start."""

from __future__ import annotations

import pytest

from pi_app.service.config import ConfigError, default_config_text, parse_config


def _parse(console: str, state):
    """``state``: the test's own state folder (not a fixed path another program may hold)."""
    return parse_config(default_config_text() + "\n[console]\n" + console, "t.toml",
                        env={"STATE_DIRECTORY": str(state)})


def test_no_console_section_means_no_console():
    assert parse_config(default_config_text(), "t.toml", env={}).console is None


@pytest.mark.parametrize("listen,host,port", [
    ("127.0.0.1:8765", "127.0.0.1", 8765), ("localhost:80", "localhost", 80),
    ("[::1]:9000", "::1", 9000), ("0.0.0.0:8080", "0.0.0.0", 8080)])
def test_listen_is_host_and_port(listen, host, port, tmp_path):
    c = _parse(f'listen = "{listen}"', tmp_path).console
    assert (c.host, c.port) == (host, port) and c.listen == listen


def test_defaults_to_loopback(tmp_path):
    c = _parse("", tmp_path).console
    assert c.listen == "127.0.0.1:8765" and c.registration is False


@pytest.mark.parametrize("listen,words", [
    ("8765", 'must be "HOST:PORT"'), ("127.0.0.1:0", "port must be 1..65535"),
    ("127.0.0.1:70000", "port must be 1..65535"), ("example.org:80", "IP address or localhost"),
    ("127.0.0.1:80\\n", 'must be "HOST:PORT"')])
def test_bad_listen_names_the_key(listen, words, tmp_path):
    with pytest.raises(ConfigError, match=f"t.toml: console.listen: .*{words}"):
        _parse(f'listen = "{listen}"', tmp_path)


def test_unknown_key_and_wrong_type(tmp_path):
    with pytest.raises(ConfigError, match="console.port: unknown key"):
        _parse("port = 1", tmp_path)
    with pytest.raises(ConfigError, match="console.registration: must be"):
        _parse('registration = "yes"', tmp_path)
