"""A real table service process on loopback with mock hardware, for the console's tests:
``config/mock-table.toml`` copied with a free port, ``$STATE_DIRECTORY`` in a temporary
folder, started with ``pokertable run --config``; helpers for HTTP and ``ctl``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.data_paths import REPO
from tests.ports import free_port

MOCK_TABLE = REPO / "config" / "mock-table.toml"


def write_config(folder: Path, port: int, **replace: str) -> Path:
    """``mock-table.toml`` with ``port``, copied into ``folder`` (it may live anywhere)."""
    text = MOCK_TABLE.read_text().replace('listen = "127.0.0.1:8765"',
                                          f'listen = "127.0.0.1:{port}"')
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "table.toml"
    path.write_text(text)
    return path


def env_for(state: Path) -> dict[str, str]:
    return dict(os.environ, STATE_DIRECTORY=str(state), SDL_VIDEODRIVER="dummy",
                SDL_AUDIODRIVER="dummy")


class Table:
    """One service process: ``start()``, ``stop()`` (SIGTERM), ``kill()`` (SIGKILL)."""

    def __init__(self, folder: Path, **replace: str) -> None:
        self.folder = folder
        self.state = folder / "state"
        self.state.mkdir(exist_ok=True)
        self.port = free_port()
        self.config = write_config(folder, self.port, **replace)
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.log = folder / "service.log"

    def start(self, timeout: float = 60.0) -> Table:
        logf = open(self.log, "a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pi_app.cli.main", "run", "--config", str(self.config)],
            stdout=logf, stderr=subprocess.STDOUT, text=True, env=env_for(self.state),
            cwd=self.folder)
        logf.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the service exited: {self.log.read_text()[-3000:]}")
            try:
                status, _ = self.get("/api/status")
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError("the console did not come up")

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(30)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(30)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    # --- HTTP ---------------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None
                ) -> tuple[int, Any]:
        """``(status, parsed JSON or text)``; never raises on a 4xx."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None
                                            else None)
        h = {"Content-Type": "application/json"} if data is not None else {}
        if token:
            h["Authorization"] = f"Bearer {token}"
        h.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        return self.request("POST", path, {} if body is None else body, **kw)

    def ctl(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pi_app.cli.main", "ctl", "--config",
                               str(self.config), *args], capture_output=True, text=True,
                              timeout=timeout, env=env_for(self.state), cwd=self.folder)
