"""The table's corrections in Chromium: undo, redo, editing, choices, restarts."""

from __future__ import annotations

import pytest

from companion.cards import Card
from companion.games import describe
from companion.replay import replay
from screens.table.trick_table import PAGE_PADDING
from tests.screens.conftest import (
    Table,
    check_figures,
    plan_trick,
    play_trick,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def label(code: str) -> str:
    """A card as the table shows it."""
    return describe("cursed-tricks").code_label(code)


def events(table: Table, game_id: str) -> list[dict]:
    return table.server.store().load(game_id).log.events


def test_undo_and_redo(table: Table) -> None:
    game_id = table.new_game("cursed-tricks", PLAYERS, "Ben")
    first = plan_trick(table.server, game_id)
    play_trick(table, first)
    play_trick(table, plan_trick(table.server, game_id))
    assert len(events(table, game_id)) == 3
    table.tap("undo")
    table.gone("edit-3")
    assert len(events(table, game_id)) == 2
    check_figures(table, game_id)
    table.tap("redo")
    table.wait("edit-3")
    assert len(events(table, game_id)) == 3
    check_figures(table, game_id)
    # Undo takes back the last trick, then its cards one by one, then the
    # trick before with its last card: tapping that card again records it.
    table.tap("undo")
    table.gone("edit-3")
    for _ in range(len(first) - 1):
        before = table.events_marker()
        table.tap("undo")
        table.wait_change(before)
    table.tap("undo")
    table.gone("edit-2")
    table.tap_card(first[-1])
    table.wait("edit-2")
    assert events(table, game_id)[1]["cards"] == first


def test_take_back_a_card(table: Table) -> None:
    game_id = table.new_game("cursed-tricks", PLAYERS, "Ann")
    cards = plan_trick(table.server, game_id)
    table.tap_card(cards[0])
    table.tap_card(cards[1])
    # A played card keeps its place, spent; taking it back frees it.
    assert table.card(cards[1]).count() == 0
    table.tap("take-back")
    table.card(cards[1]).wait_for(state="attached")
    table.wait_text("next-player", "Ben")
    assert len(events(table, game_id)) == 1
    for code in cards[1:]:
        table.tap_card(code)
    table.wait("edit-2")
    assert events(table, game_id)[1]["cards"] == cards


def test_edit_a_past_trick(table: Table) -> None:
    game_id = table.new_game("cursed-tricks", PLAYERS, "Cy")
    play_trick(table, plan_trick(table.server, game_id))
    play_trick(table, plan_trick(table.server, game_id))
    later = events(table, game_id)[2]["cards"]
    log = table.server.store().load(game_id).log
    pool = [str(c) for c in replay(log.with_events(log.events[:1])).prompt().cards]
    fresh = [code for code in reversed(pool) if code not in later][:4]
    table.tap("edit-2")
    table.wait("cancel-edit")
    for code in fresh:
        table.tap_card(code)
    table.gone("cancel-edit")
    assert events(table, game_id)[1]["cards"] == fresh
    assert events(table, game_id)[2]["cards"] == later
    check_figures(table, game_id)


def test_a_required_choice(table: Table) -> None:
    """Cy holds two curses when a low card makes them break one: the app asks."""
    game_id = table.new_game("cursed-tricks", PLAYERS, "Ann")
    for trick in (
        ["R5", "R10", "R14", "G1"],  # Cy wins: R14 becomes a curse
        ["G5", "G2", "G3", "P1"],  # Cy leads and wins: G5 becomes a second curse
        ["P3", "P10", "P5", "P6"],  # Dee's P10 becomes a curse
    ):
        play_trick(table, trick)
    for code in ["Y5", "Y9", "Y7", "Y2"]:  # Cy's Y2 breaks a curse: which?
        table.tap_card(code)
    table.wait("choice-question")
    assert "Cy" in table.text("choice-question")
    table.shot("choice-cursed-tricks")
    table.tap("choice-G")
    table.gone("choice-question")
    assert events(table, game_id)[4] == {
        "type": "trick",
        "cards": ["Y5", "Y9", "Y7", "Y2"],
        "break": "G",
    }
    summary = check_figures(table, game_id)
    assert summary["players"]["Cy"]["curses"] == ["R14"]


def test_restart_mid_round_and_resume(table: Table, browser) -> None:
    game_id = table.new_game("trick-runaway", PLAYERS, "Dee")
    play_trick(table, plan_trick(table.server, game_id))
    before = table.server.summary(game_id)
    cards = plan_trick(table.server, game_id)
    table.tap_card(cards[0])
    table.tap_card(cards[1])
    table.server.restart()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        again = Table(context.new_page(), table.server).open()
        again.tap("resume")
        again.wait("undo")
        assert table.server.summary(game_id) == before
        check_figures(again, game_id)
        # The two cards tapped before the restart are still there.
        prompt = table.server.store().replay(game_id).prompt()
        again.wait_text("next-player", prompt.seats[2])
        assert label(cards[1]) in again.text("trick-so-far")
        play_trick(again, cards[2:])
        assert len(events(table, game_id)) == 3
        assert events(table, game_id)[2]["cards"] == cards
    finally:
        context.close()


def test_two_screens_on_one_game(table: Table, browser) -> None:
    """A second screen follows the first, tap by tap, and can take over."""
    game_id = table.new_game("cursed-tricks", PLAYERS, "Ann")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = Table(context.new_page(), table.server).open()
        other.tap("resume")
        other.wait_text("next-player", "Ann")
        cards = plan_trick(table.server, game_id)
        table.tap_card(cards[0])
        table.tap_card(cards[1])
        other.wait_text("next-player", PLAYERS[2])
        assert label(cards[1]) in other.text("trick-so-far")
        for code in cards[2:]:
            table.tap_card(code)
        other.wait("edit-2")
        check_figures(other, game_id)
        play_trick(other, plan_trick(table.server, game_id))
        table.wait("edit-3")
        assert len(events(table, game_id)) == 3
        check_figures(table, game_id)
    finally:
        context.close()


def test_a_long_taken_list_wraps_in_its_panel(table: Table) -> None:
    # Black Hearts lists every card a player took: once one player has taken
    # most tricks the list is wider than a phone, and must wrap, not run off it.
    game_id = table.new_game("black-hearts", PLAYERS, "Ann")
    # The leader holds Two o'clock, the card that opens the round.
    play_trick(table, plan_trick(table.server, game_id, first="F2"))
    for _ in range(3):
        # Leading the highest card left while the others follow low keeps the
        # tricks with one player.
        pool = [
            Card.parse(str(c))
            for c in table.server.store().replay(game_id).prompt().cards
        ]
        highest = str(max(pool, key=lambda card: card.number))
        play_trick(table, plan_trick(table.server, game_id, first=highest))
    table.tap("board-open")
    summary = check_figures(table, game_id)
    longest = max(len(view["taken"]) for view in summary["players"].values())
    assert longest >= 12
    # The panel's text ends inside the page's padding and the panel's own.
    edge = table.page.viewport_size["width"] - PAGE_PADDING - 10
    for name in PLAYERS:
        taken = table.node(f"taken-{name}").bounding_box()
        assert taken is not None
        assert taken["x"] + taken["width"] <= edge, name
