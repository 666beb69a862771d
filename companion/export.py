"""Games going out of the app (a CSV a player could have written on paper)
and coming in (a log file, checked as ``companion import`` checks it).

Each game says what its rows are (``Engine.sheet_columns`` and
``Engine.sheet_rows``: rounds with points and running totals, piles with
their owner, spells with every fortune after them); this module replays the
log once, collects the rows event by event, and writes them with the
headings in the reader's language.
"""

from __future__ import annotations

import copy
import csv
import io
from typing import TextIO

from companion.errors import FormatError
from companion.games.base import Cell, Row, Say, Word
from companion.i18n import DEFAULT_LANGUAGE, text, word
from companion.log import HEADER, GameLog, check_total, loads
from companion.replay import Replay, replay, start
from companion.store import Store


def sheet_rows(log: GameLog) -> tuple[list[Say], list[Row]]:
    """The game's columns and every row its events add, oldest first.

    The log is one that replays (a stored game, or one just replayed): its
    events are applied again from the header to see each one's effect.
    """
    fresh = start(log)
    engine, state = fresh.engine, fresh.state
    rows: list[Row] = []
    for number, event in enumerate(log.events, start=1):
        before = copy.deepcopy(state)
        engine.apply(state, event)
        rows += engine.sheet_rows(before, state, event, number)
    return engine.sheet_columns(list(log.players)), rows


def cell_text(cell: Cell, lang: str) -> str:
    """One cell as written: numbers and names as they are, words translated."""
    if cell is None:
        return ""
    if isinstance(cell, Say):
        return say(cell, lang)
    if isinstance(cell, Word):
        return word(cell.value, lang)
    return str(cell)


def say(heading: Say, lang: str) -> str:
    return text(heading.key, lang, name=heading.name, word=word(heading.word, lang))


def write_csv(log: GameLog, out: TextIO, lang: str = DEFAULT_LANGUAGE) -> None:
    columns, rows = sheet_rows(log)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([say(column, lang) for column in columns])
    for row in rows:
        writer.writerow([cell_text(cell, lang) for cell in row])


def game_csv(log: GameLog, lang: str = DEFAULT_LANGUAGE) -> str:
    out = io.StringIO()
    write_csv(log, out, lang)
    return out.getvalue()


# coming in


def checked_text(text: str) -> Replay:
    """A log as typed or pasted, replayed; a LogError names the event at fault."""
    return replay(loads(text))


def checked_file(data: bytes) -> Replay:
    """A log file's bytes, read as ``companion import`` reads a file."""
    check_total(len(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("the file is not a text file (UTF-8)", HEADER) from None
    return checked_text(text)


def import_text(store: Store, text: str) -> str:
    """Store a pasted log after the checks of ``companion import``; its new id.

    A log that does not replay raises a LogError naming the event at fault,
    before the store is touched: a refused log changes nothing.
    """
    return store.import_log(checked_text(text).log)


def import_file(store: Store, data: bytes) -> str:
    """Store a picked log file, as :func:`import_text` stores a pasted one."""
    return store.import_log(checked_file(data).log)


__all__ = [
    "cell_text",
    "checked_file",
    "checked_text",
    "game_csv",
    "import_file",
    "import_text",
    "sheet_rows",
    "write_csv",
]
