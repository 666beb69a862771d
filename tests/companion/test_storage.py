"""The atomic TinyDB storage: round trips, the backup copy, damaged files."""

from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tinydb import TinyDB, where
from tinydb.storages import MemoryStorage, Storage

from companion.errors import StoreError
from companion.log import GameLog
from companion.storage import AtomicJSONStorage, backup_path, remove_stale_temporaries
from companion.store import LIVE_FILE, Store
from tests.companion.command import companion

MakeDB = Callable[[], TinyDB]


@pytest.fixture(autouse=True, params=["links", "no links"])
def links(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here runs twice: once without os.link (Python in a browser)."""
    if request.param == "no links":
        monkeypatch.delattr(os, "link")


def header() -> GameLog:
    return GameLog("cursed", ["Ann", "Ben"])


@pytest.fixture(params=["atomic", "memory"])
def make_db(request: pytest.FixtureRequest, tmp_path: Path) -> MakeDB:
    """Opens the database again; the memory one is simply the same object."""
    if request.param == "memory":
        memory = TinyDB(storage=MemoryStorage)
        return lambda: memory
    return lambda: TinyDB(tmp_path / "db.json", storage=AtomicJSONStorage)


def test_documents_read_back_equal(make_db: MakeDB) -> None:
    doc = {"id": "g1", "log": {"events": [{"type": "trick", "cards": ["R7"]}]}}
    db = make_db()
    games = db.table("games")
    games.insert(doc)
    games.insert({"id": "g2", "name": "Zoë ✓"})
    games.update({"state": "done"}, where("id") == "g2")
    games.remove(where("id") == "g1")
    db.table("settings").insert({"key": "language", "value": "ja"})
    again = make_db()
    expected = {"id": "g2", "name": "Zoë ✓", "state": "done"}
    assert again.table("games").all() == [expected]
    assert again.table("settings").get(where("key") == "language")["value"] == "ja"
    games.insert(doc)
    assert make_db().table("games").search(where("id") == "g1") == [doc]


def test_an_empty_database_reads_as_none(make_db: MakeDB) -> None:
    assert make_db().storage.read() is None


def file_storage(path: Path, warnings: list[str] | None = None) -> AtomicJSONStorage:
    sink = warnings if warnings is not None else []
    return AtomicJSONStorage(path, warn=lambda repair: sink.append(repair.text()))


def test_opening_creates_no_file(tmp_path: Path) -> None:
    storage = file_storage(tmp_path / "sub" / "db.json")
    assert storage.read() is None
    assert not (tmp_path / "sub").exists()


def test_each_write_keeps_the_previous_file(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    storage = file_storage(path)
    storage.write({"t": {"1": {"n": 1}}})
    assert not backup_path(path).exists()
    storage.write({"t": {"1": {"n": 2}}})
    assert json.loads(backup_path(path).read_text()) == {"t": {"1": {"n": 1}}}
    assert json.loads(path.read_text()) == {"t": {"1": {"n": 2}}}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.json", "db.json.bak"]


def test_a_change_by_another_writer_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    mine, theirs = file_storage(path), file_storage(path)
    mine.write({"t": {"1": {"n": 1}}})
    assert theirs.read() == {"t": {"1": {"n": 1}}}
    theirs.write({"t": {"1": {"n": 2}}})
    assert mine.read() == {"t": {"1": {"n": 2}}}


def spoil(kind: str, path: Path) -> None:
    text = path.read_bytes()
    if kind == "truncated":
        path.write_bytes(text[: len(text) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "garbled":
        path.write_bytes(b"\x00\xff" * 20 + text[40:])
    elif kind == "not a table":
        path.write_text("[1, 2, 3]")
    else:
        raise AssertionError(kind)


KINDS = ["truncated", "empty", "garbled", "not a table"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_file_falls_back_to_the_last_good_copy(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "db.json"
    writer = file_storage(path)
    writer.write({"t": {"1": {"n": 1}}})
    writer.write({"t": {"1": {"n": 2}}})
    spoil(kind, path)
    damaged = path.read_bytes()
    warnings: list[str] = []
    assert file_storage(path, warnings).read() == {"t": {"1": {"n": 1}}}
    assert len(warnings) == 1
    assert "db.json" in warnings[0] and "last good copy" in warnings[0]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("db.json.broken-")]
    assert len(aside) == 1
    assert aside[0].read_bytes() == damaged
    assert aside[0].name in warnings[0]
    # The file is whole again: the next open is quiet.
    warnings.clear()
    assert file_storage(path, warnings).read() == {"t": {"1": {"n": 1}}}
    assert warnings == []


def test_a_missing_file_with_a_copy_is_restored(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    writer = file_storage(path)
    writer.write({"t": {}})
    writer.write({"t": {"1": {}}})
    path.unlink()
    warnings: list[str] = []
    assert file_storage(path, warnings).read() == {"t": {}}
    assert "missing" in warnings[0]
    assert json.loads(path.read_text()) == {"t": {}}


@pytest.mark.parametrize("kind", KINDS)
def test_with_no_good_copy_nothing_is_touched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "db.json"
    writer = file_storage(path)
    writer.write({"t": {}})
    writer.write({"t": {"1": {}}})
    spoil(kind, path)
    spoil("truncated", backup_path(path))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(StoreError, match="could not be read either"):
        file_storage(path).read()
    backup_path(path).unlink()
    with pytest.raises(StoreError, match="no backup"):
        file_storage(path).read()
    del before["db.json.bak"]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_store_reports_a_damaged_file(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    store.set_setting("language", "ja")
    spoil("truncated", tmp_path / LIVE_FILE)
    again = Store(tmp_path, fsync=False)
    assert again.load(game_id).log == header()
    assert len(again.warnings()) == 1
    assert again.warnings()[0].startswith("The saved games file live.json could")
    assert again.get_setting("language") is None  # that was the lost last write


def test_the_store_refuses_to_open_when_nothing_is_readable(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    store.create_game(header())
    store.create_game(header())
    spoil("garbled", tmp_path / LIVE_FILE)
    spoil("garbled", backup_path(tmp_path / LIVE_FILE))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(StoreError, match="Nothing was changed"):
        Store(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write to a file fails at the system call, as on a full disk."""

    def refuse(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", refuse)


def test_a_failed_write_leaves_the_file_and_memory_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.table("t").insert({"n": 1})
    before = path.read_bytes()
    disk_full(monkeypatch)
    with pytest.raises(StoreError, match="Nothing was changed"):
        db.table("t").insert({"n": 2})
    assert path.read_bytes() == before
    assert [doc["n"] for doc in db.table("t").all()] == [1]
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_stale_temporary_files_are_cleared(tmp_path: Path) -> None:
    old = tmp_path / "live.json.abc.tmp"
    new = tmp_path / "live.json.def.tmp"
    old.write_text("{")
    new.write_text("{")
    past = time.time() - 3600
    os.utime(old, (past, past))
    remove_stale_temporaries(tmp_path)
    assert not old.exists()
    assert new.exists()


def test_memory_and_file_storages_agree(tmp_path: Path) -> None:
    stores: list[Storage] = [MemoryStorage(), AtomicJSONStorage(tmp_path / "db.json")]
    for storage in stores:
        storage.write({"games": {"1": {"players": ["Ann", "Ben"]}}})
    assert stores[0].read() == stores[1].read()


# When the copy now in use was saved: 2026-11-26 20:14 UTC.
SAVED_AT = 1_795_724_040


def test_a_repair_says_which_file_how_and_when_its_copy_was_saved(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    store.append(
        game_id,
        {
            "type": "spell",
            "caster": "Ann",
            "target": "Ben",
            "fortune": "luck",
            "effect": "curse",
        },
    )
    os.utime(backup_path(tmp_path / LIVE_FILE), (SAVED_AT, SAVED_AT))
    spoil("truncated", tmp_path / LIVE_FILE)

    again = Store(tmp_path, fsync=False)
    assert again.load(game_id).log == header()  # the change after the copy is gone
    [repair] = again.repairs()
    assert (repair.file, repair.problem) == (LIVE_FILE, "damaged")
    assert repair.saved == "2026-11-26T20:14:00Z"
    assert repair.set_aside.startswith("live.json.broken-")
    assert (tmp_path / repair.set_aside).exists()
    assert "saved 2026-11-26T20:14:00Z" in repair.text()
    # Shown until dismissed, whichever Store of the folder asks.
    assert Store(tmp_path, fsync=False).repairs() == [repair]
    again.dismiss_repair(repair)
    assert again.repairs() == [] and again.warnings() == []


def test_the_command_line_says_what_was_repaired_on_standard_error(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    store.create_game(header())
    os.utime(backup_path(tmp_path / LIVE_FILE), (SAVED_AT, SAVED_AT))
    (tmp_path / LIVE_FILE).unlink()
    done = companion("games", "--data", str(tmp_path))
    assert done.returncode == 0
    assert game_id in done.stdout
    [line] = done.stderr.splitlines()
    assert line.startswith("warning: The saved games file live.json was missing")
    assert "saved 2026-11-26T20:14:00Z" in line
    assert "may need entering again" in line
