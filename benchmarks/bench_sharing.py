"""One table on two devices (``companion --lan``), in Chromium.

- share_follow_ms: median time from a card tap on one device to the other
  device's screen showing it (≥ 16 taps).
- share_agree_ms: median time from a card tap until both devices show the
  same trick (the same taps: the two devices take turns tapping).
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_ui import (
    CHANGED,
    PLAYERS,
    READ,
    ROOT,
    SETTLE_S,
    chromium,
    free_port,
    next_trick,
    open_page,
    served,
    wait_until,
)

FOLLOW_TAPS = 16
WATCH = ["trick-so-far", "next-player", "reasons", "choice-question"]


def node(page: Any, identifier: str) -> Any:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]')


def table_code(terminal: Path) -> str:
    deadline = time.monotonic() + 30
    while not (found := re.search(r"Table code: (\d+)", terminal.read_text())):
        if time.monotonic() > deadline:
            raise RuntimeError("the server showed no table code")
        time.sleep(0.05)
    return found.group(1)


def join_and_resume(browser: Any, port: int, code: str) -> Any:
    page = open_page(browser, port, "join", time.perf_counter())
    # Each control was just drawn by the tap before it: the tap guard takes
    # it once the player could have seen it (SETTLE_S).
    node(page, "table-code").click()
    page.locator("input:focus, textarea:focus").fill(code)
    time.sleep(SETTLE_S)
    node(page, "join").click()
    node(page, "resume").wait_for()
    time.sleep(SETTLE_S)
    node(page, "resume").click()
    node(page, "undo").wait_for()
    time.sleep(SETTLE_S)
    return page


def followed_tap(tapper: Any, follower: Any, identifier: str) -> tuple[float, float]:
    """Milliseconds until the other device shows the tap, and until both agree."""
    before = follower.evaluate(READ, WATCH)
    start = time.perf_counter()
    node(tapper, identifier).click()
    follower.wait_for_function(CHANGED, arg=[WATCH, before], polling="raf")
    followed = (time.perf_counter() - start) * 1000
    while True:
        shown = follower.evaluate(READ, WATCH)
        if tapper.evaluate(READ, WATCH) == shown:
            return followed, (time.perf_counter() - start) * 1000
        if time.perf_counter() - start > 30:
            raise RuntimeError("the two devices did not agree")
        time.sleep(0.002)


def follow_figures(browser: Any) -> tuple[float, float]:
    from companion.log import GameLog
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        store = Store(data)
        game_id = store.create_game(GameLog("cursed-tricks", PLAYERS))
        store.append(game_id, {"type": "round", "leader": PLAYERS[0]})
        del store
        port = free_port()
        companion = ROOT / ".venv" / "bin" / "companion"
        command = [str(companion), "--lan", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--data", data]
        terminal = Path(data) / "terminal.txt"
        with terminal.open("wb") as output, served(command, output):
            code = table_code(terminal)
            tapper = join_and_resume(browser, port, code)
            follower = join_and_resume(browser, port, code)
            reader = Store(data)
            taps: list[tuple[float, float]] = []
            while len(taps) < FOLLOW_TAPS:
                events = len(reader.load(game_id).log.events)
                for card in next_trick(reader, game_id):
                    taps.append(followed_tap(tapper, follower, f"card-{card}"))
                    tapper, follower = follower, tapper
                if tapper.evaluate(READ, ["choice-question"]):
                    time.sleep(SETTLE_S)
                    tapper.locator(
                        '[flt-semantics-identifier^="choice-"]'
                        ':not([flt-semantics-identifier="choice-question"])'
                    ).first.click()
                wait_until(
                    lambda events=events: len(reader.load(game_id).log.events) > events
                )
            for page in (tapper, follower):
                page.close()
    return (
        statistics.median(followed for followed, _ in taps),
        statistics.median(agreed for _, agreed in taps),
    )


def run() -> dict[str, object]:
    with chromium() as browser:
        follow, agree = follow_figures(browser)
    return {"share_follow_ms": round(follow, 1), "share_agree_ms": round(agree, 1)}


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
