"""Killing the app in the middle of recording loses nothing it confirmed."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.store import Store
from tests.companion.test_store import filler, header

ROOT = Path(__file__).resolve().parents[2]
KILLS = 50

# Records events of one game without end, printing how many the game holds
# each time an append has returned.
WRITER = """
import sys
from companion.store import Store
from tests.companion.test_store import filler

store = Store(sys.argv[1])
game_id = sys.argv[2]
count = len(store.load(game_id).log.events)
print("ready", flush=True)
while True:
    store.append(game_id, filler(count))
    count += 1
    print(count, flush=True)
"""


def test_sigkill_at_random_moments_loses_no_confirmed_event(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    game_id = Store(folder).create_game(header())
    rng = random.Random(20261125)
    confirmed = 0
    for _ in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(folder), game_id],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.0, 0.08))
        child.send_signal(signal.SIGKILL)
        printed = [int(line) for line in child.stdout.read().split()]
        child.wait()
        child.stdout.close()
        confirmed = max([confirmed, *printed])

        store = Store(folder)
        assert store.warnings() == []
        events = store.replay(game_id).log.events
        assert len(events) >= confirmed
        assert events == [filler(number) for number in range(len(events))]
        confirmed = len(events)
    assert confirmed > KILLS  # the kills did land among the appends
