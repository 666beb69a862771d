"""The game log: the one format a game is kept in (``companion-log/1``).

Loading checks the log's shape only; whether the events make sense is the
rules engine's job during replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.errors import FormatError

FORMAT = "companion-log/1"
HEADER = 0  # the event number given to mistakes in the header


@dataclass
class GameLog:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    format: str = FORMAT

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "events": [dict(event) for event in self.events],
        }

    @classmethod
    def from_dict(cls, data: object) -> GameLog:
        if not isinstance(data, dict):
            raise FormatError("a game log is a JSON object", HEADER)
        fmt = data.get("format")
        if fmt != FORMAT:
            raise FormatError(
                f"unknown log format {json.dumps(fmt)} (expected {FORMAT})", HEADER
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise FormatError('the log names no game ("game")', HEADER)
        players = data.get("players")
        if not isinstance(players, list) or not players:
            raise FormatError('the log lists no players ("players")', HEADER)
        for name in players:
            if not isinstance(name, str) or not name.strip():
                raise FormatError(
                    f"player names must be non-empty text, got {json.dumps(name)}",
                    HEADER,
                )
        seen: set[str] = set()
        for name in players:
            if name in seen:
                raise FormatError(f'the name "{name}" is used twice', HEADER)
            seen.add(name)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise FormatError('"options" must be a JSON object', HEADER)
        events = data.get("events", [])
        if not isinstance(events, list):
            raise FormatError('"events" must be a list', HEADER)
        for number, event in enumerate(events, start=1):
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise FormatError('an event is an object with a "type"', number)
        return cls(
            game=game,
            players=list(players),
            options=dict(options),
            events=[dict(event) for event in events],
        )

    def with_events(self, events: list[dict[str, Any]]) -> GameLog:
        return GameLog(self.game, list(self.players), dict(self.options), events)


def loads(text: str) -> GameLog:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"the file is not JSON (line {error.lineno}, column {error.colno}: "
            f"{error.msg})",
            HEADER,
        ) from None
    return GameLog.from_dict(data)


def dumps(log: GameLog, indent: int | None = 2) -> str:
    return json.dumps(log.to_dict(), indent=indent, ensure_ascii=False)
