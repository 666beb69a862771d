"""What recording a trick and listing games cost, with and without a long history.

The 5,000 archived games are written straight through the storage in one go
(the per-game path would rewrite the archive 5,000 times); each is a copy of
the longest example game.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.timing import timed
from companion.log import GameLog, loads
from companion.replay import replay
from companion.storage import AtomicJSONStorage
from companion.store import ARCHIVE_FILE, LIVE_FILE, Store, game_document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARCHIVED = 5000
LIST_RUNS = 20
IMPORT_RUNS = 10
ROUNDS = 3  # each round records the whole example game once


def example() -> GameLog:
    logs = [loads(path.read_text()) for path in EXAMPLES.glob("*.json")]
    return max(logs, key=lambda log: len(log.events))


def fill_archive(folder: Path, log: GameLog, count: int) -> None:
    result = replay(log)
    games = {
        str(number): game_document(
            f"20200101-000000-{number:04x}",
            f"2020-01-01T00:00:{number // 1000:02d}.{number % 1000:03d}Z",
            result,
            archived=True,
        )
        for number in range(1, count + 1)
    }
    AtomicJSONStorage(folder / ARCHIVE_FILE).write({"games": games})


def append_times(store: Store, log: GameLog) -> tuple[list[float], list[float]]:
    """Milliseconds per append while recording the whole game, ROUNDS times.

    The game's last event moves it to the archive, a different cost, so it is
    timed apart: (every other append, each last one).
    """
    times: list[float] = []
    last: list[float] = []
    for _ in range(ROUNDS):
        game_id = store.create_game(log.with_events([]))
        for number, event in enumerate(log.events, start=1):
            start = time.perf_counter()
            store.append(game_id, event)
            took = (time.perf_counter() - start) * 1000
            (last if number == len(log.events) else times).append(took)
    return times, last


def import_times(log: GameLog, ahead: timedelta | None) -> list[float]:
    """Milliseconds per import (a fresh store each, as `companion import` opens
    one) into a folder holding one game stamped ``ahead`` of the clock."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        if ahead is not None:
            started = datetime.now(UTC) + ahead
            stamp = started.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            doc = game_document(
                "ahead", stamp, replay(log.with_events([])), archived=False
            )
            AtomicJSONStorage(folder / LIVE_FILE).write({"games": {"1": doc}})
        for _ in range(IMPORT_RUNS):
            start = time.perf_counter()
            Store(folder).import_log(log)
            times.append((time.perf_counter() - start) * 1000)
    return times


def run() -> dict[str, object]:
    log = example()
    replay(log)  # warm the engine's import
    with (
        tempfile.TemporaryDirectory() as empty_dir,
        tempfile.TemporaryDirectory() as big_dir,
    ):
        empty, big = Path(empty_dir), Path(big_dir)
        fill_archive(big, log, ARCHIVED)

        start = time.perf_counter()
        big_store = Store(big)
        games = big_store.list_games()
        cold_list = (time.perf_counter() - start) * 1000
        assert len(games) == ARCHIVED
        list_times = timed(big_store.list_games, LIST_RUNS)

        empty_store = Store(empty)
        # Alternate the two so that disk and machine noise hit both alike.
        empty_times: list[float] = []
        big_times: list[float] = []
        big_last: list[float] = []
        for _ in range(2):
            empty_times += append_times(empty_store, log)[0]
            times, last = append_times(big_store, log)
            big_times += times
            big_last += last
        empty_ms = statistics.median(empty_times)
        big_ms = statistics.median(big_times)
        # A game stored by a device whose clock was a day ahead.
        import_ms = statistics.median(import_times(log, None))
        import_ahead_ms = statistics.median(import_times(log, timedelta(days=1)))
        return {
            "store_log": f"{log.game}, {len(log.events)} events",
            "store_append_ms_empty": round(empty_ms, 3),
            "store_append_ms_5000": round(big_ms, 3),
            "store_append_ratio": round(big_ms / empty_ms, 3),
            "store_last_append_ms_5000": round(statistics.median(big_last), 3),
            "store_list_ms_5000": round(statistics.median(list_times), 3),
            "store_list_ms_5000_cold_open": round(cold_list, 3),
            "store_import_ms": round(import_ms, 3),
            "store_import_ms_game_a_day_ahead": round(import_ahead_ms, 3),
            "store_archive_mb": round((big / ARCHIVE_FILE).stat().st_size / 1e6, 2),
            "store_live_kb": round((big / LIVE_FILE).stat().st_size / 1e3, 2),
        }
