"""The store: every game's log and the table's settings, kept in TinyDB files.

Games in progress live in ``live.json``, a small file rewritten on every
recorded trick; finished, abandoned and deleted games live in
``archive.json``, rewritten only when a game moves in or out. So recording a
trick costs the same with no history as with years of it. Both files use
:class:`~companion.storage.AtomicJSONStorage`.

Every stored game carries a revision, one more on each change. The per-game
writes take an optional ``expected_rev``: when the game moved on meanwhile
(another screen, another process) the write is refused with a
:class:`~companion.errors.StaleGameError` in the same locked step, and
:meth:`Store.revision` gives the revision to pass next.

Only inputs are kept: each game's log (header and events), its redo stack and
timestamps. What a listing shows about the outcome (finished, winners) is a
cache refreshed from a replay on every write and recomputable with
:meth:`Store.refresh`.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import secrets
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from tinydb import TinyDB, where
from tinydb.queries import QueryLike
from tinydb.storages import MemoryStorage
from tinydb.table import Document, Table

from companion.errors import FormatError, LogError, StaleGameError, StoreError
from companion.games import SLUGS
from companion.games.base import Event
from companion.log import (
    MAX_EVENT_BYTES,
    MAX_INT_DIGITS,
    MAX_LOG_BYTES,
    GameLog,
    check_count,
    check_event,
    check_total,
    check_value,
)
from companion.replay import Replay, replay
from companion.storage import AtomicJSONStorage, Repair, remove_stale_temporaries
from companion.store_shape import check_tables

try:
    import fcntl
except ImportError:  # Windows: the in-process lock is all there is
    fcntl = None  # type: ignore[assignment]

SCHEMA = 1
LIVE_FILE = "live.json"
ARCHIVE_FILE = "archive.json"
LOCK_FILE = ".lock"

# Data written under schema version v is brought to v + 1 by MIGRATIONS[v],
# called with the open store before anything else reads it.
MIGRATIONS: dict[int, Callable[[Store], None]] = {}

# A change to a game's (events, redo stack), returning the new pair.
Edited = tuple[list[Event], list[Event]]

STATE_IN_PROGRESS = "in progress"
STATE_FINISHED = "finished"
STATE_ABANDONED = "abandoned"
STATE_DELETED = "deleted"
# What a backup keeps of a stored game besides its log: the inputs only.
BACKED_UP = ("id", "started", "updated", "rev", "deleted", "archived", "redo")


@dataclass
class GameInfo:
    """One line of the game list."""

    id: str
    game: str
    players: list[str]
    started: str  # ISO 8601, UTC
    finished: bool
    winners: list[str] = field(default_factory=list)
    deleted: bool = False
    archived: bool = False  # moved out of the games in progress
    updated: str = ""  # ISO 8601, UTC: the last change
    events: int = 0
    rev: int = 0  # the game's revision, one more on every change (see expected_rev)
    # One more than every game stored before it (0: stored before orders were kept).
    order: int = 0

    @property
    def sort_key(self) -> tuple[int, str, str]:
        """Newest last: by the order stored, then (older games) by start time."""
        return (self.order, self.started, self.id)

    @property
    def state(self) -> str:
        if self.deleted:
            return STATE_DELETED
        if self.finished:
            return STATE_FINISHED
        return STATE_ABANDONED if self.archived else STATE_IN_PROGRESS


@dataclass
class StoredGame:
    info: GameInfo
    log: GameLog
    redo: list[Event]  # undone events, the next to redo last

    @property
    def rev(self) -> int:
        return self.info.rev


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _now() -> str:
    return _stamp(datetime.now(UTC))


def _plain(value: Any, what: str) -> Any:
    """A deep copy holding only what JSON keeps, so what is stored reads back equal.

    What a log may not hold (see companion.log) is refused first: the stored
    form must never hold what cannot be read back or exported.
    """
    try:
        check_value(value)
        return json.loads(json.dumps(value, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise FormatError(f"{what} cannot be saved: {error}") from None


def _info(doc: dict[str, Any]) -> GameInfo:
    return GameInfo(
        id=doc["id"],
        game=doc["game"],
        players=list(doc["players"]),
        started=doc["started"],
        finished=bool(doc["finished"]),
        winners=list(doc["winners"]),
        deleted=bool(doc["deleted"]),
        archived=bool(doc["archived"]),
        updated=doc["updated"],
        events=int(doc["events"]),
        rev=_rev(doc),
        order=_order(doc),
    )


def _rev(doc: dict[str, Any]) -> int:
    return int(doc.get("rev", 0))


def _order(doc: dict[str, Any]) -> int:
    return int(doc.get("order", 0))


def _outcome(result: Replay) -> dict[str, Any]:
    """The listing's cached view of a replay."""
    finished = bool(result.state.finished)
    return {
        "finished": finished,
        "winners": list(result.state.winners) if finished else [],
        "events": len(result.log.events),
    }


