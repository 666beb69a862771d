"""The phone build (``make web``) against Flet's floor: a counter published alike.

For each, in a fresh Chromium profile at a phone's size, with the folder
served as static files on 127.0.0.1: the first interactive screen cold (first
visit), on a reload (through the service worker), and offline (the browser
restarted with the server gone); then a tap, in the phone build a card of a
trick in a restored game. Also the phone build's size on disk and gzipped.
"""

from __future__ import annotations

import gzip
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.bench_ui import CHROMIUM, READ, SETTLE_S, next_trick, timed_tap
from web.build import COMPANION, COUNTER, ROOT, PageApp, build
from web.serve import StaticSite

RUNS = 3
TRICKS = 3
COUNTER_TAPS = 20
PLAYERS = ["Ann", "Ben", "Cy"]
PHONE = {"width": 390, "height": 844}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
START_MS = 300_000


def ready(page: Any, first: str, started: float) -> float:
    """Seconds from ``started`` until ``first`` can be tapped."""
    page.wait_for_selector(
        "flt-semantics-placeholder", state="attached", timeout=START_MS
    )
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    button = page.locator(f'[flt-semantics-identifier="{first}"]')
    button.wait_for(state="visible", timeout=START_MS)
    button.click(trial=True)
    return time.perf_counter() - started


def launch(playwright: Any, profile: Path) -> tuple[Any, Any]:
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, viewport=PHONE
    )
    page = context.pages[0] if context.pages else context.new_page()
    return context, page


@dataclass(frozen=True)
class Starts:
    """Seconds to the first interactive screen, and milliseconds a tap."""

    cold: float
    reload: float
    offline: float
    taps: list[float]


def starts(
    playwright: Any,
    folder: Path,
    first: str,
    profile: Path,
    tap: Callable[[Any], list[float]],
) -> Starts:
    """Cold, reload and offline start of one fresh profile; then the taps."""
    site = StaticSite(folder).start()
    context, page = launch(playwright, profile)
    try:
        started = time.perf_counter()
        page.goto(site.url)
        cold = ready(page, first, started)
        # The service worker has kept every file and answers the page.
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        started = time.perf_counter()
        page.reload()
        reload = ready(page, first, started)
    finally:
        context.close()
        site.stop()
    context, page = launch(playwright, profile)
    try:
        started = time.perf_counter()
        page.goto(site.url)
        offline = ready(page, first, started)
        taps = tap(page)
    finally:
        context.close()
    return Starts(cold, reload, offline, taps)


def counter_taps(page: Any) -> list[float]:
    return [timed_tap(page, "count-button", ["count"]) for _ in range(COUNTER_TAPS)]


def card_taps(page: Any) -> list[float]:
    """Restore a game that waits for its first trick, and tap its cards."""
    from companion.backup import backup_bytes, restore_bytes
    from companion.log import GameLog
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        store = Store(Path(data) / "kept")
        game_id = store.create_game(GameLog("cursed-tricks", PLAYERS))
        store.append(game_id, {"type": "round", "leader": PLAYERS[0]})
        backup = Path(data) / "backup.json"
        backup.write_bytes(backup_bytes(store))
        with page.expect_file_chooser(timeout=60_000) as chooser:
            page.locator('[flt-semantics-identifier="restore"]').click()
        chooser.value.set_files(str(backup))
        page.locator('[flt-semantics-identifier="backup-said"]').wait_for(
            timeout=60_000
        )
        # The restore's answer drew Resume: the tap guard takes it once a
        # player could have seen it.
        time.sleep(SETTLE_S)
        page.locator('[flt-semantics-identifier="resume"]').click()
        page.locator('[flt-semantics-identifier="undo"]').wait_for(timeout=60_000)
        time.sleep(SETTLE_S)  # the table just drawn takes taps from now
        watch = ["trick-so-far", "next-player", "reasons", "choice-question"]
        # The page's games follow the same log here, trick by trick.
        replica = Store(Path(data) / "replica")
        restore_bytes(replica, backup.read_bytes())
        taps: list[float] = []
        for _ in range(TRICKS):
            cards = next_trick(replica, game_id)
            taps += [timed_tap(page, f"card-{code}", watch) for code in cards]
            if page.evaluate(READ, ["choice-question"]):
                break  # the rules ask a question: enough taps for a figure
            replica.append(game_id, {"type": "trick", "cards": cards})
    return taps


def measured(
    playwright: Any, app: PageApp, first: str, tap: Callable[[Any], list[float]]
) -> dict[str, float]:
    folder = build(ROOT / "build" / f"bench-{app.name.split()[-1].lower()}", app)
    with tempfile.TemporaryDirectory() as profiles:
        runs = [
            starts(playwright, folder, first, Path(profiles) / str(at), tap)
            for at in range(RUNS)
        ]
    return {
        "cold": statistics.median(run.cold for run in runs),
        "reload": statistics.median(run.reload for run in runs),
        "offline": statistics.median(run.offline for run in runs),
        "tap_ms": statistics.median(tap for run in runs for tap in run.taps),
    }


def size(folder: Path) -> tuple[int, int]:
    """Bytes on disk, and gzipped file by file as a static host may send them."""
    files = [path for path in folder.rglob("*") if path.is_file()]
    raw = sum(path.stat().st_size for path in files)
    packed = sum(len(gzip.compress(path.read_bytes(), 6)) for path in files)
    return raw, packed


def run() -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        counter = measured(playwright, COUNTER, "count-button", counter_taps)
        phone = measured(playwright, COMPANION, "new-game", card_taps)
    raw, packed = size(ROOT / "build" / "bench-companion")
    figures: dict[str, object] = {}
    for kind in ("cold", "reload", "offline"):
        figures[f"web_{kind}_start_s"] = round(phone[kind], 2)
        figures[f"web_counter_{kind}_start_s"] = round(counter[kind], 2)
        figures[f"web_{kind}_start_ratio"] = round(phone[kind] / counter[kind], 3)
    figures["web_tap_ms"] = round(phone["tap_ms"], 1)
    figures["web_counter_tap_ms"] = round(counter["tap_ms"], 1)
    figures["web_size_mib"] = round(raw / 2**20, 1)
    figures["web_size_gzip_mib"] = round(packed / 2**20, 1)
    return figures
