"""Timing a piece of work the way every benchmark here does: milliseconds a run."""

from __future__ import annotations

import time
from collections.abc import Callable


def timed(action: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times
