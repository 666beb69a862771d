"""The table app in Chromium beside a bare Flet counter, served the same way.

- ui_cold_start_s: process start to the home screen's first button clickable.
- ui_tap_ms: median time from a card tap to the updated screen (≥ 50 taps).
- ratios: the same figures divided by the counter app's.
- ui_taps_per_trick: taps needed to record a four-player trick.
- ui_scrolls_per_round: cards that were out of view when their turn came, per
  round, on the smallest phone screen (360×740).
- ui_second_tap_events: events hurried second taps stored beyond one tap's
  meaning (or a trick recorded with other cards than tapped): a round's leader
  and every card and answer of three tricks each clicked twice, 350 ms apart,
  on one spot.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TAPS = 52
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
READ = """ids => ids.map(id => {
    const node = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    return node ? node.textContent : "";
}).join("|")"""
CHANGED = f"([ids, before]) => ({READ})(ids) !== before"
SMALL_PHONE = {"width": 360, "height": 740}
# A tap sooner than this after the last one's answer is dropped unless both
# are cards of one round (screens.ui.TapGuard): the benchmark waits it out.
SETTLE_S = 1.3
SECOND_TAP_S = 0.35


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing answered on port {port}")


@contextmanager
def served(
    command: list[str], output: Any = subprocess.DEVNULL
) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=output,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def open_page(browser: Any, port: int, first_button: str, started: float) -> Any:
    """Load the app and return the page once ``first_button`` is clickable."""
    wait_for_port(port)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("flt-semantics-placeholder", state="attached")
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    button = page.locator(f'[flt-semantics-identifier="{first_button}"]')
    button.wait_for(state="visible")
    button.click(trial=True)  # actionable: visible, stable, receiving events
    page.cold_start = time.perf_counter() - started
    return page


def timed_tap(page: Any, identifier: str, watch: list[str]) -> float:
    before = page.evaluate(READ, watch)
    start = time.perf_counter()
    page.locator(f'[flt-semantics-identifier="{identifier}"]').click()
    page.wait_for_function(CHANGED, arg=[watch, before], polling="raf")
    return (time.perf_counter() - start) * 1000


def counter_figures(browser: Any) -> tuple[float, float]:
    port = free_port()
    command = [sys.executable, str(ROOT / "benchmarks" / "counter_app.py"), str(port)]
    started = time.perf_counter()
    with served(command):
        page = open_page(browser, port, "count-button", started)
        taps = [timed_tap(page, "count-button", ["count"]) for _ in range(TAPS)]
        page.close()
    return page.cold_start, statistics.median(taps)


def next_trick(store: Any, game_id: str) -> list[str]:
    prompt = store.replay(game_id).prompt()
    pool = [str(card) for card in prompt.cards]
    chosen: list[str] = []
    for _ in prompt.seats:
        lead = chosen[0][0] if chosen else None
        left = [code for code in pool if code not in chosen]
        chosen.append(([c for c in left if c[0] == lead] or left)[0])
    return chosen


def out_of_view(page: Any, identifier: str) -> bool:
    """Whether the control needs a scroll before a thumb can tap it."""
    box = page.locator(f'[flt-semantics-identifier="{identifier}"]').bounding_box()
    size = page.viewport_size
    return (
        box is None
        or box["y"] < 0
        or box["y"] + box["height"] > size["height"]
        or box["x"] + box["width"] > size["width"]
    )


def app_figures(browser: Any) -> tuple[float, float, float, float]:
    from companion.log import GameLog
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        store = Store(data)
        game_id = store.create_game(GameLog("cursed-tricks", PLAYERS))
        store.append(game_id, {"type": "round", "leader": "Ann"})
        del store
        port = free_port()
        companion = ROOT / ".venv" / "bin" / "companion"
        command = [str(companion), "--port", str(port), "--data", data]
        started = time.perf_counter()
        with served(command):
            page = open_page(browser, port, "new-game", started)
            page.set_viewport_size(SMALL_PHONE)
            page.locator('[flt-semantics-identifier="resume"]').click()
            page.locator('[flt-semantics-identifier="undo"]').wait_for()
            time.sleep(SETTLE_S)  # the table just drawn takes taps from now
            watch = ["trick-so-far", "next-player", "reasons", "choice-question"]
            taps: list[float] = []
            per_trick: list[int] = []
            scrolls = 0
            reader = Store(data)
            while len(taps) < TAPS:
                events = len(reader.load(game_id).log.events)
                prompt = reader.replay(game_id).prompt()
                if "trick" not in prompt.expects:
                    time.sleep(SETTLE_S)
                    page.locator(
                        f'[flt-semantics-identifier="leader-{PLAYERS[0]}"]'
                    ).click()
                    page.wait_for_function(
                        CHANGED, arg=[watch, page.evaluate(READ, watch)]
                    )
                    time.sleep(SETTLE_S)
                    continue
                count = 0
                for code in next_trick(reader, game_id):
                    scrolls += out_of_view(page, f"card-{code}")
                    taps.append(timed_tap(page, f"card-{code}", watch))
                    count += 1
                if page.evaluate(READ, ["choice-question"]):
                    option = page.locator(
                        '[flt-semantics-identifier^="choice-"]'
                        ':not([flt-semantics-identifier="choice-question"])'
                    ).first
                    time.sleep(SETTLE_S)
                    option.click()
                    count += 1
                    page.wait_for_function(
                        CHANGED,
                        arg=[
                            ["choice-question"],
                            page.evaluate(READ, ["choice-question"]),
                        ],
                    )
                    time.sleep(SETTLE_S)
                wait_until(
                    lambda events=events: len(reader.load(game_id).log.events) > events
                )
                per_trick.append(count)
            rounds = sum(
                1 for e in reader.load(game_id).log.events if e.get("type") == "round"
            )
            page.close()
    return (
        page.cold_start,
        statistics.median(taps),
        statistics.median(per_trick),
        scrolls / max(rounds, 1),
    )


def double_click(page: Any, selector: str) -> None:
    """Two clicks on the middle of the control, 350 ms apart, then a pause."""
    box = page.locator(selector).first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    time.sleep(SECOND_TAP_S)
    page.mouse.click(x, y)
    time.sleep(SETTLE_S)


def second_tap_events(browser: Any) -> int:
    """Events and kept cards beyond what the taps meant, every tap doubled."""
    from companion.log import GameLog
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        writer = Store(data)
        game_id = writer.create_game(GameLog("cursed-tricks", PLAYERS))
        del writer
        port = free_port()
        companion = ROOT / ".venv" / "bin" / "companion"
        command = [str(companion), "--port", str(port), "--data", data]
        with served(command):
            store = Store(data)
            page = open_page(browser, port, "new-game", time.perf_counter())
            page.set_viewport_size(SMALL_PHONE)
            page.locator('[flt-semantics-identifier="resume"]').click()
            time.sleep(SETTLE_S)
            double_click(page, f'[flt-semantics-identifier="leader-{PLAYERS[0]}"]')
            wait_until(lambda: len(store.load(game_id).log.events) == 1)
            extra = 0
            for _ in range(3):
                before = len(store.load(game_id).log.events)
                cards = next_trick(store, game_id)
                for code in cards:
                    double_click(page, f'[flt-semantics-identifier="card-{code}"]')
                while page.evaluate(READ, ["choice-question"]):
                    double_click(
                        page,
                        '[flt-semantics-identifier^="choice-"]'
                        ':not([flt-semantics-identifier="choice-question"])',
                    )
                wait_until(lambda b=before: len(store.load(game_id).log.events) > b)
                time.sleep(SETTLE_S)
                events = store.load(game_id).log.events
                extra += len(events) - before - 1
                extra += events[-1].get("cards") != cards
            page.close()
    return extra


def wait_until(check: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError("the app did not record the trick")
        time.sleep(0.02)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, launched as every browser benchmark here uses it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()


def run() -> dict[str, object]:
    with chromium() as browser:
        counter_start, counter_tap = counter_figures(browser)
        app_start, app_tap, per_trick, scrolls = app_figures(browser)
        second_taps = second_tap_events(browser)
    return {
        "ui_cold_start_s": round(app_start, 3),
        "ui_cold_start_ratio": round(app_start / counter_start, 3),
        "ui_tap_ms": round(app_tap, 1),
        "ui_tap_ratio": round(app_tap / counter_tap, 3),
        "ui_taps_per_trick": per_trick,
        "ui_scrolls_per_round": round(scrolls, 2),
        "ui_second_tap_events": second_taps,
        "ui_counter_cold_start_s": round(counter_start, 3),
        "ui_counter_tap_ms": round(counter_tap, 1),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
