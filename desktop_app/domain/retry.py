"""Retry backoff with additive jitter (seed 003: 30 s, 2 min, 8 min, then fail)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

BASE_DELAYS: tuple[float, ...] = (30.0, 120.0, 480.0)
JITTER = 0.20


def retry_delay(
    retry_number: int,
    *,
    delays: Sequence[float] = BASE_DELAYS,
    jitter: float = JITTER,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before retry number `retry_number` (1-based), or None when retries are spent.

    Jitter is additive: never earlier than the base, at most `jitter` later, so tasks failing in
    the same second spread out instead of retrying in lockstep.
    """
    if retry_number < 1 or retry_number > len(delays):
        return None
    base = delays[retry_number - 1]
    return base + base * jitter * rand()
