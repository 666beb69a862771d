"""Time to export a game as CSV (a replay that keeps each event's rows) and to
recount the statistics of a store full of finished games."""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from benchmarks.timing import timed
from companion import stats
from companion.export import game_csv
from companion.log import loads
from companion.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNS = 50
STORED_COPIES = 20  # each example stored this many times for the statistics


def run() -> dict[str, object]:
    logs = [loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))]
    longest = max(logs, key=lambda log: len(log.events))
    game_csv(longest)  # warm the imports and caches
    csv_times = timed(lambda: game_csv(longest), RUNS)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder), fsync=False)
        for _ in range(STORED_COPIES):
            for log in logs:
                store.import_log(log)
        stats.store_figures(store)  # warm the parsed store
        stats_times = timed(lambda: stats.store_figures(store), 5)
        store.close()
    return {
        "export_csv_events": len(longest.events),
        "export_csv_ms_median": round(statistics.median(csv_times), 3),
        "stats_games": STORED_COPIES * len(logs),
        "stats_ms_median": round(statistics.median(stats_times), 3),
    }
