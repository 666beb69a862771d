"""A hurried second tap, in Chromium: two clicks 350 ms apart on one spot, on
every kind of control of every game's flow, store only what one tap means.

Bounded to stay quick: one new-game form, one round start and one trick per
trick game, a round's last card in Black Hearts, a spell and a sacrifice
change in CURSED!, undo, the home screen's links, and Add on the new-game form
(the name field is still ready for the next name).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.games import all_games
from companion.games.black_hearts import TRICKS_PER_ROUND
from companion.log import GameLog
from tests.screens.conftest import PHONE, Table, plan_trick
from tests.screens.test_trick_grid import open_game

pytestmark = pytest.mark.browser

SECOND_TAP_S = 0.35
TRICK_GAMES = [game.slug for game in all_games() if game.has_tricks]
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def double_tap(table: Table, identifier: str) -> None:
    """Tap the middle of the control, then the same spot again 350 ms later."""
    node = table.wait(identifier)
    box = node.bounding_box()
    viewport = table.page.viewport_size or {"height": 844}
    if box is None or box["y"] < 0 or box["y"] + box["height"] > viewport["height"]:
        node.scroll_into_view_if_needed()
        table.settle(node)
    table.pace()
    box = node.bounding_box()
    assert box is not None, identifier
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    table.page.mouse.click(x, y)
    time.sleep(SECOND_TAP_S)
    table.page.mouse.click(x, y)
    table.tapped(card=False)
    table.pace()


def double_tap_card(table: Table, code: str) -> None:
    node = table.card(code)
    node.wait_for(state="attached", timeout=15_000)
    table.pace()
    box = node.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    table.page.mouse.click(x, y)
    time.sleep(SECOND_TAP_S)
    table.page.mouse.click(x, y)
    table.tapped(card=True)
    table.pace()


def events(table: Table, game_id: str) -> list[dict[str, Any]]:
    return list(table.server.store().load(game_id).log.events)


def kept(table: Table, game_id: str) -> list[str]:
    found = table.server.store().get_setting(f"trick-in-progress:{game_id}") or {}
    return [card for card in found.get("cards") or [] if card]


def settled(table: Table, check: Any) -> None:
    table.wait_until(check, timeout=15)
    table.pace()
    assert check()


def double_tapped_form(table: Table, slug: str) -> str:
    """The new-game form with every control double-tapped; the game's id."""
    known = {info.id for info in table.server.games()}
    double_tap(table, "new-game")
    table.wait(f"game-{slug}")
    double_tap(table, f"game-{slug}")
    for name in PLAYERS:
        for attempt in range(3):
            table.type_into("name-field", name)
            rows = table.page.locator(f'[flt-semantics-identifier="remove-{name}"]')
            double_tap(table, "add-player")
            if rows.count():
                break
            assert attempt < 2, name
    double_tap(table, "start-Ann")
    double_tap(table, "start-game")
    table.wait("undo", timeout=20_000)
    fresh = [info.id for info in table.server.games() if info.id not in known]
    assert len(fresh) == 1
    return fresh[0]


@pytest.mark.parametrize("slug", TRICK_GAMES)
def test_a_round_start_and_a_trick_double_tapped(table: Table, slug: str) -> None:
    game_id = double_tapped_form(table, slug)
    log = table.server.store().load(game_id).log
    # Add, double-tapped, seats each new player once and at the end.
    assert list(log.players) == PLAYERS
    if not events(table, game_id):
        leader = next(
            identifier
            for identifier in ("leader-Ann", "leader-rule")
            if table.has(identifier)
        )
        double_tap(table, leader)
        settled(table, lambda: len(events(table, game_id)) == 1)
    start = len(events(table, game_id))
    cards = plan_trick(table.server, game_id)
    for at, code in enumerate(cards, start=1):
        double_tap_card(table, code)
        if at < len(cards):
            settled(table, lambda at=at: kept(table, game_id) == cards[:at])
    while table.read("choice-question"):
        option = table.page.locator(
            '[flt-semantics-identifier^="choice-"]'
            ':not([flt-semantics-identifier="choice-question"])'
        ).first
        double_tap(table, str(option.get_attribute("flt-semantics-identifier")))
    settled(table, lambda: len(events(table, game_id)) == start + 1)
    assert events(table, game_id)[-1]["cards"] == cards
    assert not table.mid_trick()
    # Undo, double-tapped, takes back the trick (its last card) and no more.
    double_tap(table, "undo")
    settled(table, lambda: len(events(table, game_id)) == start)
    settled(table, lambda: kept(table, game_id) == cards[:-1])


