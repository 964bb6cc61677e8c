"""The venue's own certificate authority for a broker that listens with TLS
(``pokertable venue ca DIR --host HOST``), made with the ``openssl`` program.

:func:`make_ca` writes into ``DIR``:

* ``venue-ca.key`` (mode 0600) and ``venue-ca.crt``: a self-signed CA (EC P-256).  The key
  signs the broker's certificate and nothing else: keep it off the network (docs/venue.md);
  the certificate is what every table Pi and the director name as ``broker.ca_file``.
* ``broker.key`` (mode 0600) and ``broker.crt``: the broker's key and its certificate,
  signed by the CA, for the names and addresses the nodes connect to (``subjectAltName``:
  each ``--host``, a DNS name or an IP address), for server authentication only.

:func:`install_broker_certificates` copies the CA's certificate and the broker's pair into
the broker's folder (``pokertable venue broker-files ... --certs DIR``), where the
listener's ``cafile``, ``certfile`` and ``keyfile`` name them
(:func:`pi_app.venue.broker.conf_text`).

Errors: :class:`CertificateError` (an :class:`engine.errors.InvalidInputError`), one line:
a host that is neither a name nor an address, files already there (nothing is
overwritten), ``openssl`` missing or failing.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from engine.errors import InvalidInputError
from engine.text import shown

CA_KEY, CA_CERT = "venue-ca.key", "venue-ca.crt"
BROKER_KEY, BROKER_CERT = "broker.key", "broker.crt"
FILES = (CA_KEY, CA_CERT, BROKER_KEY, BROKER_CERT)
MAX_DAYS = 3650  #: ten years at most
MAX_HOSTS = 16
_EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]


class CertificateError(InvalidInputError):
    """The venue's certificates cannot be made or installed as asked."""


def san_entry(host: str) -> str:
    """``IP:...`` or ``DNS:...`` of ``host`` for a ``subjectAltName``.

    Raises:
        CertificateError: neither an IP address nor a DNS name (letters, digits, '-', '.').

    >>> san_entry("192.168.1.20"), san_entry("broker.venue.lan")
    ('IP:192.168.1.20', 'DNS:broker.venue.lan')
    """
    try:
        return f"IP:{ipaddress.ip_address(host)}"
    except ValueError:
        pass
    labels = host.split(".")
    if not host or len(host) > 253 or not all(
            0 < len(x) <= 63 and x.replace("-", "").isalnum() and x.isascii()
            and not x.startswith("-") and not x.endswith("-") for x in labels):
        raise CertificateError(f"--host must be a DNS name or an IP address, got {shown(host)}")
    return f"DNS:{host}"


def _openssl() -> str:
    found = shutil.which("openssl")
    if found is None:
        raise CertificateError("openssl is not installed: install Debian's openssl package")
    return found


def _run(args: list[str], folder: Path) -> None:
    done = subprocess.run([_openssl(), *args], cwd=folder, capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no reason given"])[-1]
        raise CertificateError(f"openssl {args[0]} failed: {shown(last, 200)}")


def make_ca(folder: Path, hosts: list[str], days: int = 825) -> list[Path]:
    """Make the venue's CA and the broker's certificate for ``hosts`` in ``folder``
    (created, mode 0700); returns the four files written (see the module docstring).

    Args:
        hosts: the broker's names and addresses as the nodes reach it (1..16).
        days: how long both certificates are valid (1..3650).

    Raises:
        CertificateError: a bad host or ``days``, one of the files already there, or
            ``openssl`` missing or failing (then nothing is left in ``folder``).
    """
    if not 1 <= len(hosts) <= MAX_HOSTS:
        raise CertificateError(f"give 1..{MAX_HOSTS} --host, got {len(hosts)}")
    if isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise CertificateError(f"--days must be 1..{MAX_DAYS}, got {days}")
    sans = list(dict.fromkeys(san_entry(h) for h in hosts))
    there = [name for name in FILES if (folder / name).exists()]
    if there:
        raise CertificateError(f"{folder / there[0]} is already there: nothing is overwritten")
    _openssl()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".ca-") as tmp:
        work = Path(tmp)
        _run(["req", "-x509", *_EC, "-keyout", CA_KEY, "-out", CA_CERT, "-days", str(days),
              "-subj", "/CN=pokertable venue CA",
              "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
              "-addext", "keyUsage=critical,keyCertSign,cRLSign"], work)
        _run(["req", "-new", *_EC, "-keyout", BROKER_KEY, "-out", "broker.csr",
              "-subj", f"/CN={hosts[0]}"], work)
        (work / "broker.ext").write_text(
            "basicConstraints=critical,CA:FALSE\n"
            "keyUsage=critical,digitalSignature,keyEncipherment\n"
            "extendedKeyUsage=serverAuth\n"
            f"subjectAltName={','.join(sans)}\n"
            "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n")
        _run(["x509", "-req", "-in", "broker.csr", "-CA", CA_CERT, "-CAkey", CA_KEY,
              "-CAcreateserial", "-out", BROKER_CERT, "-days", str(days),
              "-extfile", "broker.ext"], work)
        written = []
        for name in FILES:
            os.chmod(work / name, 0o600 if name.endswith(".key") else 0o644)
            os.replace(work / name, folder / name)
            written.append(folder / name)
    return written


def check_certificates(certs: Path) -> None:
    """The CA's certificate and the broker's certificate and key are in ``certs``.

    Raises:
        CertificateError: one of them is missing or not a regular file.
    """
    for name in (CA_CERT, BROKER_CERT, BROKER_KEY):
        if not (certs / name).is_file():
            raise CertificateError(f"--certs: {certs / name} is missing (make it with "
                                   f"pokertable venue ca)")


def install_broker_certificates(certs: Path, folder: Path) -> tuple[Path, Path, Path]:
    """Copy the CA's certificate and the broker's certificate and key from ``certs`` (made
    by :func:`make_ca`) into the broker's ``folder`` (the key mode 0600); returns (CA
    certificate, broker certificate, broker key) there.

    Raises:
        CertificateError: one of the three is missing or not a regular file.
    """
    check_certificates(certs)
    out = []
    for name in (CA_CERT, BROKER_CERT, BROKER_KEY):
        target = folder / name
        data = (certs / name).read_bytes()
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        out.append(target)
    return out[0], out[1], out[2]
