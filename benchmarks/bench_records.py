"""Time to export a game as CSV, to open the statistics and to show the first
page of past games, with 50, 500 and 5,000 finished games stored.

The stores are written straight through the storage (the per-game path would
rewrite the archive once per game); their games are the finished examples
played by twelve names in turn. For each size:

- ``stats_open_ms_N``: the statistics screen's data (``stats.statistics``)
  once the app has looked at the store before, nothing changed since: what
  opening the screen costs while the app runs.
- ``stats_after_a_game_ms_N``: the same right after one more game was
  finished on this store: the store's list is read again (the one step that
  still grows with the games kept) and the new game replayed once.
- ``list_first_page_ms_N``: the past-games screen's data for its first
  screenful (``listing.past_games`` and ``listing.known_players``), measured
  on the data functions, not in the browser.

At 5,000 games also: ``stats_first_ms_5000``, opening the statistics the very
first time (every game replayed and the summaries written; once per store and
rules version), ``stats_cold_ms_5000``, a new process opening the store and the
statistics with the summaries kept (store open included), and
``list_all_ms_5000``, the whole list as the screen read it before
(``Store.list_games``).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import timed
from companion import stats
from companion.export import game_csv
from companion.listing import known_players, past_games
from companion.log import GameLog, loads
from companion.replay import Replay, replay
from companion.storage import AtomicJSONStorage
from companion.store import ARCHIVE_FILE, Store, game_document
from companion.summaries import SUMMARIES_FILE, summaries_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNS = 50
SIZES = (50, 500, 5000)
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim")
NAMES += ("Lou",)


def renamed(log: GameLog, shift: int) -> GameLog:
    """The same game played by other names from NAMES (names are JSON strings)."""
    text = json.dumps(log.to_dict())
    for name in log.players:
        other = NAMES[(NAMES.index(name) + shift) % len(NAMES)]
        text = text.replace(json.dumps(name), json.dumps(f"@{other}"))
    return GameLog.from_dict(json.loads(text.replace('"@', '"')))


def finished_games() -> list[Replay]:
    logs = [loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))]
    done = [replay(log) for log in logs]
    played = [result.log for result in done if result.state.finished]
    return [replay(renamed(log, shift)) for shift in (0, 3, 6, 9) for log in played]


def fill(folder: Path, games: list[Replay], count: int) -> None:
    documents = {
        str(number): game_document(
            f"20200101-000000-{number:04x}",
            f"2020-01-01T{number // 60000:02d}:{number // 1000 % 60:02d}:"
            f"{number % 60:02d}.{number % 1000:03d}Z",
            games[number % len(games)],
            archived=True,
        )
        for number in range(count)
    }
    AtomicJSONStorage(folder / ARCHIVE_FILE, fsync=False).write({"games": documents})


def once(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def median(times: list[float]) -> float:
    return round(statistics.median(times), 3)


def first_screenful(store: Store) -> None:
    past_games(store)
    known_players(store)


def measure(games: list[Replay], figures: dict[str, object]) -> None:
    """Every size at once, each measurement alternating between the sizes so
    that the machine's load weighs on all of them alike."""
    with contextlib.ExitStack() as stack:
        stores: dict[int, Store] = {}
        for count in SIZES:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            fill(folder, games, count)
            store = stores[count] = Store(folder, fsync=False)
            stack.callback(store.close)
            first = once(lambda store=store: stats.statistics(store))
            seats = sum(len(games[n % len(games)].log.players) for n in range(count))
            counted = stats.statistics(store).players
            assert sum(record.played for record in counted) == seats
            first_screenful(store)
            if count == max(SIZES):
                figures[f"stats_first_ms_{count}"] = round(first, 3)
        opened: dict[int, list[float]] = {count: [] for count in SIZES}
        listed: dict[int, list[float]] = {count: [] for count in SIZES}
        after: dict[int, list[float]] = {count: [] for count in SIZES}
        for _ in range(RUNS):
            for count, store in stores.items():
                opened[count] += timed(lambda store=store: stats.statistics(store), 1)
                listed[count] += timed(lambda store=store: first_screenful(store), 1)
        for number in range(5):
            for count, store in stores.items():
                # The game finished where the statistics are opened, as at a table.
                store.import_log(games[number].log)
                after[count].append(once(lambda store=store: stats.statistics(store)))
        for count in SIZES:
            figures[f"stats_open_ms_{count}"] = median(opened[count])
            figures[f"list_first_page_ms_{count}"] = median(listed[count])
            figures[f"stats_after_a_game_ms_{count}"] = median(after[count])
        large = max(SIZES)
        biggest = stores[large]
        figures[f"list_all_ms_{large}"] = median(timed(biggest.list_games, 5))
        folder = biggest.folder

        def cold() -> None:
            fresh = Store(folder, fsync=False)
            stats.statistics(fresh)
            assert summaries_of(fresh).recounted == 0
            fresh.close()

        figures[f"stats_cold_ms_{large}"] = round(once(cold), 3)
        figures[f"summaries_mb_{large}"] = round(
            (folder / SUMMARIES_FILE).stat().st_size / 1e6, 2
        )


def run() -> dict[str, object]:
    logs = [loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))]
    longest = max(logs, key=lambda log: len(log.events))
    game_csv(longest)  # warm the imports and caches
    csv_times = timed(lambda: game_csv(longest), RUNS)
    figures: dict[str, object] = {
        "export_csv_events": len(longest.events),
        "export_csv_ms_median": median(csv_times),
    }
    measure(finished_games(), figures)
    small, large = SIZES[0], SIZES[-1]
    for name in ("stats_open", "list_first_page"):
        figures[f"{name}_ratio_{large}_to_{small}"] = round(
            figures[f"{name}_ms_{large}"]  # type: ignore[operator]
            / figures[f"{name}_ms_{small}"],  # type: ignore[operator]
            3,
        )
    return figures
