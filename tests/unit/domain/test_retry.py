"""Retry backoff: 30 s, 2 min, 8 min plus 0-20 % additive jitter, never earlier than the base."""

from __future__ import annotations

import random

import pytest

from desktop_app.domain.retry import retry_delay


@pytest.mark.parametrize(("number", "low", "high"), [(1, 30, 36), (2, 120, 144), (3, 480, 576)])
def test_bounds(number: int, low: float, high: float) -> None:
    assert retry_delay(number, rand=lambda: 0.0) == low
    assert retry_delay(number, rand=lambda: 0.999999) == pytest.approx(high, abs=0.01)
    rng = random.Random(number)
    for _ in range(1000):
        delay = retry_delay(number, rand=rng.random)
        assert delay is not None and low <= delay < high


def test_after_third_retry_none() -> None:
    assert retry_delay(4) is None
    assert retry_delay(0) is None


def test_jitter_spreads_simultaneous_failures() -> None:
    rng = random.Random(7)
    delays = [retry_delay(1, rand=rng.random) for _ in range(200)]
    assert len({round(d, 2) for d in delays if d is not None}) > 150  # not in lockstep
    assert max(delays) - min(delays) > 5  # type: ignore[operator]
