"""A TinyDB storage that never leaves a half-written file behind.

TinyDB's own JSONStorage rewrites its file in place, so a crash or a full disk
in the middle of a write loses everything. This storage writes a complete new
file next to the old one and swaps it in with one rename, keeping the previous
version as ``<name>.bak``. The backup only moves forward: it is replaced after
the new file is in place, so a refused write leaves both files as they were.
Reading a file that does not parse falls back to that copy, keeps the broken
file aside for inspection, and reports what happened through ``warn`` (a
:class:`Repair`) instead of quietly starting empty. A file that cannot be read
at all (no permission, a disk error) is not damaged: it is refused and left
alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from tinydb.storages import Storage

from companion.errors import StoreError

Data = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Repair:
    """A data file replaced by its last good copy: what the players must be told.

    ``saved`` is when the copy now in use was written (ISO 8601, UTC; empty
    when the system did not say): what was entered after it may be missing.
    """

    file: str  # the file's name, e.g. live.json
    problem: Literal["damaged", "missing"]
    saved: str
    set_aside: str = ""  # the name the damaged file is kept under, if any
    detail: str = ""  # what was wrong with it, for whoever looks at the file

    def text(self) -> str:
        """In English, for the command line and the logs."""
        what = (
            f"could not be read ({self.detail})"
            if self.problem == "damaged"
            else "was missing"
        )
        since = f"saved {self.saved}" if self.saved else "the last one saved"
        kept = f" The damaged file was kept as {self.set_aside}." * bool(self.set_aside)
        return (
            f"The saved games file {self.file} {what}, so the last good copy "
            f"({self.file}{BACKUP_SUFFIX}, {since}) was used instead: what was "
            f"entered after it may need entering again.{kept}"
        )


Warn = Callable[[Repair], None]
# Raises ValueError, saying in a player's words what is wrong, when the tables
# are not shaped as their owner wrote them.
Check = Callable[[Data], None]

BACKUP_SUFFIX = ".bak"
BROKEN_SUFFIX = ".broken-"
TEMP_SUFFIX = ".tmp"
# A temporary file this old cannot belong to a write still in progress.
STALE_TEMP_SECONDS = 600


class _Unreadable(Exception):
    """A data file that exists but does not hold a TinyDB JSON object."""


class _Misshapen(Exception):
    """A data file that is JSON, but not shaped as the app wrote it.

    Not a torn write (those do not parse): someone changed it by hand, so it
    is refused as it is rather than replaced by its backup.
    """


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


Signature = tuple[int, int, int, int]


def cannot_read(path: Path, error: OSError) -> StoreError:
    """The refusal for a file that is there but may not be read: not damage."""
    return StoreError(
        f"The saved games file {path} cannot be read ({error.strerror or error}). "
        "Nothing was changed; check that the app may read it (its permissions, "
        "the disk) and try again."
    )


def _signature(path: Path) -> Signature | None:
    # The change time joins the modification time: a file rewritten twice
    # within the clock's step keeps its mtime, but a rename updates ctime.
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise cannot_read(path, error) from None
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _read_bytes(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        # The whole file in one read (one byte more, to see its end).
        step = os.fstat(fd).st_size + 1
        chunks = []
        while chunk := os.read(fd, step):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _load(path: Path, check: Check | None = None) -> Data | None:
    """The file's tables, None when it does not exist, _Unreadable when broken.

    A file the system will not hand over is refused with a StoreError: it may
    be perfectly good, so it must not be treated as damaged and set aside.
    Tables that ``check`` refuses raise _Misshapen.
    """
    try:
        raw = _read_bytes(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise cannot_read(path, error) from None
    # An empty file is a truncated one: this storage never writes zero bytes.
    if not raw.strip():
        raise _Unreadable("the file is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _Unreadable(str(error)) from None
    except RecursionError:
        raise _Misshapen("values are nested far too deep") from None
    except ValueError:  # an integer of thousands of digits
        raise _Misshapen("it holds a number far too long") from None
    if not isinstance(data, dict):
        raise _Unreadable("the file does not hold a table of games")
    if not all(isinstance(table, dict) for table in data.values()):
        raise _Misshapen("one of its tables is not a table")
    if check is not None:
        try:
            check(data)
        except ValueError as error:
            raise _Misshapen(str(error)) from None
    return data


def _misshapen(path: Path, error: _Misshapen, *, what: str = "") -> StoreError:
    return StoreError(
        f"The saved games file {path}{what} is not as the app wrote it: {error}. "
        "Nothing was changed; please copy the file somewhere safe and ask for help."
    )


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


def _write_temporary(path: Path, payload: bytes, *, fsync: bool) -> Path:
    """A complete new file next to ``path``; nothing is left behind on failure."""
    fd, name = tempfile.mkstemp(
        dir=path.parent, prefix=path.name + ".", suffix=TEMP_SUFFIX
    )
    temp = Path(name)
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return temp


def _unused_temporary_name(path: Path) -> Path:
    # Random enough never to meet another writer's; the link or copy made
    # under it creates the file, which saves creating and removing one here.
    return path.with_name(f"{path.name}.{secrets.token_hex(8)}{TEMP_SUFFIX}")


def _second_name(path: Path, target: Path, *, fsync: bool) -> None:
    """Give the current ``path`` the name ``target`` too: a link, else a copy."""
    # The current file is never changed in place, only replaced, so a second
    # name for it is a faithful copy at no cost. Some systems have no links
    # at all (Python in a browser: no os.link), some storage refuses them.
    link = getattr(os, "link", None)
    if link is not None:
        try:
            link(path, target)
            return
        except OSError:
            pass
    try:
        shutil.copy2(path, target)  # with its time: the backup says when it was saved
        if fsync:
            with open(target, "rb+") as handle:
                os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise


def write_atomically(path: Path, text: str, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _write_temporary(path, text.encode("utf-8"), fsync=fsync)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    if fsync:
        fsync_folder(path.parent)


def replace_keeping_backup(path: Path, payload: bytes, *, fsync: bool) -> None:
    """Replace ``path`` with ``payload``; the file it replaces becomes the backup.

    The backup is replaced last, once the new file is in place: a write that
    fails anywhere before leaves the file and its backup as they were.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    new = _write_temporary(path, payload, fsync=fsync)
    previous: Path | None = None
    try:
        if path.exists():
            previous = _unused_temporary_name(backup_path(path))
            _second_name(path, previous, fsync=fsync)
        os.replace(new, path)
    except BaseException:
        for temp in (new, previous):
            if temp is not None:
                with contextlib.suppress(OSError):
                    temp.unlink()
        raise
    if fsync:
        fsync_folder(path.parent)
    if previous is not None:
        try:
            os.replace(previous, backup_path(path))
        except OSError:
            # The new file is saved; the backup stays one version older.
            with contextlib.suppress(OSError):
                previous.unlink()


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
        check: Check | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self._warn = warn or (lambda message: None)
        self._fsync = fsync
        self._check = check
        self._cache: Data | None = None
        self._cached_signature: Signature | None = None
        # One more each time the tables held in memory may differ from the
        # last ones read: what is worked out from them can be kept until then.
        self.version = 0

    def read(self) -> Data | None:
        # The signature is taken before reading: a file another process
        # replaces while this one parses is then read again next time,
        # never cached under the new file's signature with the old content.
        signature = _signature(self.path)
        if self._cache is not None and signature == self._cached_signature:
            return self._cache
        data, recovered = self._read_or_recover()
        self.version += 1
        self._cache = data
        self._cached_signature = _signature(self.path) if recovered else signature
        return data

    def write(self, data: Data) -> None:
        try:
            try:
                payload = json.dumps(
                    data, ensure_ascii=False, separators=(",", ":")
                ).encode("utf-8")
            except (TypeError, ValueError, RecursionError) as error:
                # ValueError covers text that cannot be UTF-8 (a lone surrogate).
                raise StoreError(
                    f"could not save {self.path.name}: it holds something the "
                    f"file cannot keep ({error}). Nothing was changed."
                ) from None
            try:
                replace_keeping_backup(self.path, payload, fsync=self._fsync)
            except OSError as error:
                raise StoreError(
                    f"could not save {self.path.name} in {self.path.parent}: "
                    f"{error.strerror or error}. Nothing was changed."
                ) from error
        except StoreError:
            # TinyDB changed the cached tables in place before calling us:
            # forget them so the next read shows what really is on disk.
            self.forget()
            raise
        self.version += 1
        self._cache = data
        self._cached_signature = _signature(self.path)

    def forget(self) -> None:
        """Drop the in-memory copy; the next read parses the file again."""
        self.version += 1
        self._cache = None
        self._cached_signature = None

    def _read_or_recover(self) -> tuple[Data | None, bool]:
        """The tables, and whether they came from the backup."""
        backup = backup_path(self.path)
        try:
            data = _load(self.path, self._check)
        except _Unreadable as error:
            return self._recover("damaged", str(error)), True
        except _Misshapen as error:
            raise _misshapen(self.path, error) from None
        if data is not None:
            return data, False
        if not backup.exists():
            return None, False  # a new store
        return self._recover("missing"), True

    def _recover(self, kind: Literal["damaged", "missing"], detail: str = "") -> Data:
        backup = backup_path(self.path)
        set_aside = kind == "damaged"
        problem = f"could not be read ({detail})" if set_aside else "was missing"
        try:
            data = _load(backup, self._check)
        except _Misshapen as error:
            raise _misshapen(
                self.path, error, what=f" {problem}, and its backup {backup.name}"
            ) from None
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
        saved = _modified(backup)
        aside: Path | None = None
        try:
            if set_aside:
                # A second name first: until the good copy is in place the
                # damaged file stays where it was.
                aside = _set_aside_name(self.path)
                _second_name(self.path, aside, fsync=self._fsync)
            write_atomically(
                self.path,
                json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                fsync=self._fsync,
            )
        except OSError as error:
            if aside is not None:
                with contextlib.suppress(OSError):
                    aside.unlink()
            raise StoreError(
                f"The saved games file {self.path} {problem}, and its last good "
                f"copy ({backup.name}) could not be put in its place "
                f"({error.strerror or error}). Nothing was changed; make room on "
                "the disk or let the app write to the folder, then try again."
            ) from None
        self._warn(
            Repair(
                file=self.path.name,
                problem=kind,
                saved=saved,
                set_aside=aside.name if aside is not None else "",
                detail=detail,
            )
        )
        return data


def _modified(path: Path) -> str:
    """When ``path`` was last written, ISO 8601 UTC to the second ("" if unknown)."""
    try:
        moment = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except (OSError, ValueError, OverflowError):
        return ""
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")