def test_a_rounds_last_card_double_tapped(table: Table, browser: Any) -> None:
    """Black Hearts: the next round's questions open where the last card was."""
    store = table.server.store()
    players = PLAYERS[:3]
    game_id = store.create_game(GameLog("black-hearts", players))
    store.append(game_id, {"type": "round", "leader": players[0], "reversed": False})
    for _ in range(TRICKS_PER_ROUND - 1):
        cards = plan_trick(table.server, game_id)
        store.append(game_id, {"type": "trick", "cards": cards})
    cards = plan_trick(table.server, game_id)  # the round's last trick, entered by taps
    phone = open_game(browser, table, PHONE)
    try:
        last_card_double_tapped(phone, game_id, cards)
    finally:
        phone.page.context.close()


def last_card_double_tapped(table: Table, game_id: str, cards: list[str]) -> None:
    """The round's last card, tapped twice: the trick is recorded once, and
    whatever opens where the card was (the next round's questions, or the
    game's end with its Edit buttons) takes nothing from the second tap."""
    store = table.server.store()
    for code in cards[:-1]:
        table.tap_card(code)
    count = len(events(table, game_id))
    double_tap_card(table, cards[-1])
    settled(table, lambda: len(events(table, game_id)) == count + 1)
    assert events(table, game_id)[-1]["cards"] == cards
    assert not table.has("edit-banner")
    if "round" in store.replay(game_id).prompt().expects:
        table.wait_until(
            lambda: table.has("leader-rule") or table.has("leader-Ann"), timeout=20
        )
        leader = "leader-rule" if table.has("leader-rule") else "leader-Ann"
        table.tap(leader)
        settled(table, lambda: len(events(table, game_id)) == count + 2)
        assert events(table, game_id)[-1].get("reversed") is False


def test_a_spell_and_a_change_double_tapped(table: Table) -> None:
    game_id = table.new_game("cursed", ["Ann", "Ben", "Cy"])
    for step in ("caster-Ann", "target-Ben", "fortune-wealth"):
        double_tap(table, step)
    assert events(table, game_id) == []
    double_tap(table, "effect-curse")
    settled(table, lambda: len(events(table, game_id)) == 1)
    spell = events(table, game_id)[0]
    assert (spell.get("caster"), spell.get("target")) == ("Ann", "Ben")
    assert (spell.get("fortune"), spell.get("effect")) == ("wealth", "curse")
    table.tap("tab-altar")
    for step in ("set-player-Cy", "set-fortune-luck"):
        double_tap(table, step)
    assert len(events(table, game_id)) == 1
    double_tap(table, "set-state-blessed")
    settled(table, lambda: len(events(table, game_id)) == 2)
    change = events(table, game_id)[1]
    assert (change.get("player"), change.get("fortune")) == ("Cy", "luck")
    assert change.get("state") == "blessed"


def test_home_links_double_tapped(table: Table) -> None:
    double_tap(table, "past-games")
    table.wait("import-open")
    table.pace()
    assert not table.has("import-text")


def test_a_hurried_second_tap_on_add_leaves_the_field_ready(table: Table) -> None:
    """The second tap adds nothing, and the next name is still typed at once."""
    table.tap("new-game")
    table.tap("game-cursed")
    table.type_into("name-field", "Ann")
    double_tap(table, "add-player")
    table.wait("remove-Ann")
    table.add_with_no_tap_on_the_field("Ben")
    assert table.page.locator('[flt-semantics-identifier="remove-Ann"]').count() == 1
