"""Layouts, themes and languages in Chromium, with a screenshot of each screen."""

from __future__ import annotations

import pytest

from companion.i18n import text
from tests.screens.conftest import Table, check_figures, plan_trick, play_trick

pytestmark = pytest.mark.browser


def test_tablet_puts_entry_beside_scoreboard(tablet: Table) -> None:
    tablet.shot("home")
    game_id = tablet.new_game("cursed-tricks", ["Ann", "Ben", "Cy"], "Ann")
    play_trick(tablet, plan_trick(tablet.server, game_id))
    check_figures(tablet, game_id)
    card = tablet.page.locator('[flt-semantics-identifier^="card-"]').first
    board = tablet.wait("state-Ann").bounding_box()
    assert board["x"] > card.bounding_box()["x"] + 300
    tablet.shot("table-cursed-tricks")
    tablet.tap("home")
    tablet.tap("new-game")
    tablet.wait("start-game")
    tablet.shot("new-game")


def test_screens_at_phone_size(table: Table) -> None:
    table.shot("home")
    table.tap("new-game")
    table.tap("game-trick-runaway")
    table.wait("opt-life")
    table.shot("new-game")
    table.tap("home")
    table.tap("rules")
    table.shot("rules")


def test_wolf_x_trick_piles_counted_at_the_end(table: Table) -> None:
    table.tap("new-game")
    table.tap("game-wolf-x-trick")
    for name in ("Ann", "Ben", "Cy"):
        table.add_player(name)
    table.tap("moon-3")
    table.tap("mode-piles")
    known = {info.id for info in table.server.games()}
    table.tap("start-game")
    table.wait("add-pile")
    (game_id,) = [i.id for i in table.server.games() if i.id not in known]
    for player, full, super_ in (("Ann", 2, 0), ("Ben", 0, 1), ("Cy", 0, 0)):
        table.tap(f"pile-player-{player}")
        for _ in range(full):
            table.tap("full-plus")
        table.wait_text("full-count", str(full))
        for _ in range(super_):
            table.tap("super-plus")
        table.wait_text("super-count", str(super_))
        before = table.read("reasons")
        table.tap("add-pile")
        table.wait_until(lambda before=before: table.read("reasons") != before)
    table.shot("piles-wolf-x-trick")
    table.tap("end-piles")
    table.wait("winners")
    summary = check_figures(table, game_id)
    assert summary["finished"]
    log = table.server.store().load(game_id).log
    assert log.options == {"full_moon_ranks": [3]}
    assert [e.get("full") for e in log.events[:3]] == [2, 0, 0]
    # The Full Moon numbers the table marked are offered again next time.
    assert table.server.store().table_options("wolf-x-trick") == {
        "full_moon_ranks": [3]
    }
    table.tap("home")
    table.tap("new-game")
    table.tap("game-wolf-x-trick")
    table.wait("moon-3")
    table.page.get_by_text(text("new.remembered")).wait_for(timeout=5_000)


def test_theme_and_language_are_remembered(table: Table, browser) -> None:
    try:
        table.tap("theme")
        table.tap("lang")
        table.wait_until(lambda: text("home.new", "ja") in table.read("new-game"))
        table.shot("home-dark-ja")
        context = browser.new_context(viewport={"width": 390, "height": 844})
        again = Table(context.new_page(), table.server).open()
        assert text("home.new", "ja") in again.read("new-game")
        assert table.server.store().get_setting("theme") == "dark"
        context.close()
    finally:
        table.tap("lang")
        table.tap("theme")
        table.wait_until(lambda: text("home.new", "en") in table.read("new-game"))
    assert table.server.store().get_setting("lang") == "en"


def test_more_screens_at_tablet_size(tablet: Table) -> None:
    game_id = tablet.new_game("cursed", ["Ann", "Ben"])
    for step in ("caster-Ann", "target-Ben", "fortune-love"):
        tablet.tap(step)
    tablet.wait("effect-curse")
    tablet.shot("cursed-spell")
    tablet.tap("effect-curse")
    tablet.wait_text("fortune-Ben-love", text("state.cursed"))
    assert tablet.server.summary(game_id)["players"]["Ben"]["fortunes"]["love"] == (
        "cursed"
    )
    tablet.tap("home")
    tablet.new_game("black-hearts", ["Ann", "Ben", "Cy"], "Cy")
    tablet.wait_text("next-player", "Cy")
    tablet.shot("table-black-hearts")