def game_document(
    game_id: str, started: str, result: Replay, *, archived: bool, order: int = 0
) -> dict[str, Any]:
    """How a new game is stored: its log, and the listing's view of it."""
    log = result.log
    return {
        "id": game_id,
        "order": order,
        "game": log.game,
        "players": list(log.players),
        "started": started,
        "updated": started,
        "rev": 1,
        "deleted": False,
        "archived": archived,
        **_outcome(result),
        "log": _pack(_plain(log.to_dict(), "The game"), archived),
        "redo": [],
    }


def _pack(log: dict[str, Any], archived: bool) -> dict[str, Any] | str:
    """A log as kept in its file: as JSON text inside the archive.

    Reading thousands of nested logs costs ten times more than reading the
    same logs as strings, and the archive's logs are needed one at a time.
    """
    if archived:
        return json.dumps(log, ensure_ascii=False, separators=(",", ":"))
    return log


def _log_of(doc: dict[str, Any]) -> GameLog:
    """A fresh copy of a stored game's log."""
    packed = doc["log"]
    try:
        if isinstance(packed, str):
            data = json.loads(packed, parse_int=_bounded_int)
        else:
            data = copy.deepcopy(packed)
        # Checked when it was stored; a log kept before a limit existed still
        # opens, but one changed by hand into something else does not.
        return GameLog.from_dict(data, check=False)
    except (ValueError, RecursionError, LogError):
        raise StoreError(
            f'The saved game "{doc["id"]}" is not as the app wrote it (what was '
            "played is garbled). "
            "Nothing was changed; please copy the saved games somewhere safe "
            "and ask for help."
        ) from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(text)
    return int(text)


def _check_edited(before: list[Event], after: list[Event]) -> None:
    """Keep an edited log within the limits, or its export would be refused.

    Only the events the edit brought in are checked: the others were when
    they were stored.
    """
    check_count(len(after))
    kept = {id(event) for event in before}
    for number, event in enumerate(after, start=1):
        if id(event) not in kept:
            check_event(event, number)
    if len(after) * MAX_EVENT_BYTES > MAX_LOG_BYTES:  # else it cannot be too big
        check_total(len(json.dumps(after, ensure_ascii=False).encode("utf-8")))


def _check_rev(game_id: str, doc: dict[str, Any], expected_rev: int | None) -> None:
    if expected_rev is not None and _rev(doc) != expected_rev:
        raise StaleGameError(game_id, expected_rev, _rev(doc))


