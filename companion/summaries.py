"""Each stored game's summary, derived once from its log and kept beside it.

The past-games list and the statistics read what a replay found (who won,
each player's figure, how good the game was by its own rule) for thousands
of games; replaying them all on every look would cost seconds. So each
game's replay is summarised once into a :class:`GameSummary`, marked with the
revision and the last-change time of the log it came from, and kept in
``summaries.json`` beside ``live.json`` and ``archive.json``.

It is a cache, never the truth: a summary whose game changed is recounted
from the log, one whose game is gone is dropped, a file written by another
version of the rules is ignored, and deleting the file loses nothing (it is
rebuilt from the logs on the next look). :meth:`Summaries.sync` brings the
summaries up to date with the store: at no cost while the store's files are
the ones last seen, by the games in progress alone when only they changed,
otherwise by the store's list of games (no replay for a game that did not
change). Views kept over the summaries (the lists' order, the statistics'
tally) are told of every summary that comes and goes, so each stays up to
date one game at a time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import json
import os
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, TypeVar

from companion import games as games_package
from companion.errors import LogError, StoreError
from companion.games import describe
from companion.games.base import Best
from companion.replay import replay
from companion.storage import write_atomically
from companion.store import ARCHIVE_FILE, LIVE_FILE, GameInfo, Store

SUMMARIES_FILE = "summaries.json"
# One more whenever a summary's fields or their meaning change.
SUMMARY_FORMAT = 1


def _rules_fingerprint() -> str:
    """What the summaries were derived with: their format, the app, the rules.

    A summary derived by other rules (a fixed engine) is recounted, so the
    games' own source is part of it where it can be read.
    """
    try:
        version = metadata.version("curse-companion")
    except metadata.PackageNotFoundError:
        version = "?"
    digest = hashlib.sha256()
    for folder in games_package.__path__:
        for source in sorted(Path(folder).glob("*.py")):
            with contextlib.suppress(OSError):
                digest.update(source.name.encode() + source.read_bytes())
    for module in ("replay.py", "summaries.py"):
        with contextlib.suppress(OSError):
            digest.update((Path(__file__).parent / module).read_bytes())
    return f"{SUMMARY_FORMAT}/{version}/{digest.hexdigest()[:16]}"


FINGERPRINT = _rules_fingerprint()


@dataclass(frozen=True)
class GameSummary:
    """What the lists and the statistics need of one stored game.

    ``info`` is the game's line in the list, its outcome as the replay found
    it; ``totals`` each player's figure; ``best`` how the game ranks for each
    player whose game counts towards their best (finished games only).
    ``broken``: the log no longer replays, so nothing of it counts.
    """

    info: GameInfo
    totals: dict[str, int] = field(default_factory=dict)
    best: dict[str, Best] = field(default_factory=dict)
    broken: bool = False

    @property
    def key(self) -> tuple[int, str]:
        """Which version of the game's log this summary came from."""
        return self.info.rev, self.info.updated

    @property
    def counts(self) -> bool:
        """Whether the game counts in the statistics: over, kept and readable."""
        return self.info.finished and not self.info.deleted and not self.broken

    def to_dict(self) -> dict[str, Any]:
        return {
            "info": vars(self.info),
            "totals": self.totals,
            "best": {
                name: [list(best.rank), best.value] for name, best in self.best.items()
            },
            "broken": self.broken,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameSummary:
        return cls(
            info=GameInfo(**data["info"]),
            totals={name: int(value) for name, value in data["totals"].items()},
            best={
                name: Best(tuple(int(step) for step in rank), int(value))
                for name, (rank, value) in data["best"].items()
            },
            broken=bool(data["broken"]),
        )


def summarise(info: GameInfo, summary: Mapping[str, Any]) -> GameSummary:
    """A game's summary from its replay's (``Replay.summary()``).

    The outcome is the replay's own, whatever the store's list says.
    """
    finished = bool(summary["finished"])
    winners = list(summary["winners"]) if finished else []
    totals = {name: int(value) for name, value in summary["totals"].items()}
    best: dict[str, Best] = {}
    if finished:
        ranking = describe(info.game).best_of
        for name in totals:
            ranked = ranking(summary, name)
            if ranked is not None:
                best[name] = ranked
    info = dataclasses.replace(info, finished=finished, winners=winners)
    return GameSummary(info, totals, best)


class View(Protocol):
    """Something kept up to date over the summaries, one game at a time."""

    def add(self, summary: GameSummary) -> None: ...

    def remove(self, summary: GameSummary) -> None: ...


V = TypeVar("V", bound=View)

# A file's identity: inode, size, modification and change time.
Signature = tuple[int, int, int, int] | None


def _signature(path: Path) -> Signature:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class Summaries:
    """Every stored game's summary, and the views kept over them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path: Path | None = None if store.memory else store.folder / SUMMARIES_FILE
        self.games: dict[str, GameSummary] = {}
        self.views: dict[type[Any], View] = {}
        # the store as last seen: (writes in this process, live file, archive file)
        self.seen: tuple[int, Signature, Signature] | None = None
        self.loaded = False
        # what changed since the file was last written, by game id (None: gone)
        self.changes: dict[str, GameSummary | None] = {}
        self.lines = 0  # lines in the file as this process knows it
        self.recounted = 0  # games replayed so far, for the curious and the tests

    # the views

    def view(self, kind: type[V]) -> V:
        """The view of type ``kind`` (made with no arguments), up to date."""
        self.sync()
        found = self.views.get(kind)
        if found is None:
            found = kind()
            with _in_bulk():
                for summary in self.games.values():
                    found.add(summary)
            self.views[kind] = found
        assert isinstance(found, kind)
        return found

    def _put(self, old: GameSummary | None, new: GameSummary | None) -> None:
        for view in self.views.values():
            if old is not None:
                view.remove(old)
            if new is not None:
                view.add(new)
        if new is None:
            if old is not None:
                del self.games[old.info.id]
                self.changes[old.info.id] = None
        else:
            self.games[new.info.id] = new
            self.changes[new.info.id] = new

    # keeping up with the store

    def _stamp(self) -> tuple[int, Signature, Signature]:
        folder = self.store.folder
        if self.path is None:
            return self.store.generation, None, None
        return (
            self.store.generation,
            _signature(folder / LIVE_FILE),
            _signature(folder / ARCHIVE_FILE),
        )

    def sync(self) -> None:
        """Bring every summary up to date with the store's logs."""
        if not self.loaded:
            with _in_bulk():
                self._load()
            self.loaded = True
        # Taken before reading: a store changing meanwhile is looked at again.
        stamp = self._stamp()
        if stamp == self.seen:
            return
        archive_same = (
            self.seen is not None and self.path is not None and stamp[2] == self.seen[2]
        )
        if not (archive_same and self._sync_live()):
            self._sync_all()
        self.seen = stamp
        self._save()

    def _sync_live(self) -> bool:
        """Only the games in progress changed: look at them alone.

        False when they do not explain the change (a game left the games in
        progress though the archive did not change): every game is looked at.
        """
        playing = self.store.unfinished()
        known = {
            summary.info.id
            for summary in self.games.values()
            if not summary.info.archived and not summary.info.deleted
        }
        if known - {info.id for info in playing}:
            return False
        for info in playing:
            self._update(info)
        return True

    def _sync_all(self) -> None:
        with _in_bulk():
            every = self.store.list_games(include_deleted=True)
        for info in every:
            self._update(info)
        for game_id in set(self.games) - {info.id for info in every}:
            self._put(self.games[game_id], None)

    def _update(self, info: GameInfo) -> None:
        """Recount one game when its log is not the one summarised."""
        old = self.games.get(info.id)
        if old is not None and old.key == (info.rev, info.updated):
            return
        try:
            stored = self.store.load(info.id)
        except StoreError:  # removed meanwhile: the next look drops it
            return
        self.recounted += 1
        try:
            new = summarise(stored.info, replay(stored.log).summary())
        except LogError:
            new = GameSummary(stored.info, broken=True)
        self._put(old, new)

    def rebuild(self) -> None:
        """Forget every summary and recount them all from the logs."""
        for summary in list(self.games.values()):
            self._put(summary, None)
        self.seen = None
        self.loaded = True
        self.lines = 0  # written anew
        self.sync()

    # the file: one line per summary put or game gone, the newest line last

    def _load(self) -> None:
        """The summaries kept by an earlier run, when they came from these rules.

        Anything unreadable is left out: it is recounted from its log.
        """
        if self.path is None:
            return
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, ValueError):
            return
        if not lines or _parsed(lines[0]) != {"rules": FINGERPRINT}:
            return
        self.lines = len(lines)
        for line in lines[1:]:
            entry = _parsed(line)
            try:
                if "gone" in entry:
                    old = self.games.get(entry["gone"])
                    if old is not None:
                        self._put(old, None)
                else:
                    summary = GameSummary.from_dict(entry["game"])
                    self._put(self.games.get(summary.info.id), summary)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
        self.changes.clear()

    def _save(self) -> None:
        """Add what changed to the file, or write it anew once it holds too much.

        A cache: a lost or torn line is recounted, so nothing waits for the
        disk, and what one look changed is added at the end rather than the
        whole file rewritten.
        """
        changes, self.changes = self.changes, {}
        if self.path is None or not changes:
            return
        lines = [
            json.dumps(
                {"gone": game_id} if summary is None else {"game": summary.to_dict()},
                ensure_ascii=False,
                separators=(",", ":"),
            )
            for game_id, summary in changes.items()
        ]
        with contextlib.suppress(OSError):
            kept = self.lines and self.path.exists()
            if kept and self.lines + len(lines) <= 2 * len(self.games) + 64:
                with self.path.open("a", encoding="utf-8") as file:
                    file.write("".join(line + "\n" for line in lines))
                self.lines += len(lines)
                return
            every = [json.dumps({"rules": FINGERPRINT})] + [
                json.dumps(
                    {"game": summary.to_dict()},
                    ensure_ascii=False,
                    separators=(",", ":"),
                )
                for summary in self.games.values()
            ]
            write_atomically(self.path, "\n".join(every) + "\n", fsync=False)
            self.lines = len(every)


