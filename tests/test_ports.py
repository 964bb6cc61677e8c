"""The tests' ports (tests/ports.py): each xdist worker has a block of its own, outside the
kernel's ephemeral range, and hands out ports that are free."""

from __future__ import annotations

import socket

import pytest

from tests import ports


def test_the_blocks_of_two_workers_never_meet_nor_reach_the_kernels_range():
    blocks = [set(ports.worker_block(i)) for i in range(25)]
    assert all(a.isdisjoint(b) for i, a in enumerate(blocks) for b in blocks[i + 1:])
    assert min(min(b) for b in blocks) > 1024 and max(max(b) for b in blocks) < 32768
    with pytest.raises(RuntimeError, match="too many test workers"):
        ports.worker_block(25)


@pytest.mark.parametrize("worker,index", [("gw0", 0), ("gw1", 1), ("gw7", 7), ("", 0),
                                          ("master", 0)])
def test_the_worker_is_read_from_xdist(worker, index, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    assert ports.worker_index() == index


def test_a_port_is_of_this_workers_block_free_and_not_handed_out_twice(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    got = [ports.free_port() for _ in range(5)]
    assert len(set(got)) == 5 and set(got) <= set(ports.worker_block(1))
    with socket.socket() as s:
        s.bind((ports.HOST, got[0]))  # free: a server can take it


def test_a_port_in_use_is_skipped(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw2")
    block = ports.worker_block(2)
    taken = []
    try:
        for port in block:  # hold every port of the block but one
            s = socket.socket()
            try:
                s.bind((ports.HOST, port))
            except OSError:
                s.close()
                continue
            taken.append(s)
        last = taken.pop()
        free = last.getsockname()[1]
        last.close()
        assert ports.free_port() == free
    finally:
        for s in taken:
            s.close()
