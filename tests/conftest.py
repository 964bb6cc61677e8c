"""Test-wide settings.

Hypothesis: the ``pokertable`` profile (loaded by default; another registered profile may
be chosen with ``HYPOTHESIS_PROFILE``) has no per-example deadline and does not fail a
test whose input generation is slow (``HealthCheck.too_slow``): on a loaded 2-core CI
machine timing says nothing about correctness (a ``FailedHealthCheck: input generation is
slow`` was seen in tests/hardware/shoe/test_protocol.py::test_round_trip).  Speed is measured in
bench/, never asserted by tests.  Explicit ``@settings(...)`` on a test keep these
defaults for every option they do not set.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("pokertable", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "pokertable"))