@contextlib.contextmanager
def _in_bulk() -> Iterator[None]:
    """Thousands of small objects made at once, none of them garbage.

    Python's collector would look through them all again and again while
    they are made (most of the time a cold start took); it runs after.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _parsed(line: str) -> dict[str, Any]:
    try:
        found = json.loads(line)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


_KEPT: weakref.WeakKeyDictionary[Store, Summaries] = weakref.WeakKeyDictionary()


def summaries_of(store: Store) -> Summaries:
    """The summaries of ``store``'s games, one set per open Store, up to date."""
    found = _KEPT.get(store)
    if found is None:
        found = _KEPT[store] = Summaries(store)
    found.sync()
    return found


def view_of(store: Store, kind: type[V]) -> V:
    """A view kept over ``store``'s summaries (see :class:`View`), up to date."""
    return summaries_of(store).view(kind)


class Newest:
    """How a name is written in its newest game, as games come and go.

    Names match regardless of case; the spelling shown is the one of the
    most recent game (by start, then id) that still counts.
    """

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], str] = {}
        self._top: tuple[str, str] | None = None

    def add(self, info: GameInfo, spelling: str) -> None:
        key = (info.started, info.id)
        self.seen[key] = spelling
        if self._top is not None and key > self._top:
            self._top = key

    def remove(self, info: GameInfo) -> None:
        key = (info.started, info.id)
        self.seen.pop(key, None)
        if key == self._top:
            self._top = None  # found again when next asked

    @property
    def latest(self) -> tuple[str, str]:
        if self._top is None:
            self._top = max(self.seen)
        return self._top

    @property
    def spelling(self) -> str:
        return self.seen[self.latest]

    def __bool__(self) -> bool:
        return bool(self.seen)


__all__ = [
    "FINGERPRINT",
    "GameSummary",
    "Newest",
    "SUMMARIES_FILE",
    "Summaries",
    "View",
    "summaries_of",
    "summarise",
    "view_of",
]
