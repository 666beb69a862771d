"""The store: every game's log and the table's settings, kept in TinyDB files.

(Interface fixed; the implementation is being written.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.base import Event
from companion.log import GameLog
from companion.replay import Replay


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


@dataclass
class StoredGame:
    info: GameInfo
    log: GameLog
    redo: list[Event]  # undone events, the next to redo last


class Store:
    def __init__(self, folder: Path | str) -> None:
        raise NotImplementedError

    # games in progress
    def create_game(self, log: GameLog) -> str: ...
    def append(self, game_id: str, event: Event) -> Replay: ...
    def undo(self, game_id: str) -> Replay: ...
    def redo(self, game_id: str) -> Replay: ...
    def replace_event(self, game_id: str, number: int, event: Event) -> Replay: ...
    def delete_event(self, game_id: str, number: int) -> Replay: ...
    def load(self, game_id: str) -> StoredGame: ...
    def replay(self, game_id: str) -> Replay: ...

    # the list and the archive
    def list_games(
        self, game: str | None = None, player: str | None = None
    ) -> list[GameInfo]: ...
    def unfinished(self) -> list[GameInfo]: ...
    def finish(self, game_id: str) -> None: ...
    def delete_game(self, game_id: str) -> None: ...
    def restore_game(self, game_id: str) -> None: ...
    def import_log(self, log: GameLog) -> str: ...

    # what the table remembers
    def known_players(self) -> list[str]: ...
    def table_options(self, game: str) -> dict[str, Any]: ...
    def remember_options(self, game: str, options: dict[str, Any]) -> None: ...
    def get_setting(self, key: str, default: Any = None) -> Any: ...
    def set_setting(self, key: str, value: Any) -> None: ...
    def warnings(self) -> list[str]: ...
