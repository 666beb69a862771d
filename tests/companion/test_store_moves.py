"""A game moving between the files is never lost to another process opening them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.log import dumps, loads
from companion.storage import AtomicJSONStorage
from companion.store import ARCHIVE_FILE, LIVE_FILE, Store
from tests.companion.test_store import filler, header

ROOT = Path(__file__).resolve().parents[2]
FINISHED = ROOT / "examples" / "cursed-tricks.json"
MOVES = 150

# Takes back the last trick of a finished game and records it again, MOVES
# times: each undo moves the game to live.json, each redo back to archive.json.
MOVER = """
import sys
from companion.store import Store

store = Store(sys.argv[1], fsync=False)
print("ready", flush=True)
for _ in range(int(sys.argv[3])):
    store.undo(sys.argv[2])
    store.redo(sys.argv[2])
print("done", flush=True)
"""


def test_opening_the_folder_while_a_game_moves_loses_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    over = loads(FINISHED.read_text())
    moving = store.import_log(over)
    # Games around it in both files, so that its place in each file is reused.
    others = [
        store.import_log(header().with_events([filler(n) for n in range(3)]))
        for _ in range(3)
    ] + [store.import_log(over) for _ in range(3)]
    mover = subprocess.Popen(
        [sys.executable, "-c", MOVER, str(tmp_path), moving, str(MOVES)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert mover.stdout is not None
    assert mover.stdout.readline() == "ready\n"
    opened = 0
    while mover.poll() is None:
        # What `companion games` does: open the folder, list it.
        Store(tmp_path, fsync=False).list_games()
        opened += 1
    assert mover.stdout.read() == "done\n"
    mover.stdout.close()
    assert mover.returncode == 0
    assert opened > 0

    after = Store(tmp_path, fsync=False)
    ids = [info.id for info in after.list_games()]
    assert sorted(ids) == sorted([moving, *others])
    assert dumps(after.load(moving).log) == dumps(over)
    for name in (LIVE_FILE, ARCHIVE_FILE):
        assert (tmp_path / name).exists()


def test_a_game_a_crash_left_in_both_files_is_changed_from_its_newer_copy(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path, fsync=False)
    over = loads(FINISHED.read_text())
    game_id = store.import_log(over)
    store.undo(game_id)  # rev 2, in live.json
    before_crash = Store(tmp_path, fsync=False)  # opened before the crash
    # A redo killed between its two writes: the new copy (rev 3) is in the
    # archive, the old one (rev 2) still in live.json.
    live = AtomicJSONStorage(tmp_path / LIVE_FILE, fsync=False)
    archive = AtomicJSONStorage(tmp_path / ARCHIVE_FILE, fsync=False)
    tables = live.read()
    assert tables is not None
    [doc] = tables["games"].values()
    newer = {**doc, "rev": 3, "archived": True, "finished": True}
    newer["log"] = json.dumps(over.to_dict(), ensure_ascii=False)
    newer["events"] = len(over.events)
    archived = archive.read() or {}
    archived.setdefault("games", {})["99"] = newer
    archive.write(archived)

    assert [info.rev for info in before_crash.list_games()] == [3]  # listed once
    before_crash.undo(game_id, expected_rev=3)
    stored = before_crash.load(game_id)
    assert stored.rev == 4 and not stored.info.archived
    assert stored.log.events == over.events[:-1]
    assert all(doc["id"] != game_id for doc in (archive.read() or {})["games"].values())
    assert [info.id for info in Store(tmp_path, fsync=False).list_games()] == [game_id]
