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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
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
    MAX_LOG_BYTES,
    GameLog,
    check_count,
    check_event,
    check_total,
    check_value,
)
from companion.replay import Replay, replay
from companion.storage import AtomicJSONStorage, remove_stale_temporaries

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
        rev=int(doc.get("rev", 0)),
    )


def _outcome(result: Replay) -> dict[str, Any]:
    """The listing's cached view of a replay."""
    finished = bool(result.state.finished)
    return {
        "finished": finished,
        "winners": list(result.state.winners) if finished else [],
        "events": len(result.log.events),
    }


def game_document(
    game_id: str, started: str, result: Replay, *, archived: bool
) -> dict[str, Any]:
    """How a new game is stored: its log, and the listing's view of it."""
    log = result.log
    return {
        "id": game_id,
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
    data = json.loads(packed) if isinstance(packed, str) else copy.deepcopy(packed)
    # Checked when it was stored; a log kept before a limit existed still opens.
    return GameLog.from_dict(data, check=False)


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
    if expected_rev is not None and doc["rev"] != expected_rev:
        raise StaleGameError(game_id, expected_rev, doc["rev"])


class _Guard:
    """One lock per data folder and process, plus a file lock between processes.

    Reads take the thread lock only (files are replaced whole, so another
    process never shows a half-written one); every read-modify-write also
    takes an exclusive ``flock`` on ``.lock`` where the system has one.

    Each write leaves a fresh token in ``.lock``. A process that finds a
    token it did not write knows another process wrote since, and drops its
    parsed copies of the files before reading them under the lock: file
    signatures alone can repeat when files are rewritten fast. Within one
    process, a write by a Store other than the last writer does the same.
    """

    def __init__(self, folder: Path | None) -> None:
        self._lock = threading.RLock()
        self._folder = folder
        self._depth = 0
        self._fd: int | None = None
        self._token = b""
        self._storages: weakref.WeakSet[AtomicJSONStorage] = weakref.WeakSet()
        self._last_writer: weakref.ref[object] | None = None
        # Counts finished writes, so a screen can tell cheaply that the data moved.
        self.generation = 0

    def watch(self, storage: object) -> None:
        """Have ``storage`` forget its parsed copy when another process wrote."""
        if isinstance(storage, AtomicJSONStorage):
            self._storages.add(storage)

    @contextlib.contextmanager
    def read(self) -> Iterator[None]:
        with self._lock:
            yield

    @contextlib.contextmanager
    def write(self, writer: object) -> Iterator[None]:
        """Hold both locks; every parsed copy is checked against the disk first."""
        with self._lock:
            if self._depth == 0:
                changed = self._lock_file()
                last = self._last_writer() if self._last_writer else None
                if changed or last is not writer:
                    for storage in list(self._storages):
                        storage.forget()
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
                    fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _lock_file(self) -> bool:
        """Lock ``.lock``; True when another process wrote since this one did."""
        if self._folder is None or fcntl is None:
            return False
        if self._fd is None:
            lock = self._folder / LOCK_FILE
            try:
                self._folder.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise StoreError(
                    f"The saved games in {self._folder} cannot be changed: "
                    f"{error.strerror or error} ({error.filename or lock}). "
                    "Nothing was changed; choose a folder the app may write to."
                ) from None
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            token = os.pread(self._fd, 64, 0)
        except OSError:
            token = b""
        return token != self._token or not token

    def _leave_token(self, fd: int) -> None:
        token = secrets.token_hex(8).encode()
        try:
            os.pwrite(fd, token, 0)
        except OSError:
            token = b""  # unknown: the next write reads everything afresh
        self._token = token


_GUARDS: dict[Path, _Guard] = {}
_GUARDS_LOCK = threading.Lock()


def _guard_for(folder: Path) -> _Guard:
    key = folder.resolve()
    with _GUARDS_LOCK:
        if key not in _GUARDS:
            _GUARDS[key] = _Guard(key)
        return _GUARDS[key]


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
        self._warnings: list[str] = []
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
                AtomicJSONStorage, warn=self._warnings.append, fsync=fsync
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
        """Finish a move between the files that a crash interrupted.

        A game moves by being written to its new file first and then removed
        from the old one, each copy carrying a revision number; a game found
        in both files keeps the copy with the higher revision.
        """
        archived = {doc["id"]: doc for doc in self._archive}
        doubles = [doc for doc in self._live if doc["id"] in archived]
        if not doubles:
            return
        with self._guard.write(self):
            for doc in doubles:
                other = archived[doc["id"]]
                if doc["rev"] >= other["rev"]:
                    self._archive.remove(doc_ids=[other.doc_id])
                else:
                    self._live.remove(doc_ids=[doc.doc_id])

    def close(self) -> None:
        for db in self._dbs:
            db.close()

    def warnings(self) -> list[str]:
        """What went wrong with the files, in words to show the player."""
        return list(self._warnings)

    def clear_warnings(self) -> None:
        self._warnings.clear()

    # finding games

    def _find(self, game_id: str) -> tuple[Table, Document]:
        for table in (self._live, self._archive):
            doc = table.get(where("id") == game_id)
            if isinstance(doc, Document):
                return table, doc
        raise StoreError(f'There is no saved game "{game_id}".')

    def _find_untrashed(self, game_id: str) -> tuple[Table, Document]:
        table, doc = self._find(game_id)
        if doc["deleted"]:
            raise StoreError(f'The game "{game_id}" is in the trash; restore it first.')
        return table, doc

    def _new_id_and_start(self) -> tuple[str, str]:
        """A fresh game id, and a start time later than every other game's.

        Games started within the same millisecond would otherwise list in a
        random order.
        """
        docs = [doc for table in (self._live, self._archive) for doc in table]
        taken = {doc["id"] for doc in docs}
        now = datetime.now(UTC)
        latest = max((doc["started"] for doc in docs), default="")
        while _stamp(now) <= latest:
            now += timedelta(milliseconds=1)
        prefix = now.strftime("%Y%m%d-%H%M%S")
        while True:
            game_id = f"{prefix}-{secrets.token_hex(2)}"
            if game_id not in taken:
                return game_id, _stamp(now)

    def _ensure_schema_saved(self) -> None:
        if len(self._meta) == 0:
            self._meta.insert({"schema": SCHEMA})

    def _move(self, source: Table, doc: Document, fields: dict[str, Any]) -> None:
        """Rewrite a game, into the other file when ``fields`` say it belongs there."""
        new = {**doc, **fields, "rev": doc["rev"] + 1, "updated": _now()}
        target = self._archive if new["archived"] or new["deleted"] else self._live
        new["log"] = _pack(_log_of(new).to_dict(), target is self._archive)
        if target is source:
            source.update(new, doc_ids=[doc.doc_id])
            return
        # New copy first, old copy last: see _settle_moves.
        _insert(target, new)
        source.remove(doc_ids=[doc.doc_id])

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
            game_id, now = self._new_id_and_start()
            archived = bool(result.state.finished)
            doc = game_document(game_id, now, result, archived=archived)
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
            return int(doc["rev"])

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
            games = [
                _info(doc)
                for table in (self._live, self._archive)
                for doc in table
                if (include_deleted or not doc["deleted"])
                and (game is None or doc["game"] == game)
                and (wanted is None or _has_player(doc, wanted))
            ]
        games.sort(key=lambda info: (info.started, info.id), reverse=True)
        return games

    def unfinished(self) -> list[GameInfo]:
        """Games still being played, newest first."""
        with self._guard.read():
            games = [_info(doc) for doc in self._live if not doc["finished"]]
        games.sort(key=lambda info: (info.started, info.id), reverse=True)
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
            table, doc = self._find(game_id)
            _check_rev(game_id, doc, expected_rev)
            if doc["deleted"] != deleted:
                self._move(table, doc, {"deleted": deleted})

    def purge_game(self, game_id: str, expected_rev: int | None = None) -> None:
        """Remove a game in the trash for good."""
        with self._guard.write(self):
            table, doc = self._find(game_id)
            _check_rev(game_id, doc, expected_rev)
            if not doc["deleted"]:
                raise StoreError(
                    f'The game "{game_id}" is not in the trash; delete it first.'
                )
            table.remove(doc_ids=[doc.doc_id])

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
        docs.sort(key=lambda doc: (doc["started"], doc["id"]))
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
            added = 0
            for doc in restored:
                if doc["id"] in taken:
                    continue
                archived = doc["archived"] or doc["deleted"]
                doc["log"] = _pack(doc["log"], archived)
                _insert(self._archive if archived else self._live, doc)
                taken.add(doc["id"])
                added += 1
        return added, len(restored) - added


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
