"""Screenshots of every game's table and of the new-game form, on a phone and a
tablet, in the light and the dark theme (into ``screenshots/``, to look at).

Each shot's page background is the theme's surface as the readability test
computes it: the colours checked there are the ones Chromium draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from companion.games import all_games
from companion.i18n import text
from screens import ui
from tests.screens.conftest import SCREENSHOTS, TABLET, Server, Table, plan_trick

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "tablet": TABLET}
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(params=list(SIZES))
def viewer(request: Any, browser: Any, server: Server) -> Iterator[Table]:
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
        table.shot(f"{name}-{theme}")
        kind = "phone" if (table.page.viewport_size or {})["width"] < 700 else "tablet"
        with Image.open(SCREENSHOTS / f"{name}-{theme}-{kind}.png") as shot:
            corner = shot.convert("RGB").getpixel((shot.width - 2, shot.height - 2))
        surface = hex_rgb(ui.palette(dark).surface)
        # within the rounding of the browser's colour pipeline
        assert all(abs(a - b) <= 2 for a, b in zip(corner, surface, strict=True)), (
            name,
            theme,
            corner,
        )
    table.tap("theme")
    table.wait_text("theme", text("theme.dark"))


def hex_rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour.lstrip("#")[at : at + 2], 16) for at in (0, 2, 4))


def test_every_table_in_both_themes(viewer: Table) -> None:
    viewer.tap("new-game")
    viewer.tap("game-black-hearts")
    for name in NAMES[:4]:
        viewer.add_player(name)
    both_themes(viewer, "new-game-form")
    viewer.tap("home")
    for spec in all_games():
        players = NAMES[: spec.player_counts.stop - 1]
        game_id = viewer.new_game(spec.slug, players, players[0])
        if spec.has_tricks:
            # a trick under way, as a table sees it most of the evening
            cards = plan_trick(viewer.server, game_id)
            if cards:
                viewer.tap_card(cards[0])
        else:
            viewer.tap(f"caster-{players[0]}")
            viewer.tap(f"target-{players[1]}")
            viewer.wait("fortune-luck")
        both_themes(viewer, f"table-{spec.slug}")
        viewer.tap("home")
