"""Fault injection for the recovery tests: kill this process at a named point.

``POKERTABLE_TEST_KILL_AT="point:N"`` makes the process send itself SIGKILL the N-th
time (1-based) it passes ``point``.  Several may be given, comma separated.  Points in
the service: ``journal_create`` (the new file built aside, not yet linked in), ``journal_append``
(before an event is written), ``journal_write`` (the row is written, not yet committed),
``journal_commit`` (committed, not yet applied), ``apply`` (applied, effects not yet
carried out), ``effects`` (after one hand history file is written), ``snapshot`` (a
snapshot row written, not yet committed), ``snapshot_commit`` (snapshot committed),
``journal_checkpoint`` (records committed, the WAL about to be checkpointed: at idle or
on close).
Unset, :func:`kill_point` costs one dict lookup.
"""

from __future__ import annotations

import os
import signal

ENV = "POKERTABLE_TEST_KILL_AT"
_targets: dict[str, int] | None = None
_counts: dict[str, int] = {}


def _parse() -> dict[str, int]:
    spec = os.environ.get(ENV, "").strip()
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, n = part.partition(":")
        out[name] = int(n or "1")
    return out


def kill_point(name: str) -> None:
    """SIGKILL this process if ``name`` has now been reached the configured number of times."""
    global _targets
    if _targets is None:
        _targets = _parse()
    if not _targets or name not in _targets:
        return
    _counts[name] = _counts.get(name, 0) + 1
    if _counts[name] == _targets[name]:
        os.kill(os.getpid(), signal.SIGKILL)


def reset() -> None:
    """Forget the parsed environment (tests that change it in-process)."""
    global _targets
    _targets = None
    _counts.clear()