class _Guard:
    """One lock per data folder and process, plus a file lock between processes.

    Every read-modify-write takes an exclusive ``flock`` on ``.lock`` where the
    system has one, and every read a shared one: a game moves between the
    files in two writes, and a reader between them would miss it or see it
    twice.

    Each write leaves a fresh token in ``.lock``. A process that finds a
    token it has not seen knows another process wrote since, and drops its
    parsed copies of the files before reading them under the lock: file
    signatures alone can repeat when files are rewritten fast. Within one
    process, a write by a Store other than the last writer does the same.
    """

    def __init__(self, folder: Path | None) -> None:
        self._lock = threading.RLock()
        self._folder = folder
        self._depth = 0
        self._reading = 0
        self._fd: int | None = None
        self._writable = False  # whether _fd may be written to
        self._seen = b""
        self._storages: weakref.WeakSet[AtomicJSONStorage] = weakref.WeakSet()
        self._last_writer: weakref.ref[object] | None = None
        # Counts finished writes, so a screen can tell cheaply that the data moved.
        self.generation = 0
        # The files replaced by their last good copy, whichever Store of the
        # folder read them, until the players have seen it.
        self.repairs: list[Repair] = []

    def repaired(self, repair: Repair) -> None:
        with self._lock:
            self.repairs.append(repair)

    def dismiss(self, repair: Repair) -> None:
        with self._lock:
            if repair in self.repairs:
                self.repairs.remove(repair)

    def watch(self, storage: object) -> None:
        """Have ``storage`` forget its parsed copy when another process wrote."""
        if isinstance(storage, AtomicJSONStorage):
            self._storages.add(storage)

    def _forget_all(self) -> None:
        for storage in list(self._storages):
            storage.forget()

    @contextlib.contextmanager
    def read(self) -> Iterator[None]:
        """Hold the thread lock and a shared file lock: no write is half done."""
        with self._lock:
            outermost = self._reading == 0 and self._depth == 0
            if outermost and self._share():
                self._forget_all()
            self._reading += 1
            try:
                yield
            finally:
                self._reading -= 1
                if outermost and self._fd is not None:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def write(self, writer: object) -> Iterator[None]:
        """Hold both locks; every parsed copy is checked against the disk first."""
        with self._lock:
            if self._depth == 0:
                # A shared lock held by a read around this write is converted.
                changed = self._lock_file()
                last = self._last_writer() if self._last_writer else None
                if changed or last is not writer:
                    self._forget_all()
                self._last_writer = weakref.ref(writer)
            self._depth += 1
            try:
                yield
                if self._depth == 1:
                    self.generation += 1
            finally:
                self._depth -= 1
                if self._depth == 0 and self._fd is not None:
                    self._leave_token(self._fd)
                    # Back to the shared lock the read around it held, if any.
                    mode = fcntl.LOCK_SH if self._reading else fcntl.LOCK_UN
                    fcntl.flock(self._fd, mode)

    def _open_lock_file(self, *, create: bool) -> int | None:
        """The lock's descriptor: one a writer may write its token to, with
        ``create``; for a reader, any the system grants (None: nothing to lock).
        """
        if self._folder is None or fcntl is None:
            return None
        lock = self._folder / LOCK_FILE
        if create and self._fd is not None and not self._writable:
            # Opened by a read that could only read it: a lock taken on that
            # descriptor would be dropped with it, so drop it first.
            os.close(self._fd)
            self._fd = None
        if self._fd is None and create:
            self._folder.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            self._writable = True
        elif self._fd is None:
            # A reader never creates the folder (a folder no writer has made
            # has nothing to lock yet), and may only be let read the lock.
            for flags, writable in (
                (os.O_RDWR | os.O_CREAT, True),
                (os.O_RDONLY, False),
            ):
                with contextlib.suppress(OSError):
                    self._fd = os.open(lock, flags, 0o644)
                    self._writable = writable
                    break
        return self._fd

    def _share(self) -> bool:
        """Take the shared lock; True when another process wrote since."""
        fd = self._open_lock_file(create=False)
        if fd is None:
            return False
        fcntl.flock(fd, fcntl.LOCK_SH)
        # No token yet: nobody wrote through a Store, and the files'
        # signatures tell a reader all there is.
        return self._token_moved(fd, unknown=False)

    def _lock_file(self) -> bool:
        """Lock ``.lock``; True when another process wrote since this one looked."""
        if self._folder is None or fcntl is None:
            return False
        try:
            fd = self._open_lock_file(create=True)
        except OSError as error:
            lock = self._folder / LOCK_FILE
            raise StoreError(
                f"The saved games in {self._folder} cannot be changed: "
                f"{error.strerror or error} ({error.filename or lock}). "
                "Nothing was changed; choose a folder the app may write to."
            ) from None
        assert fd is not None
        fcntl.flock(fd, fcntl.LOCK_EX)
        return self._token_moved(fd, unknown=True)

    def _token_moved(self, fd: int, *, unknown: bool) -> bool:
        """Whether the token changed since this process last saw one; ``unknown``
        is the answer when there is none to compare."""
        try:
            token = os.pread(fd, 64, 0)
        except OSError:
            token = b""
        moved = token != self._seen if token else unknown
        self._seen = token
        return moved

    def _leave_token(self, fd: int) -> None:
        token = secrets.token_hex(8).encode()
        try:
            os.pwrite(fd, token, 0)
        except OSError:
            token = b""  # unknown: the next write reads everything afresh
        self._seen = token


_GUARDS: dict[Path, _Guard] = {}
_GUARDS_LOCK = threading.Lock()


def _guard_for(folder: Path) -> _Guard:
    key = folder.resolve()
    with _GUARDS_LOCK:
        if key not in _GUARDS:
            _GUARDS[key] = _Guard(key)
        return _GUARDS[key]


