"""Test-wide settings.

Hypothesis: the ``pokertable`` profile (loaded by default; another registered profile may
be chosen with ``HYPOTHESIS_PROFILE``) has no per-example deadline and does not fail a
test whose input generation is slow (``HealthCheck.too_slow``): on a loaded 2-core CI
machine timing says nothing about correctness (a ``FailedHealthCheck: input generation is
slow`` was seen in tests/hardware/shoe/test_protocol.py::test_round_trip).  Speed is measured in
bench/, never asserted by tests.  Explicit ``@settings(...)`` on a test keep these
defaults for every option they do not set.

Temporary folders (``tmp_path`` and ``tempfile``, in this process and the processes it
starts) are in RAM, ``/dev/shm``, when the machine has it with 2 GiB free and ``TMPDIR``
does not name another folder: the journal syncs every record to its medium (``fsync``), and
on a CI disk shared with other work those waits were most of the time of the journaled tests (a
12-hand recovery run: 3.5 s on the disk, 0.9 s in RAM, in the same minute).  What the tests
check does not depend on the medium: a killed process leaves what it wrote to the kernel,
a power cut is simulated by copying the files at a chosen moment, and a full disk by a
file-size limit.  ``TMPDIR=/tmp make test`` runs them on the disk.

A test that runs a table's entry point in this process (``main(["sim", ...])``) freezes the
heap as a table process does (``pi_app/service/heap.py``); the heap is unfrozen after each
test, so that what was alive then is collected again like the rest of the suite's garbage.
"""

from __future__ import annotations

import gc
import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("pokertable", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "pokertable"))


#: RAM the temporary folders need free in /dev/shm; a container's default /dev/shm (64 MB)
#: is smaller, and then the tests keep the disk.
_RAM_NEEDED = 2 * 1024**3


def _temporary_folders_in_ram() -> None:
    if os.environ.get("TMPDIR") or not (os.path.isdir("/dev/shm")
                                        and os.access("/dev/shm", os.W_OK | os.X_OK)):
        return
    fs = os.statvfs("/dev/shm")
    if fs.f_bavail * fs.f_frsize < _RAM_NEEDED:
        return
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None  # tempfile reads TMPDIR again


_temporary_folders_in_ram()


@pytest.fixture(autouse=True)
def _heap_unfrozen_after_each_test() -> Iterator[None]:
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
