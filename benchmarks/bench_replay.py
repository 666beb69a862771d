"""Time to replay the longest example log, the work behind every screen update."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from companion.log import GameLog, loads
from companion.replay import replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNS = 300


def longest_example() -> tuple[str, GameLog]:
    logs = [(path.name, loads(path.read_text())) for path in EXAMPLES.glob("*.json")]
    return max(logs, key=lambda item: len(item[1].events))


def run() -> dict[str, object]:
    name, log = longest_example()
    replay(log)  # warm the engine's import and caches
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        replay(log)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "replay_log": name,
        "replay_events": len(log.events),
        "replay_ms_median": round(statistics.median(times), 3),
        "replay_ms_p95": round(sorted(times)[int(RUNS * 0.95)], 3),
    }
