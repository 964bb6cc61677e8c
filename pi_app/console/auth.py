"""Console tokens, pairing and the pairing rate limit (docs/design/console.md).

Tokens are ``secrets.token_urlsafe(32)``; the store keeps only their SHA-256 with an id
(8 hex digits, shown in the audit), the role, creation and expiry times (UTC seconds since
the epoch) and a revoked flag, in ``<state>/console-tokens.db`` (SQLite, mode 0600).
``pokertable ctl`` opens the same store to mint its own director token.

Pairing: a six-character code from an alphabet without look-alikes (no 0/O, 1/I/L),
valid :data:`PAIRING_SECONDS`, good for one pairing.  Wrong codes are limited to
:data:`PAIR_TRIES` a minute for the whole console (429 after that).
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import secrets
import sqlite3
import stat
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InvalidInputError

ROLES = ("director", "dealer")
TOKENS_DB = "console-tokens.db"
CTL_TOKEN = "console-ctl.token"
PAIRED_TTL = 24 * 3600        #: seconds a paired director's token lasts
CTL_TTL = 365 * 24 * 3600     #: seconds ctl's own token lasts
MAX_TTL = 365 * 24 * 3600
PAIRING_SECONDS = 600         #: a pairing code's life
PAIR_TRIES = 5                #: wrong pairing codes per minute before 429
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_TOKEN = 200               #: characters in a presented token (longer: not ours)


class TokenError(InvalidInputError):
    """A bad role or lifetime for a new token, or an unknown token id."""


@dataclass(frozen=True)
class TokenInfo:
    """A stored token (never the token itself): ``id``, ``role``, ``created``,
    ``expires`` (epoch seconds), ``revoked``."""

    id: str
    role: str
    created: float
    expires: float
    revoked: bool


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class TokenStore:
    """The token table in ``<state_dir>/console-tokens.db`` (thread-safe)."""

    def __init__(self, state_dir: str | Path, *, clock=time.time, create: bool = True) -> None:
        """Open (``create``: and make, with its folder, when missing) the token table.

        Raises:
            FileNotFoundError: ``create`` is false and there is no token table there.
        """
        self.path = Path(state_dir) / TOKENS_DB
        if not create and not self.path.is_file():
            raise FileNotFoundError(errno.ENOENT, "no console token store", str(self.path))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10)
        if fresh:
            os.chmod(self.path, 0o600)
        self._db.execute("CREATE TABLE IF NOT EXISTS tokens (id TEXT PRIMARY KEY, "
                         "hash TEXT UNIQUE NOT NULL, role TEXT NOT NULL, created REAL NOT NULL,"
                         " expires REAL NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)")
        self._db.commit()
        self._lock = threading.Lock()
        self.clock = clock

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def mint(self, role: str, ttl: float) -> tuple[str, TokenInfo]:
        """A new token for ``role`` valid ``ttl`` seconds: ``(token, info)``.

        Raises:
            TokenError: unknown role, or a lifetime outside 60 s .. one year.
        """
        if role not in ROLES:
            raise TokenError(f"role must be one of {', '.join(ROLES)}, got {str(role)[:20]!r}")
        if not 60 <= ttl <= MAX_TTL:
            raise TokenError(f"a token lasts 60..{MAX_TTL} seconds, got {ttl}")
        token = secrets.token_urlsafe(32)
        now = self.clock()
        info = TokenInfo(secrets.token_hex(4), role, now, now + ttl, False)
        with self._lock:
            self._db.execute("INSERT INTO tokens VALUES (?, ?, ?, ?, ?, 0)",
                             (info.id, _hash(token), role, info.created, info.expires))
            self._db.commit()
        return token, info

    def check(self, token: str | None) -> TokenInfo | None:
        """The token's info if it is known, unexpired and not revoked, else None."""
        if not token or len(token) > MAX_TOKEN:
            return None
        with self._lock:
            row = self._db.execute("SELECT id, role, created, expires, revoked, hash FROM "
                                   "tokens WHERE hash = ?", (_hash(token),)).fetchone()
        if row is None or not hmac.compare_digest(row[5], _hash(token)):
            return None
        info = TokenInfo(row[0], row[1], row[2], row[3], bool(row[4]))
        if info.revoked or info.expires <= self.clock():
            return None
        return info

    def revoke(self, token_id: str) -> TokenInfo:
        """Revoke the token with ``token_id``.

        Raises:
            TokenError: no such token.
        """
        with self._lock:
            cur = self._db.execute("UPDATE tokens SET revoked = 1 WHERE id = ?",
                                   (str(token_id)[:20],))
            self._db.commit()
            row = self._db.execute("SELECT id, role, created, expires, revoked FROM tokens "
                                   "WHERE id = ?", (str(token_id)[:20],)).fetchone()
        if cur.rowcount == 0 or row is None:
            raise TokenError(f"no token {str(token_id)[:20]!r}")
        return TokenInfo(row[0], row[1], row[2], row[3], bool(row[4]))

    def tokens(self) -> list[TokenInfo]:
        """Every stored token (newest first), for the director's list."""
        with self._lock:
            rows = self._db.execute("SELECT id, role, created, expires, revoked FROM tokens "
                                    "ORDER BY created DESC").fetchall()
        return [TokenInfo(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]


class Pairing:
    """The pairing window: one code at a time, for one pairing, rate-limited."""

    def __init__(self, *, clock=time.monotonic) -> None:
        self.clock = clock
        self.code: str | None = None
        self.expires = 0.0
        self.failures: deque[float] = deque()
        self._lock = threading.Lock()

    def open(self) -> tuple[str, float]:
        """A new code: ``(code, seconds it stays valid)``."""
        with self._lock:
            self.code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            self.expires = self.clock() + PAIRING_SECONDS
            return self.code, float(PAIRING_SECONDS)

    def current(self) -> str | None:
        """The open code (for the TV), or None."""
        with self._lock:
            if self.code is not None and self.clock() >= self.expires:
                self.code = None
            return self.code

    def limited(self) -> bool:
        """Too many wrong codes in the last minute."""
        with self._lock:
            now = self.clock()
            while self.failures and now - self.failures[0] > 60:
                self.failures.popleft()
            return len(self.failures) >= PAIR_TRIES

    def try_code(self, code: str) -> bool:
        """Whether ``code`` is the open code (which then closes); a wrong one counts."""
        with self._lock:
            now = self.clock()
            good = (self.code is not None and now < self.expires and isinstance(code, str)
                    and hmac.compare_digest(code.strip().upper().encode(), self.code.encode()))
            if good:
                self.code = None
            else:
                self.failures.append(now)
            return good


def ctl_token(state_dir: str | Path) -> str:
    """``ctl``'s own director token: the one kept in ``<state>/console-ctl.token`` while
    it is valid, else a new one minted into the store and kept there (mode 0600).

    A token file that holds no valid token (expired, revoked, damaged: not text, too long)
    is replaced by a new one; it is only ctl's copy of a token the store knows.  ctl never
    makes the state folder nor the token store: the running table made them.

    Raises:
        CtlTokenError: the token file is not a regular file (a symbolic link, a folder, a
            pipe): refused, naming it, nothing changed.
        FileNotFoundError: no token store in ``state_dir`` (not the running table's state
            folder): nothing made.
    """
    state = Path(state_dir)
    path = state / CTL_TOKEN
    token = _read_ctl_token(path)
    store = TokenStore(state, create=False)
    try:
        if token is not None and store.check(token) is not None:
            return token
        token, _ = store.mint("director", CTL_TTL)
    finally:
        store.close()
    _write_ctl_token(path, token)
    return token


class CtlTokenError(InvalidInputError):
    """ctl's token file is not a regular file."""


def _read_ctl_token(path: Path) -> str | None:
    """The token in ``path`` (None: no file, or not a token: not UTF-8, too long)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CtlTokenError(f"{path}: ctl's token file cannot be read ({exc.strerror}); "
                            "it must be a regular file: move it away") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CtlTokenError(f"{path}: ctl's token file is not a regular file: move it away")
        raw = os.read(fd, MAX_TOKEN + 2)
    finally:
        os.close(fd)
    try:
        token = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return token if token and len(token) <= MAX_TOKEN else None


def _write_ctl_token(path: Path, token: str) -> None:
    """Keep ``token`` in ``path`` (mode 0600, replaced whole); no ``.new`` is left."""
    tmp = path.with_name(path.name + ".new")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(token + "\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
