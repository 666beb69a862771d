"""How each game's per-player summary reads on screen, field by field.

Every figure keeps the identifier ``<field>-<player>`` so the browser tests can
compare it with ``companion replay`` of the stored log.
"""

from __future__ import annotations

from typing import Any

from companion.games import all_games, describe
from companion.games.base import GameSpec

EMPTY = "–"


def shown(value: Any) -> str:
    """One figure as text; the tests format the summary the same way."""
    if isinstance(value, bool):
        return "✓" if value else EMPTY
    if isinstance(value, list):
        return " ".join(str(item) for item in value) or EMPTY
    if value is None:
        return EMPTY
    return str(value)


# slug -> the summary fields shown for a player, in order (each game says which)
FIELDS: dict[str, tuple[str, ...]] = {game.slug: game.figures for game in all_games()}


def player_figures(
    slug: str, view: dict[str, Any], options: dict[str, Any]
) -> list[tuple[str, str]]:
    """(field, text) pairs for one player's panel."""
    game = describe(slug)
    values = game.player_figures(view, options)
    return [(name, shown(labelled(game, values.get(name)))) for name in game.figures]


def labelled(game: GameSpec, value: Any) -> Any:
    """Cards in a list (taken, curses) as the players read them: Q♣, not C12."""
    if not isinstance(value, list):
        return value
    return [game.code_label(item) if isinstance(item, str) else item for item in value]
