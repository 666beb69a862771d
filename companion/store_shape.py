"""What a saved games file holds, checked each time the file is read.

The store writes its records in one shape; a file changed by hand (or by
another program) that still reads as JSON may hold anything. Such a file is
refused with a line naming what is wrong, before any of it is used, so that
no command fails half-way or rewrites it. A game's log is checked when the
game is opened (``Store.load``): checking thousands of archived logs on every
read of the archive would cost more than the rest of the read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import FormatError
from companion.games import SLUGS
from companion.log import MAX_INT_DIGITS, check_value

_INT_BOUND = 10**MAX_INT_DIGITS

Test = Callable[[Any], bool]


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value < _INT_BOUND


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _slug(value: Any) -> bool:
    return isinstance(value, str) and value in SLUGS


def _log(value: Any) -> bool:
    return isinstance(value, dict | str)


def _events(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


# Each field of a game's record, what it must be, and how a player calls it.
GAME_FIELDS: dict[str, tuple[Test, str]] = {
    "id": (_name, "its name in the list"),
    "game": (_slug, "which game it is"),
    "players": (_names, "its players"),
    "started": (_text, "when it started"),
    "updated": (_text, "when it last changed"),
    "finished": (_flag, "whether it is over"),
    "winners": (_names, "its winners"),
    "deleted": (_flag, "whether it is in the trash"),
    "archived": (_flag, "whether it is put away"),
    "events": (_count, "how much of it was played"),
    "log": (_log, "what was played"),
    "redo": (_events, "what can be redone"),
}
# Fields added after the first files were written: absent is fine.
OPTIONAL_GAME_FIELDS: dict[str, tuple[Test, str]] = {
    "rev": (_count, "how often it changed"),
    "order": (_count, "its place in the list"),
}


def _check_game(doc: dict[str, Any]) -> None:
    for name, (test, words) in GAME_FIELDS.items():
        if name not in doc:
            raise ValueError(f"a saved game has lost {words}")
        if not test(doc[name]):
            raise ValueError(f"a saved game has {words} altered")
    for name, (test, words) in OPTIONAL_GAME_FIELDS.items():
        if name in doc and not test(doc[name]):
            raise ValueError(f"a saved game has {words} altered")


def _check_schema(doc: dict[str, Any]) -> None:
    if not _count(doc.get("schema")):
        raise ValueError("the version of its data is altered")


def _check_setting(doc: dict[str, Any]) -> None:
    if not isinstance(doc.get("key"), str) or "value" not in doc:
        raise ValueError("a setting is altered")
    _check_value(doc["value"], "a setting")


def _check_options(doc: dict[str, Any]) -> None:
    players = doc.get("players")
    if (
        not isinstance(doc.get("game"), str)
        or not (players is None or _count(players))
        or not isinstance(doc.get("options"), dict)
    ):
        raise ValueError("the options kept for a game are altered")
    _check_value(doc["options"], "the options kept for a game")


def _check_value(value: Any, what: str) -> None:
    try:
        check_value(value)
    except FormatError as error:
        raise ValueError(f"{what} is altered ({error})") from None


TABLE_CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "games": _check_game,
    "meta": _check_schema,
    "settings": _check_setting,
    "table_options": _check_options,
}


def check_tables(data: dict[str, dict[str, Any]]) -> None:
    """Raise ValueError, in a player's words, when a record is not as written."""
    for name, table in data.items():
        check = TABLE_CHECKS.get(name)
        for key, doc in table.items():
            # TinyDB numbers its records; it reads each key as a number.
            if not (key.isascii() and key.isdigit() and len(key) < MAX_INT_DIGITS):
                raise ValueError("a record has lost its number")
            if not isinstance(doc, dict):
                raise ValueError("a record is not a set of named values")
            if check is not None:
                check(doc)
