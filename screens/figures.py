"""How each game's per-player summary reads on screen, field by field.

Every figure keeps the identifier ``<field>-<player>`` so the browser tests can
compare it with ``companion replay`` of the stored log.
"""

from __future__ import annotations

from typing import Any

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


# slug -> the summary fields shown for a player, in order
FIELDS: dict[str, tuple[str, ...]] = {
    "cursed-tricks": ("curses", "pile", "tricks"),
    "trick-runaway": (
        "life",
        "side",
        "escape",
        "damage",
        "curses",
        "out",
        "eliminated",
    ),
    "wolf-x-trick": ("piles", "eliminated"),
    "black-hearts": ("taken", "round_points"),
    "cursed": (),
}


def player_figures(
    slug: str, view: dict[str, Any], options: dict[str, Any]
) -> list[tuple[str, str]]:
    """(field, text) pairs for one player's panel."""
    values = dict(view)
    if slug == "black-hearts":
        points = options.get("curse_points") or {}
        values["round_points"] = sum(
            int(points.get(str(card), 0)) for card in view.get("taken", [])
        )
    return [(name, shown(values.get(name))) for name in FIELDS.get(slug, ())]
