"""Backing every game up to one file and restoring it, on real TinyDB files."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.backup import (
    LAST_BACKUP,
    BackupRefused,
    Reminder,
    backup_bytes,
    backup_reminder,
    restore_bytes,
)
from companion.log import loads
from companion.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def kept_games(folder: Path) -> Store:
    """A store with a finished game, one in progress, an abandoned and a deleted one."""
    store = Store(folder, fsync=False)
    finished = loads((EXAMPLES / "cursed-tricks.json").read_text())
    store.import_log(finished)
    playing = store.import_log(finished.with_events(finished.events[:5]))
    store.undo(playing)
    abandoned = store.import_log(finished.with_events(finished.events[:3]))
    store.finish(abandoned, abandon=True)
    deleted = store.import_log(loads((EXAMPLES / "trick-runaway.json").read_text()))
    store.delete_game(deleted)
    store.set_setting("lang", "ja")
    store.set_setting(f"trick-in-progress:{playing}", {"events": 4, "taps": ["G1"]})
    return store


def test_a_backup_restored_into_an_empty_store_backs_up_the_same(
    tmp_path: Path,
) -> None:
    original = backup_bytes(kept_games(tmp_path / "phone"), NOW)
    fresh = Store(tmp_path / "fresh", fsync=False)
    restored = restore_bytes(fresh, original)
    assert (restored.added, restored.already_kept) == (4, 0)
    assert backup_bytes(fresh, NOW) == original
    reopened = Store(tmp_path / "fresh", fsync=False)
    assert backup_bytes(reopened, NOW) == original
    states = sorted(info.state for info in reopened.list_games(include_deleted=True))
    assert states == ["abandoned", "deleted", "finished", "in progress"]
    assert reopened.get_setting("lang") == "ja"


def test_a_setting_made_here_stays_as_it_is(tmp_path: Path) -> None:
    data = backup_bytes(kept_games(tmp_path / "phone"), NOW)
    fresh = Store(tmp_path / "fresh", fsync=False)
    fresh.set_setting("lang", "en")
    restore_bytes(fresh, data)
    assert fresh.get_setting("lang") == "en"


def test_restoring_twice_adds_nothing_the_second_time(tmp_path: Path) -> None:
    store = kept_games(tmp_path / "phone")
    data = backup_bytes(store, NOW)
    again = restore_bytes(store, data)
    assert (again.added, again.already_kept) == (0, 4)
    assert backup_bytes(store, NOW) == data


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"\x89PNG not a backup", "backup.not-a-backup"),
        (b'{"format": "companion-log/1", "game": "cursed"}', "backup.not-a-backup"),
        (b'{"format": "curse-companion-backup/1", "games": [{"id": 1}]}',
         "backup.damaged"),
    ],
)
def test_a_file_that_is_not_a_good_backup_changes_nothing(
    tmp_path: Path, data: bytes, key: str
) -> None:
    store = kept_games(tmp_path / "phone")
    before = backup_bytes(store, NOW)
    files = {path.name: path.read_bytes() for path in store.folder.glob("*.json")}
    with pytest.raises(BackupRefused) as refused:
        restore_bytes(store, data)
    assert refused.value.key == key
    assert {p.name: p.read_bytes() for p in store.folder.glob("*.json")} == files
    assert backup_bytes(store, NOW) == before


def test_one_game_breaking_its_rules_refuses_the_whole_backup(tmp_path: Path) -> None:
    data = json.loads(backup_bytes(kept_games(tmp_path / "phone"), NOW))
    data["games"][-1]["log"]["events"].append({"type": "trick", "cards": ["??"]})
    fresh = Store(tmp_path / "fresh", fsync=False)
    with pytest.raises(BackupRefused):
        restore_bytes(fresh, json.dumps(data).encode())
    assert fresh.list_games(include_deleted=True) == []


def test_the_reminder_comes_a_week_after_the_last_backup(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    assert backup_reminder(store, NOW) is None  # nothing to lose yet
    store.import_log(loads((EXAMPLES / "cursed.json").read_text()))
    assert backup_reminder(store, NOW) == Reminder(None)
    backup_bytes(store, NOW)
    assert backup_reminder(store, NOW + timedelta(days=6)) is None
    assert backup_reminder(store, NOW + timedelta(days=9)) == Reminder(9)
    store.set_setting(LAST_BACKUP, "not a time")
    assert backup_reminder(store, NOW) == Reminder(None)
