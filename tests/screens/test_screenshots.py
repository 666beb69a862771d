"""Screenshots of every game's table and of the new-game form, on a phone and a
tablet, in the light and the dark theme (into ``screenshots/``, to look at).

Each shot's page background is the theme's surface as the readability test
computes it: the colours checked there are the ones Chromium draws.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from companion.games import all_games
from companion.games.base import LEADER
from companion.i18n import text
from screens import ui
from tests.screens.conftest import SCREENSHOTS, TABLET, Server, Table, plan_trick
from tests.screens.test_cursed import cast

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "tablet": TABLET}
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(params=list(SIZES))
def table(request: Any, browser: Any, server: Server) -> Iterator[Table]:
    context = browser.new_context(viewport=SIZES[request.param])
    table = Table(context.new_page(), server).open()
    try:
        yield table
    finally:
        # The theme is the table's setting: leave it light for the other tests.
        if table.text("theme") == text("theme.light"):
            table.tap("theme")
        context.close()


def both_themes(table: Table, name: str) -> None:
    """Shoot the screen in the light theme, then in the dark one, and back."""
    for dark in (False, True):
        wanted = text("theme.light" if dark else "theme.dark")
        if table.text("theme") != wanted:
            table.tap("theme")
            table.wait_text("theme", wanted)
        theme = "dark" if dark else "light"
        surface = hex_rgb(ui.palette(dark).surface)
        # The page is drawn in the theme's surface once the new theme is
        # painted (within the rounding of the browser's colour pipeline).
        deadline = time.monotonic() + 15
        while (corner := page_corner(table, f"{name}-{theme}")) and not all(
            abs(a - b) <= 2 for a, b in zip(corner, surface, strict=True)
        ):
            assert time.monotonic() < deadline, (name, theme, corner)
    table.tap("theme")
    table.wait_text("theme", text("theme.dark"))


def page_corner(table: Table, name: str) -> tuple[int, ...]:
    """Take the shot ``name``; the colour of its bottom right corner."""
    table.shot(name)
    kind = "phone" if (table.page.viewport_size or {})["width"] < 700 else "tablet"
    with Image.open(SCREENSHOTS / f"{name}-{kind}.png") as shot:
        return tuple(shot.convert("RGB").getpixel((shot.width - 2, shot.height - 2)))


def hex_rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour.lstrip("#")[at : at + 2], 16) for at in (0, 2, 4))


def test_every_table_in_both_themes(table: Table) -> None:
    table.tap("new-game")
    table.tap("game-black-hearts")
    for name in NAMES[:4]:
        table.add_player(name)
    both_themes(table, "new-game-form")
    table.tap("home")
    for spec in all_games():
        players = NAMES[: spec.player_counts.stop - 1]
        starter = players[0] if LEADER in spec.round_asks else None
        game_id = table.new_game(spec.slug, players, starter)
        if spec.has_tricks:
            # a trick under way, as a table sees it most of the evening
            cards = plan_trick(table.server, game_id)
            if cards:
                table.tap_card(cards[0])
        else:
            # every state a fortune can be in: blessed, ruined, cursed, neutral
            cast(table, players[0], players[0], "wealth", "bless")
            cast(table, players[0], players[1], "wealth", "curse")
            cast(table, players[1], players[2], "health", "curse")
            table.tap(f"caster-{players[0]}")
            table.tap(f"target-{players[1]}")
            table.wait("fortune-luck")
        both_themes(table, f"table-{spec.slug}")
        table.tap("home")
