"""The card grid under a thumb, in Chromium: every card in view with no scroll,
cards that never move, one card a tap, one undo history, messages in view."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import all_games
from companion.log import GameLog
from companion.session import GameSession
from tests.screens.conftest import Table, plan_trick, play_trick

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
TRICK_GAMES = [game for game in all_games() if game.has_tricks]
DISABLED = "xpath=descendant-or-self::*[@aria-disabled='true']"
BOXES = """() => [...document.querySelectorAll('[flt-semantics-identifier^="card-"]')]
    .map(node => { const r = node.getBoundingClientRect();
                   return [node.getAttribute('flt-semantics-identifier'),
                           r.x, r.y, r.width, r.height]; })"""


def stored_game(table: Table, slug: str, players: list[str]) -> str:
    """A game with its first round started, straight into the store."""
    store = table.server.store()
    game_id = store.create_game(GameLog(slug, players))
    store.append(game_id, {"type": "round", "leader": players[0]})
    return game_id


def open_game(browser: Any, table: Table, viewport: dict[str, int]) -> Table:
    context = browser.new_context(viewport=viewport)
    opened = Table(context.new_page(), table.server).open()
    opened.tap("resume")
    opened.wait("undo")
    return opened


def boxes(table: Table) -> list[list[Any]]:
    return list(table.page.evaluate(BOXES))


def layout_size(table: Table, game_id: str) -> int:
    return len(GameSession(table.server.store(), game_id).layout())


SEAT_WORDS = """ids => ids.map(id => {
    const node = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    if (!node) return null;
    const labels = [node, ...node.querySelectorAll('*')]
        .map(n => n.getAttribute('aria-label') || '').join(' ');
    return (node.textContent + ' ' + labels).replace(/\\s+/g, ' ').trim();
})"""


def seats_text(table: Table, players: list[str]) -> list[str]:
    """What each seat shows, its name and its card (or the empty mark)."""
    ids = [f"seat-{name}" for name in players]
    return list(table.page.evaluate(SEAT_WORDS, ids))


def kept_taps(table: Table, game_id: str) -> list[str | None]:
    found = table.server.store().get_setting(f"trick-in-progress:{game_id}") or {}
    return list(found.get("cards") or [])


def box_of(table: Table, identifier: str) -> list[Any]:
    box = table.wait(identifier).bounding_box() or {}
    return ["", box.get("x", -1), box.get("y", -1), box.get("width"), box.get("height")]


def in_view(box: list[Any], viewport: dict[str, int]) -> bool:
    _, x, y, width, height = box
    return (
        x >= 0
        and y >= 0
        and x + width <= viewport["width"]
        and y + height <= viewport["height"]
    )


@pytest.mark.parametrize("game", TRICK_GAMES, ids=lambda game: game.slug)
def test_every_card_in_view_and_still(table: Table, browser: Any, game: Any) -> None:
    players = NAMES[: max(game.player_counts)]
    game_id = stored_game(table, game.slug, players)
    size = layout_size(table, game_id)
    phone = open_game(browser, table, PHONES[0])
    try:
        for viewport in PHONES:
            phone.page.set_viewport_size(viewport)
            phone.wait_until(
                lambda viewport=viewport: (
                    len(boxes(phone)) == size
                    and all(in_view(box, viewport) for box in boxes(phone))
                )
            )
            for name in players:
                assert in_view(box_of(phone, f"seat-{name}"), viewport), name
        phone.shot(f"grid-{game.slug}")
        cards = plan_trick(table.server, game_id)
        # After a resize Flutter lays the page out again, later on a loaded
        # machine: the cards' places are read once they have stopped moving.
        before = phone.steady(lambda: boxes(phone), timeout=10, step=0.2)
        phone.tap_card(cards[0])
        after = boxes(phone)
        assert len(after) == len(before)
        for old, new in zip(before, after, strict=True):
            assert old[0] == new[0]
            assert abs(old[1] - new[1]) <= 1 and abs(old[2] - new[2]) <= 1, old
        # A double tap on the next card records it once: the seat after it
        # stays empty until the card after is tapped.
        node = phone.wait(f"card-{cards[1]}")
        box = node.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        phone.page.mouse.click(x, y)
        phone.page.mouse.click(x, y)
        store = table.server.store()

        def kept() -> list[str | None]:
            found = store.get_setting(f"trick-in-progress:{game_id}") or {}
            return list(found.get("cards") or [])

        phone.wait_until(lambda: kept()[:2] == cards[:2])
        phone.tap_card(cards[2])
        phone.wait_until(lambda: kept()[:3] == cards[:3])
        assert kept()[3:] == [None] * (len(players) - 3)
        spent = phone.node(f"card-{cards[0]}")
        assert spent.locator(DISABLED).count()
    finally:
        phone.page.context.close()


def test_undo_redo_return_each_state(table: Table, browser: Any) -> None:
    players = NAMES[:4]
    game_id = stored_game(table, "cursed-tricks", players)
    table = open_game(browser, table, PHONES[1])
    store = table.server.store

    def state() -> tuple[list[dict], list[str | None], list[str]]:
        events = store().load(game_id).log.events
        return events, kept_taps(table, game_id), seats_text(table, players)

    def undo_redo(step: str) -> None:
        before = table.events_marker() + table.read("undo", "redo", "cancel-edit")
        table.tap(step)
        deadline_check = lambda: (  # noqa: E731
            table.events_marker() + table.read("undo", "redo", "cancel-edit") != before
        )
        table.wait_until(deadline_check)

    cards = plan_trick(table.server, game_id)
    table.tap_card(cards[0])
    one = state()
    table.tap_card(cards[1])
    two = state()
    undo_redo("undo")
    table.wait_until(lambda: state() == one)
    undo_redo("redo")
    table.wait_until(lambda: state() == two)
    for code in cards[2:]:
        table.tap_card(code)
    table.wait("edit-2")
    done = state()
    undo_redo("undo")  # the last card comes back, the trick is not recorded
    table.gone("edit-2")
    assert len(state()[0]) == 1
    undo_redo("redo")
    table.wait("edit-2")
    table.wait_until(lambda: state() == done)
    # An edit started is an action of its own.
    table.tap("edit-2")
    table.wait("cancel-edit")
    table.tap("undo")
    table.gone("cancel-edit")
    table.wait_until(lambda: state() == done)
    table.tap("redo")
    table.wait("cancel-edit")
    table.tap("cancel-edit")
    table.gone("cancel-edit")
    # Undo takes back the cancel, the edit, the trick, each tap, then the round.
    steps = 0
    while not table.has("leader-Ann"):
        assert steps < 10, "undo never reached the round's start"
        undo_redo("undo")
        steps += 1
    assert steps == 1 + 1 + len(players) + 1
    assert store().load(game_id).log.events == []
    table.tap("leader-Ben")
    table.wait_text("next-player", "Ben")
    table.tap("undo")
    table.wait("leader-Ann")
    table.tap("redo")
    table.wait_text("next-player", "Ben")
    assert table.server.summary(game_id)["leader"] == "Ben"
    # The full board is one tap away.
    table.tap("board-open")
    table.wait_until(lambda: in_view(box_of(table, "leader"), PHONES[1]))


def test_messages_in_view_and_gone(table: Table, browser: Any) -> None:
    players = NAMES[:4]
    viewport = {"width": 360, "height": 740}
    game_id = stored_game(table, "cursed-tricks", players)
    table = open_game(browser, table, viewport)
    # Ben shows out of the suit led, then plays it in the next trick.
    plan = plan_trick(table.server, game_id)
    lead = plan[0][0]
    prompt = table.server.store().replay(game_id).prompt()
    other = next(str(c) for c in prompt.cards if str(c)[0] != lead)
    first = [plan[0], other, *plan[2:]]
    play_trick(table, first)
    seats = table.server.store().replay(game_id).prompt().seats
    pool = [str(c) for c in table.server.store().replay(game_id).prompt().cards]
    second = [code for code in pool if code[0] == lead][: len(seats)]
    play_trick(table, second)
    table.wait("warning")
    assert in_view(box_of(table, "warning"), viewport)
    # A trick led in another suit, everyone following: nothing to warn of.
    pool = [str(c) for c in table.server.store().replay(game_id).prompt().cards]
    other_lead = next(code for code in pool if code[0] not in (lead, other[0]))
    play_trick(table, plan_trick(table.server, game_id, other_lead))
    table.gone("warning")
    # Re-entering the first trick with a card the second one played: refused.
    table.tap("edit-2")
    table.wait("cancel-edit")
    base = [c for c in first if c not in second[:1]]
    for code in [second[0], *base[: len(players) - 1]]:
        table.tap_card(code)
    table.wait("error")
    assert in_view(box_of(table, "error"), viewport)
    table.tap("cancel-edit")
    table.gone("cancel-edit")
    table.gone("error")
    assert table.server.store().load(game_id).log.events[1]["cards"] == first


def test_every_write_reaches_the_other_device(table: Table, browser: Any) -> None:
    players = NAMES[:4]
    game_id = stored_game(table, "cursed-tricks", players)
    table = open_game(browser, table, PHONES[1])
    other = open_game(browser, table, PHONES[1])
    store = table.server.store

    def both_show(check: Any) -> None:
        for device in (table, other):
            device.wait_until(lambda device=device: check(device))

    try:
        table.tap("undo")  # the round start goes, on both
        both_show(lambda d: d.has("leader-Ann"))
        other.tap("leader-Ann")  # round start, from the other device
        both_show(lambda d: d.read("next-player") == "Ann")
        first_trick = ["R5", "R10", "R14", "G1"]
        for trick in (
            first_trick,  # Cy wins: R14 becomes a curse
            ["G5", "G2", "G3", "P1"],  # Cy leads and wins: G5 a second curse
            ["P3", "P10", "P5", "P6"],  # Dee's P10 becomes a curse
        ):
            play_trick(table, trick)  # trick
        both_show(lambda d: d.has("edit-4"))
        for code in ["Y5", "Y9", "Y7", "Y2"]:
            table.tap_card(code)
        table.wait("choice-question")
        table.tap("choice-G")  # choice
        both_show(lambda d: d.has("edit-5"))
        other.tap("undo")  # undo, from the other device
        both_show(lambda d: not d.has("edit-5"))
        table.tap("redo")  # redo on the first: the other moved on, this follows
        table.wait_until(lambda: table.has("edit-5") or table.has("error"))
        if not table.has("edit-5"):
            other.tap("redo")
        both_show(lambda d: d.has("edit-5"))
        table.tap("edit-2")  # edit
        table.wait("cancel-edit")
        for code in first_trick:
            table.tap_card(code)
        table.gone("cancel-edit")
        both_show(lambda d: d.has("edit-5"))
        assert store().load(game_id).log.events[1]["cards"] == first_trick
        # Undo takes back the edit's last card: the edit is in progress again,
        # with its first three cards, on both devices.
        table.tap("undo")
        both_show(lambda d: d.has("cancel-edit"))
        table.tap_card(first_trick[-1])
        both_show(lambda d: not d.has("cancel-edit") and d.has("edit-5"))
        assert store().load(game_id).log.events[1]["cards"] == first_trick
    finally:
        other.page.context.close()


def test_piles_reach_the_other_device(table: Table, browser: Any) -> None:
    store = table.server.store()
    game_id = store.create_game(
        GameLog("wolf-x-trick", NAMES[:3], {"full_moon_ranks": [3]})
    )
    table = open_game(browser, table, PHONES[1])
    other = open_game(browser, table, PHONES[0])
    try:
        table.tap("mode-piles")
        table.tap("pile-player-Ann")
        for _ in range(2):
            table.tap("full-plus")
        table.wait_text("full-count", "2")
        table.tap("super-plus")
        table.wait_text("super-count", "1")
        # A pile holds one card a player: the counters stop there.
        for kind in ("full", "super"):
            plus = table.node(f"{kind}-plus")
            table.wait_until(lambda plus=plus: plus.locator(DISABLED).count())
        table.tap("full-minus")
        table.wait_text("full-count", "1")
        table.tap("add-pile")
        other.wait("edit-1")
        assert table.server.store().load(game_id).log.events[0]["player"] == "Ann"
    finally:
        other.page.context.close()
