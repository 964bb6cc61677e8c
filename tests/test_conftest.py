"""tests/conftest.py: the hypothesis profile every test runs under."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_profile_has_no_deadline_and_tolerates_slow_generation() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


@settings(max_examples=5)
@given(st.integers())
def test_explicit_settings_keep_the_profile(x: int) -> None:
    assert settings.default.deadline is None
    assert isinstance(x, int)


def test_decorated_settings_inherit_the_profile() -> None:
    s = settings(max_examples=5)
    assert s.deadline is None and HealthCheck.too_slow in s.suppress_health_check
