"""The five games, by the slug the log names them with."""

from __future__ import annotations

import importlib

from companion.errors import FormatError
from companion.games.base import Engine
from companion.log import HEADER

_MODULES = {
    "cursed-tricks": "companion.games.cursed_tricks",
    "trick-runaway": "companion.games.trick_runaway",
    "cursed": "companion.games.cursed",
    "wolf-x-trick": "companion.games.wolf_x_trick",
    "black-hearts": "companion.games.black_hearts",
}

SLUGS: tuple[str, ...] = tuple(_MODULES)


def get_engine(slug: object) -> Engine:
    if slug not in _MODULES:
        raise FormatError(
            f'unknown game "{slug}" (known games: {", ".join(SLUGS)})', HEADER
        )
    module = importlib.import_module(_MODULES[str(slug)])
    return module.ENGINE


def all_engines() -> list[Engine]:
    return [get_engine(slug) for slug in SLUGS]
