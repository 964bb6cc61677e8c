"""Loopback TCP ports for the servers the tests start (Mosquitto, the console's service),
never the same port in two pytest-xdist workers.

Each worker (``PYTEST_XDIST_WORKER`` = ``gw0``, ``gw1``...; a run without xdist is worker 0)
takes its ports from a block of :data:`BLOCK` of its own, below the kernel's ephemeral
range (32768 and up on Linux), where the ports a process gets by binding port 0 come
from: no two workers hand out the same port, and no port handed out here is one the
kernel gives another socket (chromedriver's, a client's).  In its block a worker hands the
ports out in turn from a random start (another run of the suite on the same machine most
likely starts elsewhere), each one checked free by binding it first; a port in use, or
still held by a closed connection, is skipped.
"""

from __future__ import annotations

import itertools
import os
import random
import socket

BASE = 20000   #: the first port of worker 0's block
BLOCK = 500    #: ports per worker (25 workers fit below 32768)
HOST = "127.0.0.1"

_turn = itertools.count(random.randrange(BLOCK))


def worker_index() -> int:
    """This process's xdist worker number (0 when the tests are not distributed)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def worker_block(index: int | None = None) -> range:
    """The ports worker ``index`` (default: this one) hands out."""
    first = BASE + BLOCK * (worker_index() if index is None else index)
    if first + BLOCK > 32768:
        raise RuntimeError(f"too many test workers for the port blocks ({index})")
    return range(first, first + BLOCK)


def free_port() -> int:
    """A loopback TCP port of this worker's block, free now (checked by binding it).

    Raises:
        RuntimeError: every port of the block is in use.
    """
    block = worker_block()
    for _ in range(BLOCK):
        port = block[next(_turn) % BLOCK]
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {block}")
