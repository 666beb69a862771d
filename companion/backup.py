"""Every game in one file, and back: what keeps a phone's games safe.

A browser may clear what a web app keeps; a backup file saved elsewhere is
what survives that. A backup holds each game's inputs (log, undone events,
state and times) and the settings (a trick's taps in progress among them); a
restore replays every game before it adds any, and adds only the games and
settings not already kept, so restoring twice changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.errors import CompanionError, StoreError
from companion.store import Store

FORMAT = "curse-companion-backup/1"
# The setting that remembers when the last backup was made (ISO 8601, UTC).
LAST_BACKUP = "last-backup"
REMIND_AFTER = timedelta(days=7)


class BackupRefused(CompanionError):
    """A file that is not a backup, or one whose games cannot all be read.

    ``key`` names the refusal's text in ``data/i18n``.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Restored:
    added: int
    already_kept: int


def backup_name(now: datetime) -> str:
    return f"curse-companion-backup-{now:%Y-%m-%d}.json"


def backup_bytes(store: Store, now: datetime | None = None) -> bytes:
    """The backup file of every game, and its time remembered for the reminder."""
    contents = {
        "format": FORMAT,
        "games": store.backup_games(),
        "settings": store.backup_settings(leave_out=(LAST_BACKUP,)),
    }
    data = json.dumps(contents, ensure_ascii=False, indent=1).encode("utf-8")
    moment = now or datetime.now(UTC)
    store.set_setting(LAST_BACKUP, moment.isoformat(timespec="seconds"))
    return data


def restore_bytes(store: Store, data: bytes) -> Restored:
    """Add the backup's games not kept yet; a bad file changes nothing."""
    try:
        parsed: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        parsed = None
    if (
        not isinstance(parsed, dict)
        or parsed.get("format") != FORMAT
        or not isinstance(parsed.get("games"), list)
        or not isinstance(parsed.get("settings", {}), dict)
    ):
        raise BackupRefused(
            "backup.not-a-backup",
            "This file is not a Curse Companion backup. Nothing was restored.",
        )
    try:
        added, kept = store.restore_games(parsed["games"], parsed.get("settings"))
    except StoreError as error:
        raise BackupRefused("backup.damaged", str(error)) from None
    return Restored(added, kept)


@dataclass(frozen=True)
class Reminder:
    """A backup is due: ``days`` since the last one, None when there was none."""

    days: int | None


def backup_reminder(store: Store, now: datetime | None = None) -> Reminder | None:
    """Whether to remind the player: games kept and no backup for REMIND_AFTER."""
    last = store.get_setting(LAST_BACKUP)
    try:
        made = datetime.fromisoformat(last) if isinstance(last, str) else None
    except ValueError:
        made = None
    age = (now or datetime.now(UTC)) - made if made is not None else None
    if age is not None and age < REMIND_AFTER:
        return None
    # Home lists the games in progress anyway; the archive is read only without.
    if not (store.unfinished() or store.list_games(include_deleted=True)):
        return None
    return Reminder(None if age is None else age.days)
