"""The five games, by the slug the log names them with.

Each game's module holds its engine (``ENGINE``) and describes itself in one
:class:`~companion.games.base.GameSpec` (``SPEC``); the rest of the program
reads a game's names, suits, options and figures from there.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

from companion.errors import FormatError
from companion.games.base import Engine, GameSpec
from companion.log import HEADER

_MODULES = {
    "cursed-tricks": "companion.games.cursed_tricks",
    "trick-runaway": "companion.games.trick_runaway",
    "cursed": "companion.games.cursed",
    "wolf-x-trick": "companion.games.wolf_x_trick",
    "black-hearts": "companion.games.black_hearts",
}

SLUGS: tuple[str, ...] = tuple(_MODULES)


def _module(slug: object) -> ModuleType:
    if slug not in _MODULES:
        raise FormatError(
            f'unknown game "{slug}" (known games: {", ".join(SLUGS)})', HEADER
        )
    return importlib.import_module(_MODULES[str(slug)])


def get_engine(slug: object) -> Engine:
    engine: Engine = _module(slug).ENGINE
    return engine


def describe(slug: object) -> GameSpec:
    """What the game is: names, suits, options, figures (FormatError if unknown)."""
    spec: GameSpec = _module(slug).SPEC
    return spec


def all_engines() -> list[Engine]:
    return [get_engine(slug) for slug in SLUGS]


def all_games() -> list[GameSpec]:
    return [describe(slug) for slug in SLUGS]


# The rules search reads the games' names from data, so that a search from the
# command line starts without importing every engine; a test keeps the file
# equal to what the games say of themselves (write_names() renews it).
NAMES_FILE = Path(__file__).resolve().parents[2] / "data" / "rules" / "games.json"
NAME_LANGUAGES = ("en", "ja")


def names_table() -> dict[str, dict[str, list[str]]]:
    """Every game's names by language and slug, each language's title first."""
    return {
        lang: {spec.slug: list(spec.names_in(lang)) for spec in all_games()}
        for lang in NAME_LANGUAGES
    }


def write_names(path: Path = NAMES_FILE) -> None:
    text = json.dumps(names_table(), ensure_ascii=False, indent=2)
    path.write_text(text + "\n", encoding="utf-8")
