"""One server per data folder, held by a lock the serving process owns for life.

Two servers on one folder would each keep their own view of a game and write
over the other's taps. The lock is the operating system's (``flock`` on
``.server.lock`` in the folder), not the file's presence: when a server ends,
even killed outright, the system lets go of it, so a file left behind never
blocks the next start. The file only says which process holds the lock, for
the message. The store's own lock is another file: the command-line tools
take only that one, so they keep working beside a running server.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from companion.errors import CompanionError

try:
    import fcntl
except ImportError:  # no flock (Windows): a folder is not guarded there
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".server.lock"
# A server that just took the lock writes its process id right after: a start
# racing it waits this long for the id rather than naming no one.
_PID_WAIT_SECONDS = 0.5


class FolderInUse(CompanionError):
    """Another server already serves the folder."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        holder = f" (process {pid})" if pid else ""
        super().__init__(
            f"the games in {folder} are already open in another Curse Companion "
            f"on this machine{holder}: use that one, or stop it first"
        )
        self.folder = folder
        self.pid = pid


def _open_lock_file(path: Path) -> int | None:
    """The lock file, opened; None where the folder cannot hold one at all."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            # No folder to guard (a file in its place, a missing parent):
            # the store says what is wrong when it opens.
            return None
    try:
        # A folder this process may only read: a server elsewhere may still
        # hold the lock, and a read-only handle can take it too.
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def _holder(handle: int) -> int | None:
    deadline = time.monotonic() + _PID_WAIT_SECONDS
    while True:
        text = os.pread(handle, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text)
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)


@contextmanager
def serving(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one server while the block runs.

    Raises FolderInUse, saying which process holds it, when another server
    already serves the folder.
    """
    if fcntl is None:
        yield
        return
    with suppress(OSError):  # the store says why when it opens the folder
        folder.mkdir(parents=True, exist_ok=True)
    handle = _open_lock_file(folder / LOCK_NAME)
    if handle is None:
        yield
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FolderInUse(folder, _holder(handle)) from None
        with suppress(OSError):  # a read-only lock file is held all the same
            os.ftruncate(handle, 0)
            os.pwrite(handle, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        # Closing lets go of the lock; the file stays, harmless, for next time.
        os.close(handle)
