"""The venue's Mosquitto broker: its files written from ``venue.toml``, and a local broker
process for the simulated venue and the tests.

:func:`write_broker_files` writes what Mosquitto reads (docs/venue.md):

* ``mosquitto.conf``: one listener, no anonymous login, persistence on (so a node's
  queued QoS 1 messages survive a broker restart), the password and access-list files;
* ``passwords``: one line per user, hashed by Mosquitto's own ``mosquitto_passwd`` (never
  by us, and never with a password on a command line), from the password files
  ``venue.toml`` names;
* ``acl``: the director reads and writes everything under ``pokertable/1/``; table N may
  write only its own report, public view and presence, and read only the director's
  topics and its own commands (docs/design/venue-topics.md, "Access lists").

:class:`LocalBroker` runs ``mosquitto`` (found on ``PATH`` or in ``/usr/sbin``) on a free
loopback port with those files, and can be stopped, killed and started again on the same
port with the same persistence folder (the broker's faults in the tests).

Errors: :class:`BrokerError` (an :class:`engine.errors.DeviceError`, so an ``OSError``),
one line, when Mosquitto is missing or does not start.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from engine.errors import DeviceError
from engine.text import shown, unsafe_reason
from pi_app.venue.config import VenueConfig, read_password
from pi_app.venue.tls import (
    BROKER_CERT,
    BROKER_KEY,
    CA_CERT,
    CertificateError,
    check_certificates,
    install_broker_certificates,
)

#: The topic root of this version of the messages (docs/design/venue-topics.md).
ROOT = "pokertable/1"
START_TIMEOUT = 10.0  #: seconds to wait for a started broker to accept connections


class BrokerError(DeviceError):
    """Mosquitto is missing, or a broker could not be started or configured."""


def find_mosquitto() -> str:
    """The ``mosquitto`` program: on ``PATH``, else Debian's ``/usr/sbin/mosquitto``.

    Raises:
        BrokerError: neither exists (install Debian's ``mosquitto`` package).
    """
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
    if found is None:
        raise BrokerError("mosquitto is not installed: install Debian's mosquitto package "
                          "(apt-get install mosquitto), or give --broker URL")
    return found


def _find_passwd_tool() -> str:
    found = shutil.which("mosquitto_passwd") or shutil.which("mosquitto_passwd",
                                                             path="/usr/bin:/usr/sbin")
    if found is None:
        raise BrokerError("mosquitto_passwd is not installed: install Debian's mosquitto "
                          "package")
    return found


def acl_text(venue: VenueConfig) -> str:
    """Mosquitto's access list for ``venue``: the director everything under the root, each
    table its own topics only."""
    lines = [f"user {venue.director_username}", f"topic readwrite {ROOT}/#", ""]
    for t in venue.tables:
        lines += [f"user {t.username}",
                  f"topic read {ROOT}/director/#",
                  f"topic read {ROOT}/table/{t.number}/command",
                  f"topic write {ROOT}/table/{t.number}/report",
                  f"topic write {ROOT}/table/{t.number}/public",
                  f"topic write {ROOT}/presence/{t.username}",
                  ""]
    return "\n".join(lines)


def conf_text(folder: Path, port: int, host: str = "127.0.0.1",
              run_as: str | None = None, tls: bool = False) -> str:
    """``mosquitto.conf`` for a broker on ``host:port`` whose files are in ``folder``;
    ``run_as``: the user Mosquitto runs as when started by root (default: its own,
    ``mosquitto``); ``tls``: the listener speaks TLS with the certificates
    :func:`pi_app.venue.tls.install_broker_certificates` put in ``folder``."""
    return "\n".join([
        *([f"user {run_as}"] if run_as else []),
        "per_listener_settings false",
        f"listener {port} {host}",
        *([f"cafile {folder / CA_CERT}", f"certfile {folder / BROKER_CERT}",
           f"keyfile {folder / BROKER_KEY}", "tls_version tlsv1.2"] if tls else []),
        "allow_anonymous false",
        f"password_file {folder / 'passwords'}",
        f"acl_file {folder / 'acl'}",
        "persistence true",
        f"persistence_location {folder / 'data'}/",
        # saved to disk every second: a broker killed outright loses at most the last
        # second of its state (sessions, queued and retained messages), which is why a
        # node re-sends from its journal's outbox until the receiver's own report says it
        # was applied, not merely until the broker's PUBACK (docs/design/venue-topics.md)
        "autosave_interval 1",
        "max_queued_messages 10000",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "",
    ])


def write_broker_files(venue: VenueConfig, folder: Path, port: int,
                       host: str = "127.0.0.1", run_as: str | None = None,
                       certs: Path | None = None) -> Path:
    """Write ``mosquitto.conf``, ``passwords`` and ``acl`` for ``venue`` into ``folder``
    (created, mode 0700); returns the conf's path.  ``run_as``: see :func:`conf_text`.
    A venue whose broker URL is ``mqtts://`` needs ``certs``, the folder
    ``pokertable venue ca`` wrote: the CA's and the broker's certificates and the broker's
    key are copied into ``folder`` and the listener speaks TLS.

    The conf names the files by ``folder``'s absolute path, so Mosquitto finds them from
    any working directory.

    Raises:
        VenueConfigError: a password file is missing or readable by others.
        CertificateError: ``certs`` missing for an mqtts venue (or given for another), or
            without the broker's files.
        BrokerError: ``folder`` or ``run_as`` holds a control character (a line break
            would add lines of its own to the conf); ``mosquitto_passwd`` is missing or
            cannot hash a password.
    """
    folder = Path(os.path.abspath(folder))
    for what, text in (("the broker's folder", str(folder)), ("the broker's user", run_as)):
        why = unsafe_reason(text) if text is not None else None
        if why is not None or (text is not None and text != text.strip()):
            raise BrokerError(f"{what} {shown(text)} holds {why or 'spaces at an end'}: "
                              "choose another")
    users = [(venue.director_username, venue.director_password_file, "director")]
    users += [(t.username, t.password_file, f"tables.{t.number}") for t in venue.tables]
    # every password read (and refused) before anything is written
    secrets = [(name, read_password(path, f"{venue.source}: {key}.password_file"))
               for name, path, key in users]
    _check_certs(venue, certs)
    tool = _find_passwd_tool()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if certs is not None:
        install_broker_certificates(certs, folder)
    (folder / "data").mkdir(exist_ok=True, mode=0o700)
    passwords = folder / "passwords"
    fd = os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(fd)
    for username, secret in secrets:
        # the password goes in on stdin (twice: typed and confirmed), never on a command
        # line, where other users of the machine could read it
        done = subprocess.run([tool, str(passwords), username], input=f"{secret}\n" * 2,
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            passwords.unlink()
            raise BrokerError(f"mosquitto_passwd could not hash the password of {username}: "
                              f"{(done.stderr.strip().splitlines() or ['no reason'])[-1]}")
    acl = folder / "acl"
    acl.write_text(acl_text(venue))
    os.chmod(acl, 0o600)
    conf = folder / "mosquitto.conf"
    conf.write_text(conf_text(folder, port, host, run_as, tls=certs is not None))
    return conf


def _check_certs(venue: VenueConfig, certs: Path | None) -> None:
    """An mqtts venue's broker needs the certificates; a plain one takes none."""
    if venue.tls and certs is None:
        raise CertificateError(f"{venue.source}: broker.url is mqtts://: give --certs DIR, "
                               "the folder pokertable venue ca wrote")
    if certs is not None and not venue.tls:
        raise CertificateError(f"{venue.source}: broker.url is mqtt://, without TLS: "
                               "--certs is for an mqtts:// broker")
    if certs is not None:
        check_certificates(certs)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


@dataclass
class LocalBroker:
    """A Mosquitto on a loopback port, configured for ``venue`` (files in ``folder``).

    Use as a context manager, or :meth:`start` and :meth:`stop`.  :meth:`kill` (SIGKILL)
    and :meth:`start` again keep the port and the persistence folder.
    """

    venue: VenueConfig
    folder: Path
    port: int = 0
    host: str = "127.0.0.1"
    process: subprocess.Popen[bytes] | None = None
    certs: Path | None = None  #: an mqtts venue's certificates (pokertable venue ca)

    def __post_init__(self) -> None:
        if not self.port:
            self.port = free_port(self.host)
        # started by root (as in CI), Mosquitto would switch to its own user, which may not
        # read these 0600 files: a local broker stays the user that started it
        self.conf = write_broker_files(self.venue, self.folder, self.port, self.host,
                                       run_as=pwd.getpwuid(os.geteuid()).pw_name,
                                       certs=self.certs)

    @property
    def url(self) -> str:
        """``mqtt://HOST:PORT`` of this broker (``mqtts://`` with TLS)."""
        return f"{'mqtts' if self.venue.tls else 'mqtt'}://{self.host}:{self.port}"

    def start(self) -> LocalBroker:
        """Start Mosquitto and wait until it accepts connections.

        Raises:
            BrokerError: it is missing, exits, or does not listen in time.
        """
        if self.process is not None and self.process.poll() is None:
            return self
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 - the process keeps it
        try:
            self.process = subprocess.Popen([find_mosquitto(), "-c", str(self.conf)],
                                            stdout=log, stderr=log, start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"mosquitto exited with status {self.process.returncode}: "
                                  f"see {self.folder / 'mosquitto.log'}")
            if _accepts(self.host, self.port):
                return self
            time.sleep(0.05)
        self.kill()
        raise BrokerError(f"mosquitto did not listen on {self.host}:{self.port} within "
                          f"{START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        """Stop it cleanly (SIGTERM: Mosquitto saves its persistence first)."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill it (SIGKILL: what a power cut does to the broker)."""
        self._end(signal.SIGKILL)

    def _end(self, sig: int) -> None:
        p, self.process = self.process, None
        if p is None or p.poll() is not None:
            return
        p.send_signal(sig)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
