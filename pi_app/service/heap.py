"""The table process's long-lived heap, kept out of the garbage collector's passes.

A table process imports its whole world before it plays (the engine's tables, pygame,
the console's web stack...) and keeps it until it stops: some hundreds of thousands of
objects that never become garbage.  CPython's collector still walks all of them again at
every pass of its oldest generation, and a replay of the journal, which makes many
young objects quickly, sets off such passes many times.  :func:`freeze_startup_heap`
moves what is alive at that moment into the collector's permanent generation
(:func:`gc.freeze`), so that later passes walk only what was made after it.

The process entry points that run a table call it once, after their imports and
before the journal is recovered (``pokertable run``, ``pokertable sim`` for one table
and for a venue's table).  It is not called by
:func:`pi_app.service.wiring.build_service` or
:func:`pi_app.service.recovery.recover`: a process that builds many services (the test
suite) would then keep every earlier service's cyclic garbage for good, as a frozen
object that becomes garbage in a cycle is never collected (one freeze keeps at most
what was alive at that moment).

Measured (``bench/bench_service.py --only replay``: 10,000 real events replayed from the
journal, no clock tick; the same process frozen and not, runs alternated): see
docs/performance.md, the replay row (median 0.69 s -> about 0.52 s on a quiet machine).
:func:`gc.freeze` is documented for this use ("ignore them in all the future
collections"); its other use, sharing pages after a fork, does not apply here.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Collect what is already garbage, then freeze every object still alive
    (:func:`gc.collect`, :func:`gc.freeze`): the collector's later passes skip them.
    Returns the number of objects now frozen (:func:`gc.get_freeze_count`).  Never
    raises."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