def _holds(table: Table, game_id: str) -> bool:
    """Whether the table holds a game with this id (kept per version of its file).

    A query over thousands of archived games costs far more than one look in
    a set of their ids, made once for each version of the file.
    """
    storage = table.storage
    data = storage.read() or {}
    version = getattr(storage, "version", None)
    kept = _IDS.get(storage)
    if version is None or kept is None or kept[0] != version:
        ids = {doc.get("id") for doc in data.get(table.name, {}).values()}
        if version is None:
            return game_id in ids
        kept = _IDS[storage] = (version, ids)
    return game_id in kept[1]


# Each file's game ids, with the version of its tables they were read from.
_IDS: weakref.WeakKeyDictionary[Any, tuple[int, set[Any]]] = (
    weakref.WeakKeyDictionary()
)


def _next_doc_id(table: Table) -> int:
    # TinyDB remembers the next id per Table object; another Store on the
    # same file would not see it, so the id is worked out afresh each time.
    return max((doc.doc_id for doc in table), default=0) + 1


def _insert(table: Table, doc: dict[str, Any]) -> None:
    table.insert(Document(doc, doc_id=_next_doc_id(table)))


def _upsert(table: Table, condition: QueryLike, doc: dict[str, Any]) -> None:
    found = table.get(condition)
    if isinstance(found, Document):
        table.update(doc, doc_ids=[found.doc_id])
    else:
        _insert(table, doc)


