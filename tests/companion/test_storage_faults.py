"""A refused write or an unreadable file leaves every file as it was.

Faults are injected where the system would raise them (os.write, os.open,
a real file-size limit), never by replacing TinyDB.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import storage as storage_module
from companion.errors import StoreError
from companion.storage import AtomicJSONStorage

ROOT = Path(__file__).resolve().parents[2]
OLD = {"t": {"1": {"n": 1}}}
CURRENT = {"t": {"1": {"n": 2}}}
NEW = {"t": {"1": {"n": 3, "text": "x" * 50_000}}}

Snapshot = dict[str, tuple[bytes, int]]


def snapshot(folder: Path) -> Snapshot:
    """Each file's bytes and inode: a hard link between two would show."""
    return {p.name: (p.read_bytes(), p.stat().st_ino) for p in folder.iterdir()}


def two_versions(folder: Path) -> Path:
    path = folder / "db.json"
    writer = AtomicJSONStorage(path, fsync=False)
    writer.write(OLD)
    writer.write(CURRENT)
    return path


def assert_untouched(folder: Path, before: Snapshot) -> None:
    after = snapshot(folder)
    assert after == before
    assert after["db.json"][1] != after["db.json.bak"][1]
    assert json.loads(after["db.json.bak"][0]) == OLD


def fail_with(code: int):  # type: ignore[no-untyped-def]
    def refuse(*args: object, **kwargs: object) -> object:
        raise OSError(code, os.strerror(code))

    return refuse


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_a_full_disk_keeps_the_file_and_its_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    path = two_versions(tmp_path)
    before = snapshot(tmp_path)
    monkeypatch.setattr(os, call, fail_with(errno.ENOSPC))
    with pytest.raises(StoreError, match="No space left on device. Nothing was"):
        AtomicJSONStorage(path, fsync=True).write(NEW)
    monkeypatch.undo()
    assert_untouched(tmp_path, before)


@pytest.mark.parametrize("links", [True, False], ids=["links", "no links"])
def test_a_failure_while_keeping_the_backup_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, links: bool
) -> None:
    path = two_versions(tmp_path)
    before = snapshot(tmp_path)
    if links:
        monkeypatch.setattr(os, "link", fail_with(errno.EMLINK))
    else:
        monkeypatch.delattr(os, "link")
    # The copy made instead of a link cannot be written either.
    monkeypatch.setattr(storage_module.shutil, "copyfile", fail_with(errno.ENOSPC))
    with pytest.raises(StoreError, match="Nothing was changed"):
        AtomicJSONStorage(path, fsync=False).write(NEW)
    monkeypatch.undo()
    assert_untouched(tmp_path, before)


FILE_SIZE_LIMIT = """
import resource, sys
from companion.storage import AtomicJSONStorage
from companion.errors import StoreError
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, resource.RLIM_INFINITY))
try:
    AtomicJSONStorage(sys.argv[1]).write({"t": {"1": {"text": "x" * 50_000}}})
except StoreError as error:
    print(error)
"""


def test_the_file_size_limit_keeps_the_file_and_its_backup(tmp_path: Path) -> None:
    path = two_versions(tmp_path)
    before = snapshot(tmp_path)
    child = subprocess.run(
        [sys.executable, "-c", FILE_SIZE_LIMIT, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    assert "File too large. Nothing was changed." in child.stdout
    assert_untouched(tmp_path, before)


def test_text_that_cannot_be_saved_keeps_the_file_and_its_backup(
    tmp_path: Path,
) -> None:
    path = two_versions(tmp_path)
    before = snapshot(tmp_path)
    storage = AtomicJSONStorage(path, fsync=False)
    with pytest.raises(StoreError, match="Nothing was changed"):
        storage.write({"t": {"1": {"name": "Ann\ud800"}}})
    assert_untouched(tmp_path, before)
    assert storage.read() == CURRENT


def test_a_successful_write_moves_the_backup_forward(tmp_path: Path) -> None:
    path = two_versions(tmp_path)
    AtomicJSONStorage(path, fsync=False).write(NEW)
    files = snapshot(tmp_path)
    assert sorted(files) == ["db.json", "db.json.bak"]
    assert json.loads(files["db.json.bak"][0]) == CURRENT
    assert files["db.json"][1] != files["db.json.bak"][1]


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO])
def test_a_file_that_cannot_be_read_is_refused_not_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    path = two_versions(tmp_path)
    before = snapshot(tmp_path)
    real_open = os.open

    def open_but_not_the_data(name: object, *args: object, **kwargs: object) -> int:
        if Path(str(name)) == path:
            raise OSError(code, os.strerror(code), str(name))
        return real_open(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_but_not_the_data)
    warnings: list[str] = []
    with pytest.raises(StoreError, match="cannot be read .*Nothing was changed"):
        AtomicJSONStorage(path, warn=warnings.append).read()
    monkeypatch.undo()
    assert warnings == []
    assert snapshot(tmp_path) == before


def test_a_recovery_that_cannot_write_moves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = two_versions(tmp_path)
    path.write_bytes(path.read_bytes()[:5])  # damaged
    before = snapshot(tmp_path)
    monkeypatch.setattr(os, "write", fail_with(errno.ENOSPC))
    with pytest.raises(StoreError, match="could not be put in its place"):
        AtomicJSONStorage(path).read()
    monkeypatch.undo()
    assert snapshot(tmp_path) == before


def test_a_file_replaced_while_it_is_parsed_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.json"
    AtomicJSONStorage(path, fsync=False).write(OLD)
    reader = AtomicJSONStorage(path, fsync=False)
    real_load = storage_module._load

    def load_then_another_process_writes(where: Path, check: object) -> object:
        data = real_load(where, check)
        # Another writer replaces the file after it was read, before this
        # reader is done with it.
        AtomicJSONStorage(path, fsync=False).write(CURRENT)
        return data

    monkeypatch.setattr(storage_module, "_load", load_then_another_process_writes)
    assert reader.read() == OLD
    monkeypatch.undo()
    assert reader.read() == CURRENT
