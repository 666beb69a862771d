"""The game log: the one format a game is kept in (``companion-log/1``).

Loading checks the log's shape only; whether the events make sense is the
rules engine's job during replay.

Limits. Besides its shape, a log must fit the sizes below, generous for real
games (a ten-player marathon is a few thousand events of a few dozen bytes)
and small enough for a phone to keep, replay and export every game it
accepted. They are checked while reading, before anything is stored:

- the log's file: at most ``MAX_LOG_BYTES`` (5 MB);
- its events: at most ``MAX_EVENTS`` (20,000);
- one event: at most ``MAX_EVENT_BYTES`` (16 KB of JSON);
- a player's name: at most ``MAX_NAME_CHARS`` (200) characters;
- any other text (altar text, an option, a field's name): ``MAX_TEXT_CHARS``
  (2,000) characters;
- values nested at most ``MAX_DEPTH`` (20) levels deep, whole numbers of at
  most ``MAX_INT_DIGITS`` (15) digits, no NaN or Infinity, and text that is
  valid Unicode (no lone surrogate).

Fields the format does not name, at the top level or in an event, are kept
and exported again unchanged.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from companion.errors import FormatError
from companion.names import Problem, Refusal, first_refusal, normal_form

FORMAT = "companion-log/1"
HEADER = 0  # the event number given to mistakes in the header

MAX_LOG_BYTES = 5_000_000
MAX_EVENTS = 20_000
MAX_EVENT_BYTES = 16_384
MAX_NAME_CHARS = 200
MAX_TEXT_CHARS = 2_000
MAX_DEPTH = 20
MAX_INT_DIGITS = 15
_INT_BOUND = 10**MAX_INT_DIGITS

KNOWN_FIELDS = ("format", "game", "players", "options", "events")


@dataclass(frozen=True)
class _Refused:
    """A number the parser met that JSON logs may not hold; reported in place."""

    reason: str


def _parse_int(text: str) -> int | _Refused:
    # Checked on the digits, before int() would spend time on (or refuse)
    # thousands of them.
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return _Refused(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"the number {text[:20]} is too large")
    return value


def _parse_constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number a log may hold")


def _shown(value: object) -> str:
    """A short, one-line view of a value for a message."""
    if value is None or isinstance(value, str | int | float):
        return json.dumps(value, ensure_ascii=True)[:40]
    return f"a {type(value).__name__}"


def _check_text(text: str, limit: int, number: int | None) -> None:
    if len(text) > limit:
        raise FormatError(f"a text is longer than {limit:,} characters", number)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise FormatError(
                "a text holds a broken character (a lone surrogate)", number
            ) from None


def check_value(value: object, number: int | None = None) -> int:
    """Refuse what a log may not hold; returns about how many bytes it takes as JSON.

    ``number`` is the event number given to a refusal (0 for the header,
    None when the value is not part of a log). The walk uses no recursion, so
    even a value nested thousands deep is refused rather than crashing.
    """
    size = 0
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item, MAX_TEXT_CHARS, number)
            size += len(item) + 3
        elif item is None or isinstance(item, bool):
            size += 6
        elif isinstance(item, int):
            if not -_INT_BOUND < item < _INT_BOUND:
                raise FormatError(
                    f"a number has more than {MAX_INT_DIGITS} digits", number
                )
            size += 8
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise FormatError(f"{item} is not a number a log may hold", number)
            size += 12
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise FormatError(
                    f"values are nested more than {MAX_DEPTH} levels deep", number
                )
            size += 2
            if isinstance(item, list):
                size += len(item)
                pending.extend((inner, depth + 1) for inner in item)
                continue
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise FormatError("a field's name must be text", number)
                _check_text(key, MAX_TEXT_CHARS, number)
                size += len(key) + 4
                pending.append((inner, depth + 1))
        elif isinstance(item, _Refused):
            raise FormatError(item.reason, number)
        else:
            raise FormatError(
                f"a value of type {type(item).__name__} cannot be kept in a log",
                number,
            )
    return size


def check_event(event: object, number: int) -> int:
    """Refuse event ``number`` unless it is a log's event within the limits.

    Returns about how many bytes it takes as JSON.
    """
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise FormatError('an event is an object with a "type"', number)
    size = check_value(event, number)
    if size > MAX_EVENT_BYTES:
        raise FormatError(
            f"the event is larger than {MAX_EVENT_BYTES:,} bytes, the most one "
            "event may take",
            number,
        )
    return size


def check_count(count: int) -> None:
    if count > MAX_EVENTS:
        raise FormatError(
            f"the log has {count:,} events; a log may hold at most {MAX_EVENTS:,}",
            HEADER,
        )


def _kept_refusal(players: list[str]) -> Refusal | None:
    """What a log the store already holds may not have, checked as it was then."""
    seen: set[str] = set()
    for name in players:
        if not name.strip():
            return Refusal(Problem.BLANK, name)
        if name in seen:
            return Refusal(Problem.DUPLICATE, name, same_as=name)
        seen.add(name)
    return None


def _with_names_in_normal_form(value: Any, renamed: dict[str, str]) -> Any:
    """``value`` with every text naming a player (as a value or a key) in NFC.

    Events name players by their names, so a name kept in its normal form is
    changed wherever the log writes it, and the log still replays.
    """
    if isinstance(value, str):
        return renamed.get(value, value)
    if isinstance(value, list):
        return [_with_names_in_normal_form(item, renamed) for item in value]
    if isinstance(value, dict):
        return {
            renamed.get(key, key): _with_names_in_normal_form(item, renamed)
            for key, item in value.items()
        }
    return value


def check_total(size: int) -> None:
    if size > MAX_LOG_BYTES:
        raise FormatError(
            f"the log is larger than {MAX_LOG_BYTES:,} bytes, the most a log may take",
            HEADER,
        )


@dataclass
class GameLog:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    format: str = FORMAT
    # Top-level fields the format does not name, kept as they came.
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "events": [
                dict(event) if isinstance(event, dict) else event
                for event in self.events
            ],
            **{
                key: value
                for key, value in self.extra.items()
                if key not in KNOWN_FIELDS
            },
        }

    @classmethod
    def from_dict(cls, data: object, *, check: bool = True) -> GameLog:
        """The log in ``data``, refused with a FormatError when it is not one.

        ``check=False`` skips the limits, for logs the store already accepted.
        """
        if not isinstance(data, dict):
            raise FormatError("a game log is a JSON object", HEADER)
        fmt = data.get("format")
        if fmt != FORMAT:
            raise FormatError(
                f"unknown log format {_shown(fmt)} (expected {FORMAT})", HEADER
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise FormatError('the log names no game ("game")', HEADER)
        players = data.get("players")
        if not isinstance(players, list) or not players:
            raise FormatError('the log lists no players ("players")', HEADER)
        for name in players:
            if not isinstance(name, str):
                raise FormatError(
                    f"player names must be text, got {_shown(name)}", HEADER
                )
            if check:
                _check_text(name, MAX_NAME_CHARS, HEADER)
        refusal = first_refusal(players) if check else _kept_refusal(players)
        if refusal is not None:
            raise FormatError(refusal.text, HEADER)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise FormatError('"options" must be a JSON object', HEADER)
        events = data.get("events", [])
        if not isinstance(events, list):
            raise FormatError('"events" must be a list', HEADER)
        if check:
            check_count(len(events))
        extra = {key: value for key, value in data.items() if key not in KNOWN_FIELDS}
        total = 0
        if check:
            for part in (game, players, options, extra):
                total += check_value(part, HEADER)
        for number, event in enumerate(events, start=1):
            if check:
                total += check_event(event, number)
            elif not isinstance(event, dict) or not isinstance(
                event.get("type"), str
            ):
                raise FormatError('an event is an object with a "type"', number)
        check_total(total)
        renamed = {name: normal_form(name) for name in players} if check else {}
        if any(old != new for old, new in renamed.items()):
            # Checked above, so nested at most MAX_DEPTH deep.
            players = _with_names_in_normal_form(players, renamed)
            options = _with_names_in_normal_form(options, renamed)
            events = _with_names_in_normal_form(events, renamed)
        return cls(
            game=game,
            players=list(players),
            options=dict(options),
            events=[dict(event) for event in events],
            extra=extra,
        )

    def with_events(self, events: list[dict[str, Any]]) -> GameLog:
        return GameLog(
            self.game,
            list(self.players),
            dict(self.options),
            events,
            extra=dict(self.extra),
        )


def loads(text: str) -> GameLog:
    if len(text) > MAX_LOG_BYTES or not text.isascii():
        check_total(len(text.encode("utf-8", "surrogatepass")))
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        raise FormatError(
            f"the file is not JSON (line {error.lineno}, column {error.colno}: "
            f"{error.msg})",
            HEADER,
        ) from None
    except RecursionError:
        raise FormatError(
            f"values are nested more than {MAX_DEPTH} levels deep", HEADER
        ) from None
    return GameLog.from_dict(data)


def dumps(log: GameLog, indent: int | None = 2) -> str:
    return json.dumps(log.to_dict(), indent=indent, ensure_ascii=False)
