"""Two processes writing the same large store never lose a game either confirmed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import storage as storage_module
from companion.log import loads
from companion.replay import replay
from companion.storage import AtomicJSONStorage
from companion.store import ARCHIVE_FILE, LIVE_FILE, Store, game_document
from tests.companion.test_store import filler, header

ROOT = Path(__file__).resolve().parents[2]
FINISHED = ROOT / "examples" / "cursed-tricks.json"
IMPORTS = 20  # per process

# Imports games one after another, each through a newly opened store as
# `companion import` does, printing each id once the store took it; every
# other game is over (archive.json), the rest go on (live.json).
IMPORTER = """
import sys
from pathlib import Path
import pytest

from companion import storage as storage_module
from companion.log import loads
from companion.store import Store
from tests.companion.test_store import filler, header

over = loads(Path(sys.argv[2]).read_text())
going_on = header("Ann", "Ben").with_events([filler(n) for n in range(6)])
print("ready", flush=True)
sys.stdin.readline()
for number in range(int(sys.argv[3])):
    store = Store(sys.argv[1], fsync=False)
    print(store.import_log(over if number % 2 else going_on), flush=True)
"""


def fill(folder: Path, games: int) -> None:
    """A live file and an archive of a few megabytes each, written in one go."""
    over = replay(loads(FINISHED.read_text()))
    going_on = replay(header().with_events([filler(n) for n in range(40)]))
    for name, result, archived in (
        (LIVE_FILE, going_on, False),
        (ARCHIVE_FILE, over, True),
    ):
        docs = {
            str(number): game_document(
                f"20200101-000000-{number:04x}",
                f"2020-01-01T00:00:{number // 1000:02d}.{number % 1000:03d}Z",
                result,
                archived=archived,
            )
            for number in range(1, games + 1)
        }
        AtomicJSONStorage(folder / name, fsync=False).write({"games": docs})


def test_two_importers_at_once_lose_no_confirmed_game(tmp_path: Path) -> None:
    fill(tmp_path, 600)
    assert (tmp_path / LIVE_FILE).stat().st_size > 2_000_000
    assert (tmp_path / ARCHIVE_FILE).stat().st_size > 2_000_000
    children = [
        subprocess.Popen(
            [sys.executable, "-c", IMPORTER, str(tmp_path), str(FINISHED)]
            + [str(IMPORTS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(2)
    ]
    for child in children:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
    for child in children:  # both start together, each with its file parsed
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.close()
    confirmed: list[str] = []
    for child in children:
        assert child.stdout is not None
        confirmed += child.stdout.read().split()
        assert child.wait() == 0
        child.stdout.close()
    assert len(confirmed) == 2 * IMPORTS
    stored = {info.id for info in Store(tmp_path).list_games()}
    assert set(confirmed) <= stored


IMPORT_ONE = """
import sys
from companion.store import Store
from tests.companion.test_store import header

print(Store(sys.argv[1], fsync=False).create_game(header("Cy", "Dee")))
"""


def test_a_write_by_another_process_is_seen_even_when_signatures_repeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Here every file has the same inode, size and times, as a file rewritten
    # fast may: only the token in .lock tells of the other process's write.
    monkeypatch.setattr(storage_module, "_signature", lambda path: (1, 1, 1, 1))
    store = Store(tmp_path, fsync=False)
    mine = store.create_game(header())
    assert len(store.list_games()) == 1  # parsed and kept in memory
    theirs = subprocess.run(
        [sys.executable, "-c", IMPORT_ONE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout.strip()
    third = store.create_game(header())
    monkeypatch.undo()
    stored = {info.id for info in Store(tmp_path).list_games()}
    assert stored == {mine, theirs, third}


def test_two_stores_in_one_process_see_each_other_when_signatures_repeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_module, "_signature", lambda path: (1, 1, 1, 1))
    first, second = Store(tmp_path, fsync=False), Store(tmp_path, fsync=False)
    ids = [first.create_game(header()), second.create_game(header())]
    ids += [first.create_game(header()), second.create_game(header())]
    monkeypatch.undo()
    assert {info.id for info in Store(tmp_path).list_games()} == set(ids)
