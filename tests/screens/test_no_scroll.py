"""On the smallest phone (360×740) nothing on the table needs a scroll: a past
trick's Edit and the full scoreboard open as a sheet in the cards' place, and
the new-game form keeps Start in view."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.games import describe
from tests.screens.conftest import Table, plan_trick, play_trick
from tests.screens.test_trick_grid import open_game, stored_game

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 740}
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def in_view(table: Table, identifier: str) -> bool:
    """Wholly on screen as the page stands, with no scroll."""
    node = table.node(identifier)
    if node.count() == 0:
        return False
    box = node.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= SMALL["height"]
        and box["x"] + box["width"] <= SMALL["width"]
    )


def tap_in_view(table: Table, identifier: str) -> None:
    table.wait_until(lambda: in_view(table, identifier), timeout=15)
    table.click(table.node(identifier))


@pytest.fixture()
def small(browser: Any, table: Table) -> Iterator[Table]:
    context = browser.new_context(viewport=SMALL)
    try:
        yield Table(context.new_page(), table.server).open()
    finally:
        context.close()


def test_a_past_trick_and_the_board_open_in_view(table: Table, browser: Any) -> None:
    game_id = stored_game(table, "cursed-tricks", PLAYERS)
    small = open_game(browser, table, SMALL)
    try:
        past_trick_and_board(small, game_id)
    finally:
        small.page.context.close()


def past_trick_and_board(small: Table, game_id: str) -> None:
    for _ in range(2):
        play_trick(small, plan_trick(small.server, game_id))
    tap_in_view(small, "tricks-open")
    tap_in_view(small, "edit-2")
    small.wait("edit-banner")
    assert in_view(small, "card-" + plan_trick(small.server, game_id)[0])
    tap_in_view(small, "cancel-edit")
    small.gone("edit-banner")
    tap_in_view(small, "board-open")
    small.wait("sheet-board")
    # Who leads, then each player's panel, under the sheet's own title.
    small.wait_until(lambda: in_view(small, "leader"))
    field = describe("cursed-tricks").figures[0]
    for name in PLAYERS[:2]:
        small.wait_until(lambda name=name: in_view(small, f"{field}-{name}"))
    tap_in_view(small, "sheet-close")
    small.gone("sheet-board")
    small.wait_until(lambda: in_view(small, "trick-so-far"))


def test_the_new_game_form_keeps_start_in_view(small: Table) -> None:
    tap_in_view(small, "new-game")
    tap_in_view(small, "game-black-hearts")
    for name in [*PLAYERS, "Eve", "Flo"]:
        small.add_player(name)
        assert in_view(small, "start-game"), name
