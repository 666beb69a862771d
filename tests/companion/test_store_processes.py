"""Several processes on one folder, killed at random, lose no game they confirmed.

A model of the store: each worker imports games, lists and opens every game
and moves its own finished games between the files (taking back their last
trick, then recording it again), printing each change once the store
confirmed it. Workers are SIGKILLed at random moments and replaced. After
that every confirmed game must be there once, as confirmed: the last change
confirmed, or the one being made when the worker was killed.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.log import dumps, loads
from companion.storage import AtomicJSONStorage
from companion.store import ARCHIVE_FILE, LIVE_FILE, Store
from tests.companion.test_store import filler, header

ROOT = Path(__file__).resolve().parents[2]
FINISHED = ROOT / "examples" / "cursed-tricks.json"
WORKERS = 3
KILLS = 10

# The three logs a game can have: over ("F", in the archive), over but for
# its last trick ("U", back among the games in progress), and going on ("G").
WORKER = """
import json, random, sys
from pathlib import Path
from companion.log import loads
from companion.store import Store
from tests.companion.test_store import filler, header

folder, seed = sys.argv[1], int(sys.argv[2])
over = loads(Path(sys.argv[3]).read_text())
going_on = header("Ann", "Ben").with_events([filler(n) for n in range(4)])
rng = random.Random(seed)
mine = {}  # id -> [rev, "F" or "U"]
store = Store(folder, fsync=False)
print("ready", flush=True)
while True:
    if rng.random() < 0.5:
        store = Store(folder, fsync=False)  # as each command line run does
    step = rng.choice(["import", "import", "list", "open", "move", "move", "move"])
    if step == "import" or (step == "move" and not mine):
        finished = rng.random() < 0.7
        game_id = store.import_log(over if finished else going_on)
        if finished:
            mine[game_id] = [1, "F"]
        print(json.dumps([game_id, 1, "F" if finished else "G"]), flush=True)
    elif step == "list":
        ids = [info.id for info in store.list_games()]
        if len(ids) != len(set(ids)):
            print(json.dumps(["twice", ids]), flush=True)
    elif step == "open":
        ids = [info.id for info in store.list_games()]
        if ids:
            store.load(rng.choice(ids))
    else:
        game_id = rng.choice(sorted(mine))
        rev, log = mine[game_id]
        if log == "F":
            store.undo(game_id, expected_rev=rev)
        else:
            store.redo(game_id, expected_rev=rev)
        mine[game_id] = [rev + 1, "U" if log == "F" else "F"]
        print(json.dumps([game_id, rev + 1, mine[game_id][1]]), flush=True)
"""


def start(folder: Path, seed: int, errors: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(folder), str(seed), str(FINISHED)],
        stdout=subprocess.PIPE,
        stderr=errors.open("a"),
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "ready\n"
    return child


def kill(child: subprocess.Popen[str]) -> list[list]:
    """SIGKILL the worker; the changes it confirmed, in order."""
    child.send_signal(signal.SIGKILL)
    assert child.stdout is not None
    out = child.stdout.read()
    child.stdout.close()
    child.wait()
    assert child.returncode == -signal.SIGKILL, "a worker failed on its own"
    # A line cut short by the kill was never confirmed.
    return [json.loads(line) for line in out.splitlines(keepends=True) if "\n" in line]


def test_killed_processes_on_one_folder_lose_no_confirmed_game(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    errors = tmp_path / "errors.txt"
    rng = random.Random(20261126)
    workers = [start(folder, rng.randrange(10**9), errors) for _ in range(WORKERS)]
    confirmed: list[list] = []
    for _ in range(KILLS):
        time.sleep(rng.uniform(0.2, 1.0))
        victim = rng.randrange(WORKERS)
        confirmed += kill(workers[victim])
        workers[victim] = start(folder, rng.randrange(10**9), errors)
    for worker in workers:
        confirmed += kill(worker)
    assert errors.read_text() == ""
    assert not [line for line in confirmed if line[0] == "twice"]

    logs = {
        "F": dumps(loads(FINISHED.read_text())),
        "G": dumps(header("Ann", "Ben").with_events([filler(n) for n in range(4)])),
    }
    logs["U"] = dumps(loads(logs["F"]).with_events(loads(logs["F"]).events[:-1]))
    last = {game_id: (rev, log) for game_id, rev, log in confirmed}
    assert len(last) > WORKERS * 2
    assert sum(rev > 1 for rev, _ in last.values()) > WORKERS  # games did move

    store = Store(folder, fsync=False)
    listed = [info.id for info in store.list_games()]
    assert len(listed) == len(set(listed))
    assert set(last) <= set(listed)
    for game_id, (rev, log) in last.items():
        stored = store.load(game_id)
        if stored.rev == rev:
            assert dumps(stored.log) == logs[log]
        else:  # the move under way when its worker was killed landed
            assert (log, stored.rev) != ("G", rev + 1)
            assert stored.rev == rev + 1
            assert dumps(stored.log) == logs["U" if log == "F" else "F"]
    # Once opened, the folder holds each game in one file only.
    held = [
        doc["id"]
        for name in (LIVE_FILE, ARCHIVE_FILE)
        for doc in (AtomicJSONStorage(folder / name).read() or {})["games"].values()
    ]
    assert sorted(held) == sorted(listed)