class Store:
    """Every game the table recorded, and what it remembers between games.

    Pass ``memory=True`` for a store that lives in memory only (TinyDB's
    MemoryStorage); ``fsync=False`` skips flushing to the disk (tests only).
    """

    def __init__(
        self, folder: Path | str, *, memory: bool = False, fsync: bool = True
    ) -> None:
        self.folder = Path(folder)
        # Kept in memory only: nothing may be written beside it in ``folder``.
        self.memory = memory
        if not memory and self.folder.exists() and not self.folder.is_dir():
            raise StoreError(
                f"{self.folder} is a file, not a folder: the saved games need a "
                "folder of their own. Nothing was changed; choose another one."
            )
        if memory:
            self._guard = _Guard(None)
            live = TinyDB(storage=MemoryStorage)
            archive = TinyDB(storage=MemoryStorage)
        else:
            self._guard = _guard_for(self.folder)
            storage = partial(
                AtomicJSONStorage,
                warn=self._guard.repaired,
                fsync=fsync,
                check=check_tables,
            )
            live = TinyDB(self.folder / LIVE_FILE, storage=storage)
            archive = TinyDB(self.folder / ARCHIVE_FILE, storage=storage)
        self._dbs = (live, archive)
        for db in self._dbs:
            self._guard.watch(db.storage)
        self._live = live.table("games", cache_size=0)
        self._archive = archive.table("games", cache_size=0)
        self._meta = live.table("meta", cache_size=0)
        self._settings = live.table("settings", cache_size=0)
        self._options = live.table("table_options", cache_size=0)
        self._open(memory)

    # opening

    def _open(self, memory: bool) -> None:
        with self._guard.read():
            version = self.schema()
            if version > SCHEMA:
                raise StoreError(
                    f"The saved games in {self.folder} were written by a newer "
                    f"version of the app (data version {version}; this one knows "
                    f"up to {SCHEMA}). Please update the app."
                )
            if version < SCHEMA:
                with self._guard.write(self):
                    for step in range(version, SCHEMA):
                        MIGRATIONS[step](self)
                        self._meta.truncate()
                        self._meta.insert({"schema": step + 1})
            self._settle_moves()
        if not memory and self.folder.is_dir():
            remove_stale_temporaries(self.folder)

    @property
    def generation(self) -> int:
        """How many writes this process has made to the folder (any Store on it)."""
        return self._guard.generation

    def schema(self) -> int:
        """The data version on disk (the current one for a new store)."""
        with self._guard.read():
            for doc in self._meta:
                return int(doc["schema"])
            return SCHEMA

    def _settle_moves(self) -> None:
        """Finish every move between the files that a crash interrupted.

        What was read to decide is read again under the write lock: another
        process may have finished the move, or made another, meanwhile.
        """
        if not self._doubles():
            return
        with self._guard.write(self):
            for game_id in self._doubles():
                self._settle(game_id)

    def _doubles(self) -> set[str]:
        """The ids of the games found in both files."""
        archived = {doc["id"] for doc in self._archive}
        return {doc["id"] for doc in self._live if doc["id"] in archived}

    def _settle(self, game_id: str) -> None:
        """Keep one copy of a game found in both files; call under the write lock.

        A game moves by being written to its new file first and then removed
        from the old one, the new copy one revision ahead: the copy with the
        higher revision is the one to keep.
        """
        here = self._live.get(where("id") == game_id)
        there = self._archive.get(where("id") == game_id)
        if not isinstance(here, Document) or not isinstance(there, Document):
            return
        if _rev(here) >= _rev(there):
            self._archive.remove(where("id") == game_id)
        else:
            self._live.remove(where("id") == game_id)

    def close(self) -> None:
        for db in self._dbs:
            db.close()

    def repairs(self) -> list[Repair]:
        """The files replaced by their last good copy, until ``dismiss_repair``.

        Kept for the folder in this process, whichever Store read the file:
        the players see each one until they say they have.
        """
        with self._guard.read():
            return list(self._guard.repairs)

    def dismiss_repair(self, repair: Repair) -> None:
        self._guard.dismiss(repair)

    def warnings(self) -> list[str]:
        """The repairs in English, for the command line."""
        return [repair.text() for repair in self.repairs()]

    # finding games

    def _find(self, game_id: str) -> tuple[Table, Document]:
        """The game's table and document, as the files are now.

        Of a game a crash left in both files, the copy a settle would keep;
        under the write lock, ``_find_for_write`` removes the other copy
        first, so the change about to be made starts from the one there is.
        """
        live = self._live.get(where("id") == game_id)
        # The archive is searched for a game in progress only when its raw
        # tables hold the id: a query over thousands of games costs more.
        if not isinstance(live, Document) or _holds(self._archive, game_id):
            archived = self._archive.get(where("id") == game_id)
            if isinstance(archived, Document):
                if isinstance(live, Document) and _rev(live) >= _rev(archived):
                    return self._live, live
                return self._archive, archived
        if isinstance(live, Document):
            return self._live, live
        raise StoreError(f'There is no saved game "{game_id}".')

    def _find_for_write(self, game_id: str) -> tuple[Table, Document]:
        """``_find`` under the write lock: a game in both files is settled first."""
        if _holds(self._live, game_id) and _holds(self._archive, game_id):
            self._settle(game_id)
        return self._find(game_id)

    def _find_untrashed(self, game_id: str) -> tuple[Table, Document]:
        table, doc = self._find_for_write(game_id)
        if doc["deleted"]:
            raise StoreError(f'The game "{game_id}" is in the trash; restore it first.')
        return table, doc

    def _new_game_keys(self) -> tuple[str, str, int]:
        """A fresh game id, its start time and its place in the order of games.

        The start is the clock's, whatever it says; the order is one more than
        every other game's, so games started within one millisecond, or on a
        device whose clock is ahead or behind, still list as they came, and
        nothing here waits for a clock to catch up.
        """
        docs = [doc for table in (self._live, self._archive) for doc in table]
        taken = {doc["id"] for doc in docs}
        order = max((_order(doc) for doc in docs), default=0) + 1
        now = datetime.now(UTC)
        prefix = now.strftime("%Y%m%d-%H%M%S")
        while True:  # until an id not taken: a few tries at most
            game_id = f"{prefix}-{secrets.token_hex(2)}"
            if game_id not in taken:
                return game_id, _stamp(now), order

    def _ensure_schema_saved(self) -> None:
        if len(self._meta) == 0:
            self._meta.insert({"schema": SCHEMA})

    def _move(self, source: Table, doc: Document, fields: dict[str, Any]) -> None:
        """Rewrite a game, into the other file when ``fields`` say it belongs there."""
        new = {**doc, **fields, "rev": _rev(doc) + 1, "updated": _now()}
        target = self._archive if new["archived"] or new["deleted"] else self._live
        new["log"] = _pack(_log_of(new).to_dict(), target is self._archive)
        if target is source:
            source.update(new, doc_ids=[doc.doc_id])
            return
        # New copy first, old copy last, each found by the game's id: a crash
        # between the two leaves two copies, which _settle resolves.
        _upsert(target, where("id") == doc["id"], new)
        source.remove(where("id") == doc["id"])

    # games in progress

    def create_game(self, log: GameLog) -> str:
        """Save a new game (its header, and any events it already has).

        The log must replay; one that is already over goes to the archive.
        """
        # Checked first, with event numbers; then copied as JSON keeps it.
        GameLog.from_dict(log.to_dict())
        log = GameLog.from_dict(_plain(log.to_dict(), "The game"))
        result = replay(log)
        with self._guard.write(self):
            self._ensure_schema_saved()
            game_id, now, order = self._new_game_keys()
            archived = bool(result.state.finished)
            doc = game_document(game_id, now, result, archived=archived, order=order)
            _insert(self._archive if archived else self._live, doc)
            return game_id

    def import_log(self, log: GameLog) -> str:
        """Save a game from elsewhere (an exported log)."""
        return self.create_game(log)

    def _edit(
        self,
        game_id: str,
        change: Callable[[list[Event], list[Event]], Edited],
        expected_rev: int | None = None,
    ) -> Replay:
        """Change a game's events; the new log must replay or nothing changes.

        The event that ends the game moves it to the archive at once (the
        app need not call finish); an edit that makes it unfinished again, or
        any edit of an abandoned game, brings it back to the games in progress.
        With ``expected_rev``, a game whose revision moved on is refused with a
        StaleGameError in the same locked step.
        """
        with self._guard.write(self):
            self._ensure_schema_saved()
            table, doc = self._find_untrashed(game_id)
            _check_rev(game_id, doc, expected_rev)
            stored = _log_of(doc)
            events, redo = change(stored.events, copy.deepcopy(doc["redo"]))
            _check_edited(stored.events, events)
            log = stored.with_events(events)
            result = replay(log)
            outcome = _outcome(result)
            fields = {"archived": outcome["finished"], "log": log.to_dict()}
            self._move(table, doc, {**fields, **outcome, "redo": redo})
            return result

    def append(
        self, game_id: str, event: Event, expected_rev: int | None = None
    ) -> Replay:
        """Record one more event; a LogError from the rules refuses it."""
        event = _plain(event, "The event")

        def change(events: list[Event], redo: list[Event]) -> Edited:
            # Recording what would have been redone anyway keeps the rest of redo.
            keep = redo[:-1] if redo and redo[-1] == event else []
            return [*events, event], keep

        return self._edit(game_id, change, expected_rev)

    def undo(self, game_id: str, expected_rev: int | None = None) -> Replay:
        def change(events: list[Event], redo: list[Event]) -> Edited:
            if not events:
                raise StoreError("There is nothing to undo in this game.")
            return events[:-1], [*redo, events[-1]]

        return self._edit(game_id, change, expected_rev)

    def redo(self, game_id: str, expected_rev: int | None = None) -> Replay:
        def change(events: list[Event], redo: list[Event]) -> Edited:
            if not redo:
                raise StoreError("There is nothing to redo in this game.")
            return [*events, redo[-1]], redo[:-1]

        return self._edit(game_id, change, expected_rev)

    def replace_event(
        self,
        game_id: str,
        number: int,
        event: Event,
        expected_rev: int | None = None,
    ) -> Replay:
        """Put ``event`` in place of event ``number`` (1-based) and replay."""
        event = _plain(event, "The event")

        def change(events: list[Event], redo: list[Event]) -> Edited:
            _check_number(events, number)
            return [*events[: number - 1], event, *events[number:]], []

        return self._edit(game_id, change, expected_rev)

    def delete_event(
        self, game_id: str, number: int, expected_rev: int | None = None
    ) -> Replay:
        """Remove event ``number`` (1-based) and replay."""

        def change(events: list[Event], redo: list[Event]) -> Edited:
            _check_number(events, number)
            return [*events[: number - 1], *events[number:]], []

        return self._edit(game_id, change, expected_rev)

    def load(self, game_id: str) -> StoredGame:
        with self._guard.read():
            _, doc = self._find(game_id)
            doc = copy.deepcopy(dict(doc))
        return StoredGame(_info(doc), _log_of(doc), doc["redo"])

    def replay(self, game_id: str) -> Replay:
        return replay(self.load(game_id).log)

    def revision(self, game_id: str) -> int:
        """The game's current revision: pass it as ``expected_rev`` to a write."""
        with self._guard.read():
            _, doc = self._find(game_id)
            return int(_rev(doc))

    # the list and the archive

    def list_games(
        self,
        game: str | None = None,
        player: str | None = None,
        include_deleted: bool = False,
    ) -> list[GameInfo]:
        """Saved games, newest first, optionally of one game and with one player."""
        wanted = player.casefold() if player is not None else None
        with self._guard.read():
            games = _one_per_game(
                _info(doc)
                for table in (self._live, self._archive)
                for doc in table
                if (include_deleted or not doc["deleted"])
                and (game is None or doc["game"] == game)
                and (wanted is None or _has_player(doc, wanted))
            )
        games.sort(key=lambda info: info.sort_key, reverse=True)
        return games

    def unfinished(self) -> list[GameInfo]:
        """Games still being played, newest first."""
        with self._guard.read():
            games = [_info(doc) for doc in self._live if not doc["finished"]]
        games.sort(key=lambda info: info.sort_key, reverse=True)
        return games

    def finish(
        self, game_id: str, abandon: bool = False, expected_rev: int | None = None
    ) -> None:
        """Move a game that is over to the archive; doing it twice does nothing.

        A game that is not over is refused unless ``abandon`` is set: then it
        is archived as abandoned (it can still be edited, which reopens it).
        """
        with self._guard.write(self):
            self._ensure_schema_saved()
            table, doc = self._find_untrashed(game_id)
            _check_rev(game_id, doc, expected_rev)
            if doc["archived"]:
                return
            fields: dict[str, Any] = {"archived": True}
            if not abandon:
                result = replay(_log_of(doc))
                fields.update(_outcome(result))
                if not fields["finished"]:
                    raise StoreError(
                        f'The game "{game_id}" is not over yet. Record the rest '
                        "of it, or archive it as abandoned."
                    )
            self._move(table, doc, fields)

    def delete_game(self, game_id: str, expected_rev: int | None = None) -> None:
        """Move a game to the trash (see restore_game and purge_game)."""
        self._set_deleted(game_id, True, expected_rev)

    def restore_game(self, game_id: str, expected_rev: int | None = None) -> None:
        """Take a game out of the trash, back where it was."""
        self._set_deleted(game_id, False, expected_rev)

    def _set_deleted(
        self, game_id: str, deleted: bool, expected_rev: int | None
    ) -> None:
        with self._guard.write(self):
            self._ensure_schema_saved()
            table, doc = self._find_for_write(game_id)
            _check_rev(game_id, doc, expected_rev)
            if doc["deleted"] != deleted:
                self._move(table, doc, {"deleted": deleted})

    def purge_game(self, game_id: str, expected_rev: int | None = None) -> None:
        """Remove a game in the trash for good."""
        with self._guard.write(self):
            table, doc = self._find_for_write(game_id)
            _check_rev(game_id, doc, expected_rev)
            if not doc["deleted"]:
                raise StoreError(
                    f'The game "{game_id}" is not in the trash; delete it first.'
                )
            table.remove(where("id") == game_id)

    def refresh(self) -> list[str]:
        """Recompute every game's cached outcome from its log.

        Returns the ids of games whose log no longer replays (left unchanged).
        """
        failed: list[str] = []
        with self._guard.write(self):
            for table in (self._live, self._archive):
                for doc in list(table):
                    try:
                        result = replay(_log_of(doc))
                    except LogError:
                        failed.append(doc["id"])
                        continue
                    outcome = _outcome(result)
                    if any(doc[key] != value for key, value in outcome.items()):
                        table.update(outcome, doc_ids=[doc.doc_id])
        return failed

    # what the table remembers

    def known_players(self) -> list[str]:
        """Every name in a saved game, most recently seen first."""
        names: dict[str, None] = {}
        for info in self.list_games():
            for name in info.players:
                names.setdefault(name)
        return list(names)

    def table_options(self, game: str, players: int | None = None) -> dict[str, Any]:
        """The options this table confirmed for ``game``, as the next game's defaults.

        Options remembered for a number of players override those remembered
        without one (some printed numbers differ by player count).
        """
        _check_slug(game)
        with self._guard.read():
            docs = self._options.search(where("game") == game)
        chosen: dict[str, Any] = {}
        for count in (None, players) if players is not None else (None,):
            for doc in docs:
                if doc["players"] == count:
                    chosen.update(copy.deepcopy(doc["options"]))
        return chosen

    def remember_options(
        self, game: str, options: dict[str, Any], players: int | None = None
    ) -> None:
        """Keep ``options`` (merged over what was kept) for the next ``game``."""
        _check_slug(game)
        options = _plain(options, "The options")
        if not isinstance(options, dict):
            raise FormatError("The options must be a set of named values.")
        with self._guard.write(self):
            self._ensure_schema_saved()
            condition = (where("game") == game) & (where("players") == players)
            found = self._options.get(condition)
            kept = dict(found["options"]) if isinstance(found, Document) else {}
            kept.update(options)
            _upsert(
                self._options,
                condition,
                {"game": game, "players": players, "options": kept},
            )

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._guard.read():
            doc = self._settings.get(where("key") == key)
        if isinstance(doc, Document):
            return copy.deepcopy(doc["value"])
        return default

    def set_setting(self, key: str, value: Any) -> None:
        value = _plain(value, f'The setting "{key}"')
        with self._guard.write(self):
            self._ensure_schema_saved()
            _upsert(self._settings, where("key") == key, {"key": key, "value": value})

    # backup

    def backup_games(self) -> list[dict[str, Any]]:
        """Every game's inputs (log, redo stack, state, times), oldest first.

        What a listing caches from a replay is left out: a restore replays.
        """
        with self._guard.read():
            docs = [doc for table in (self._live, self._archive) for doc in table]
        docs.sort(key=lambda doc: (_order(doc), doc["started"], doc["id"]))
        return [
            {
                **{key: copy.deepcopy(doc[key]) for key in BACKED_UP},
                "log": _log_of(doc).to_dict(),
            }
            for doc in docs
        ]

    def backup_settings(self, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
        """Every setting by key (taps in progress among them), but ``leave_out``."""
        with self._guard.read():
            return {
                doc["key"]: copy.deepcopy(doc["value"])
                for doc in self._settings
                if doc["key"] not in leave_out
            }

    def restore_games(
        self, games: list[Any], settings: dict[str, Any] | None = None
    ) -> tuple[int, int]:
        """Add the backed-up games and settings not here yet: (added, already here).

        Every game is checked and replayed first; one that cannot be read
        refuses them all and nothing changes. A setting already made here
        stays as it is.
        """
        restored = [_restored(game, at) for at, game in enumerate(games, start=1)]
        kept = _plain(settings or {}, "The backup's settings")
        with self._guard.write(self):
            for key, value in kept.items():
                if self._settings.get(where("key") == key) is None:
                    _insert(self._settings, {"key": key, "value": value})
            self._ensure_schema_saved()
            tables = (self._live, self._archive)
            taken = {doc["id"] for table in tables for doc in table}
            order = max((_order(doc) for t in tables for doc in t), default=0)
            added = 0
            for doc in restored:
                if doc["id"] in taken:
                    continue
                # Restored games follow the games already here, in backup order.
                order += 1
                doc["order"] = order
                archived = doc["archived"] or doc["deleted"]
                doc["log"] = _pack(doc["log"], archived)
                _insert(self._archive if archived else self._live, doc)
                taken.add(doc["id"])
                added += 1
        return added, len(restored) - added


def _one_per_game(infos: Iterable[GameInfo]) -> list[GameInfo]:
    """One line per game: a copy a crash left behind in the old file is not shown."""
    latest: dict[str, GameInfo] = {}
    for info in infos:
        kept = latest.get(info.id)
        if kept is None or info.rev > kept.rev:
            latest[info.id] = info
    return list(latest.values())


def _has_player(doc: dict[str, Any], folded_name: str) -> bool:
    return any(name.casefold() == folded_name for name in doc["players"])


def _check_number(events: list[Event], number: int) -> None:
    if not 1 <= number <= len(events):
        raise StoreError(
            f"There is no event {number} in this game (it has {len(events)})."
        )


def _check_slug(game: str) -> None:
    if game not in SLUGS:
        raise StoreError(f'Unknown game "{game}" (known games: {", ".join(SLUGS)}).')


def _restored(game: Any, number: int) -> dict[str, Any]:
    """A backed-up game as the store keeps it, its listing replayed afresh."""
    kinds = {"id": str, "started": str, "updated": str, "rev": int}
    kinds |= {"deleted": bool, "archived": bool, "redo": list, "log": dict}
    if not isinstance(game, dict) or any(
        not isinstance(game.get(key), kind) for key, kind in kinds.items()
    ):
        raise StoreError(
            f"Game {number} of the backup is incomplete, so nothing was restored."
        )
    try:
        log = GameLog.from_dict(_plain(game["log"], f"Game {number} of the backup"))
        result = replay(log)
    except LogError:
        raise StoreError(
            f"Game {number} of the backup breaks the rules of its game, so nothing "
            "was restored."
        ) from None
    return {
        "id": game["id"],
        "game": log.game,
        "players": list(log.players),
        "started": game["started"],
        "updated": game["updated"],
        "rev": game["rev"],
        "deleted": game["deleted"],
        "archived": game["archived"],
        **_outcome(result),
        "log": log.to_dict(),
        "redo": _plain(game["redo"], f"Game {number} of the backup"),
    }
