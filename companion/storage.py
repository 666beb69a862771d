"""A TinyDB storage that never leaves a half-written file behind.

TinyDB's own JSONStorage rewrites its file in place, so a crash or a full disk
in the middle of a write loses everything. This storage writes a complete new
file next to the old one and swaps it in with one rename, keeping the previous
version as ``<name>.bak``. Reading a file that does not parse falls back to
that copy, keeps the broken file aside for inspection, and reports what
happened through ``warn`` instead of quietly starting empty.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from companion.errors import StoreError

Data = dict[str, dict[str, Any]]
Warn = Callable[[str], None]

BACKUP_SUFFIX = ".bak"
BROKEN_SUFFIX = ".broken-"
TEMP_SUFFIX = ".tmp"
# A temporary file this old cannot belong to a write still in progress.
STALE_TEMP_SECONDS = 600


class _Unreadable(Exception):
    """A data file that exists but does not hold a TinyDB JSON object."""


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _load(path: Path) -> Data | None:
    """The file's tables, None when it does not exist, _Unreadable when broken."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _Unreadable(error.strerror or str(error)) from None
    # An empty file is a truncated one: this storage never writes zero bytes.
    if not raw.strip():
        raise _Unreadable("the file is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _Unreadable(str(error)) from None
    if not isinstance(data, dict) or not all(
        isinstance(table, dict) for table in data.values()
    ):
        raise _Unreadable("the file does not hold a table of games")
    return data


def fsync_folder(folder: Path) -> None:
    # Without this the rename itself may be lost on power failure. Some
    # systems (Windows) cannot open a folder; the rename is then all we get.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(
        dir=path.parent, prefix=path.name + ".", suffix=TEMP_SUFFIX
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if fsync:
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if fsync:
        fsync_folder(path.parent)


def _keep_backup(path: Path, *, fsync: bool) -> None:
    """Make ``<path>.bak`` the current file before it is replaced."""
    if not path.exists():
        return
    backup = backup_path(path)
    fd, temp = tempfile.mkstemp(
        dir=path.parent, prefix=backup.name + ".", suffix=TEMP_SUFFIX
    )
    os.close(fd)
    os.unlink(temp)
    try:
        # The current file is never changed in place, only replaced, so a
        # second name for it is a faithful copy at no cost.
        os.link(path, temp)
    except OSError:
        # No hard links here (some phone storage): copy instead.
        shutil.copyfile(path, temp)
        if fsync:
            with open(temp, "rb+") as handle:
                os.fsync(handle.fileno())
    try:
        os.replace(temp, backup)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def remove_stale_temporaries(folder: Path, max_age: float = STALE_TEMP_SECONDS) -> None:
    """Delete temporary files a crashed write left behind."""
    now = time.time()
    for temp in folder.glob("*" + TEMP_SUFFIX):
        with contextlib.suppress(OSError):
            if now - temp.stat().st_mtime > max_age:
                temp.unlink()


def _set_aside_name(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    candidate = path.with_name(f"{path.name}{BROKEN_SUFFIX}{stamp}")
    number = 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}{BROKEN_SUFFIX}{stamp}-{number}")
    return candidate


class AtomicJSONStorage(Storage):
    """TinyDB storage in one JSON file, replaced atomically on every write.

    The parsed content is kept in memory and reused as long as the file on
    disk is the one last read or written (same inode, size and time), so a
    large archive is parsed once, not on every query.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        warn: Warn | None = None,
        fsync: bool = True,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self._warn = warn or (lambda message: None)
        self._fsync = fsync
        self._cache: Data | None = None
        self._cached_signature: tuple[int, int, int] | None = None

    def read(self) -> Data | None:
        signature = _signature(self.path)
        if self._cache is not None and signature == self._cached_signature:
            return self._cache
        data = self._read_or_recover()
        self._cache = data
        self._cached_signature = _signature(self.path)
        return data

    def write(self, data: Data) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        try:
            _keep_backup(self.path, fsync=self._fsync)
            write_atomically(self.path, text, fsync=self._fsync)
        except OSError as error:
            # TinyDB changed the cached tables in place before calling us:
            # forget them so the next read shows what really is on disk.
            self.forget()
            raise StoreError(
                f"could not save {self.path.name} in {self.path.parent}: "
                f"{error.strerror or error}. Nothing was changed."
            ) from error
        self._cache = data
        self._cached_signature = _signature(self.path)

    def forget(self) -> None:
        """Drop the in-memory copy; the next read parses the file again."""
        self._cache = None
        self._cached_signature = None

    def _read_or_recover(self) -> Data | None:
        backup = backup_path(self.path)
        try:
            data = _load(self.path)
        except _Unreadable as error:
            return self._recover(f"could not be read ({error})", set_aside=True)
        if data is not None:
            return data
        if not backup.exists():
            return None  # a new store
        return self._recover("was missing", set_aside=False)

    def _recover(self, problem: str, *, set_aside: bool) -> Data:
        backup = backup_path(self.path)
        try:
            data = _load(backup)
        except _Unreadable as error:
            raise StoreError(
                f"The saved games file {self.path} {problem}, and its backup "
                f"{backup.name} could not be read either ({error}). Nothing was "
                "changed; please copy both files somewhere safe and ask for help."
            ) from None
        if data is None:
            raise StoreError(
                f"The saved games file {self.path} {problem} and there is no "
                f"backup ({backup.name}). Nothing was changed; please copy the "
                "file somewhere safe and ask for help."
            )
        kept = ""
        if set_aside:
            aside = _set_aside_name(self.path)
            os.replace(self.path, aside)
            kept = f" The damaged file was kept as {aside.name}."
        write_atomically(
            self.path,
            json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            fsync=self._fsync,
        )
        self._warn(
            f"The saved games file {self.path.name} {problem}, so the last good "
            f"copy ({backup.name}) was used instead: the most recent change may "
            f"be missing.{kept}"
        )
        return data
