"""Many past games in Chromium: the list opens a page at a time and turns to
older games; a finished game's detail sends it to BG Stats."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import bgstats
from companion.listing import PAGE_SIZE
from companion.log import loads
from tests.screens.conftest import ROOT, Table

pytestmark = pytest.mark.browser

MANY = PAGE_SIZE + 5


def stored_many(table: Table) -> list[str]:
    """More finished games than a page holds; every kept game's id, newest first."""
    store = table.server.store()
    log = loads((ROOT / "examples" / "wolf-x-trick.json").read_text(encoding="utf-8"))
    for _ in range(MANY):
        store.import_log(log)
    store.close()
    return [info.id for info in table.server.games()]


def test_the_list_opens_a_page_and_turns_to_older_games(table: Table) -> None:
    ids = stored_many(table)
    table.tap("past-games")
    table.wait_text("history-page", f"Games 1–{PAGE_SIZE} of {len(ids)}")
    table.wait(f"game-{ids[0]}")
    table.wait(f"game-{ids[PAGE_SIZE - 1]}")
    assert not table.has(f"game-{ids[PAGE_SIZE]}")
    table.shot("history-page-1")

    table.tap("history-older")
    last = min(2 * PAGE_SIZE, len(ids))
    table.wait_text("history-page", f"Games {PAGE_SIZE + 1}–{last} of {len(ids)}")
    table.wait(f"game-{ids[PAGE_SIZE]}")
    table.gone(f"game-{ids[0]}")

    table.tap("history-newer")
    table.wait_text("history-page", f"Games 1–{PAGE_SIZE} of {len(ids)}")
    table.wait(f"game-{ids[0]}")

    # A filter starts again from the newest of its games.
    table.tap("history-older")
    table.wait(f"game-{ids[PAGE_SIZE]}")
    table.tap("filter-game-wolf-x-trick")
    wolves = [info.id for info in table.server.games() if info.game == "wolf-x-trick"]
    shown = min(PAGE_SIZE, len(wolves))
    table.wait_text("history-page", f"Games 1–{shown} of {len(wolves)}")
    table.wait(f"game-{wolves[0]}")


def opened_link(table: Table) -> str:
    """Tap Send to BG Stats; the address the browser was sent to."""
    context = table.page.context
    context.route(
        "https://app.bgstatsapp.com/**",
        lambda route: route.fulfill(
            status=200, body="BG Stats", content_type="text/plain"
        ),
    )
    with context.expect_page(timeout=15_000) as opened:
        table.tap("detail-bgstats")
    page = opened.value
    page.wait_for_load_state()
    return str(page.url)


def test_a_finished_game_is_sent_to_bg_stats(table: Table) -> None:
    ids = stored_many(table)
    game_id = ids[0]
    table.tap("past-games")
    table.tap(f"game-{game_id}")
    table.wait("detail-bgstats")
    table.shot("history-detail-bgstats")
    address = opened_link(table)
    assert address.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    (data,) = parse_qs(urlsplit(address).query)["data"]
    store = table.server.store()
    expected: dict[str, Any] = bgstats.play(
        store.load(game_id).info, store.replay(game_id), "en"
    )
    assert json.loads(data) == expected
    assert [player["winner"] for player in expected["players"]] == [
        False,
        True,
        False,
        False,
    ]


def test_an_unfinished_game_offers_no_bg_stats(table: Table) -> None:
    store = table.server.store()
    log = loads((ROOT / "examples" / "black-hearts.json").read_text(encoding="utf-8"))
    game_id = store.import_log(log.with_events(log.events[:5]))
    store.close()
    table.tap("past-games")
    table.tap(f"game-{game_id}")
    table.wait("detail-resume")
    assert not table.has("detail-bgstats")


def test_a_players_games_open_from_the_statistics(table: Table) -> None:
    stored_many(table)
    table.tap("past-games")
    table.tap("open-stats")
    table.tap("stats-Dee-list")
    theirs = [info.id for info in table.server.games() if "Dee" in info.players]
    shown = min(PAGE_SIZE, len(theirs))
    table.wait_text("history-page", f"Games 1–{shown} of {len(theirs)}")
    table.wait(f"game-{theirs[0]}")
