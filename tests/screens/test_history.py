"""Past games in Chromium: filter, open a game, read its table; stats on screen.

Every figure read off the screen is compared with a recount from the stored
logs through `companion replay`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.log import loads
from screens.history import average_text, rate_text
from tests.screens.conftest import ROOT, Server, Table, figure

pytestmark = pytest.mark.browser

IMPORTED = (
    "cursed-tricks.json",
    "black-hearts.json",
    "trick-runaway-5p.json",
    "wolf-x-trick.json",
    "cursed.json",
)


def imported(server: Server) -> dict[str, str]:
    """The example games in the server's data folder (once per session): name -> id."""
    store = server.store()
    known = getattr(server, "history_ids", None)
    if known is None:
        known = {}
        for name in IMPORTED:
            log = loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
            known[name] = store.import_log(log)
        whole = loads((ROOT / "examples" / "cursed-tricks.json").read_text())
        known["unfinished"] = store.import_log(whole.with_events(whole.events[:30]))
        server.history_ids = known  # type: ignore[attr-defined]
    return known


def recount(server: Server) -> dict[str, dict[str, Any]]:
    """Per player and game: games, wins and totals of every finished stored game."""
    table: dict[str, dict[str, Any]] = {}
    for info in server.games():
        summary = server.summary(info.id)
        if not summary["finished"]:
            continue
        for name, total in summary["totals"].items():
            mine = table.setdefault(name, {"games": 0, "wins": 0, "by_game": {}})
            row = mine["by_game"].setdefault(info.game, [0, 0, []])
            won = int(name in summary["winners"])
            mine["games"] += 1
            mine["wins"] += won
            row[0] += 1
            row[1] += won
            row[2].append(total)
    return table


def shot(table: Table, name: str) -> None:
    """A screenshot once the screen has painted (the ids come before the pixels)."""
    table.page.wait_for_timeout(800)
    table.shot(name)


def exported_text(table: Table) -> str:
    """The export dialog's text, as the browser's text field holds it.

    Flutter hands the text to the page's field once the field has the focus.
    """
    table.tap("export-text")
    field = table.page.locator("textarea")
    field.wait_for(state="attached", timeout=5_000)
    deadline = time.monotonic() + 10
    while not field.input_value() and time.monotonic() < deadline:
        time.sleep(0.05)
    return str(field.input_value())


def open_history(table: Table) -> None:
    table.tap("past-games")
    table.wait("filter-game-all")


def check_detail(table: Table, game_id: str) -> dict[str, Any]:
    summary = table.server.summary(game_id)
    table.wait("history-table")
    for name, total in summary["totals"].items():
        table.wait_text(f"hist-total-{name}", figure(total))
        for number, entry in enumerate(summary["rounds"], start=1):
            table.wait_text(
                f"hist-round-{number}-{name}", figure(entry["scores"][name])
            )
    return summary


def test_filter_and_open_a_game(table: Table) -> None:
    ids = imported(table.server)
    open_history(table)
    for game_id in ids.values():
        table.wait(f"game-{game_id}")
    shot(table, "history-list")

    table.tap("filter-game-black-hearts")
    table.gone(f"game-{ids['cursed-tricks.json']}")
    table.wait(f"game-{ids['black-hearts.json']}")
    table.tap("filter-game-all")
    table.tap("filter-player-Eve")
    table.gone(f"game-{ids['black-hearts.json']}")
    table.wait(f"game-{ids['trick-runaway-5p.json']}")
    table.tap("filter-player-all")

    table.tap(f"game-{ids['cursed-tricks.json']}")
    summary = check_detail(table, ids["cursed-tricks.json"])
    assert summary["winners"] == ["Ben"]
    table.wait_text("detail-winners", "Winner: Ben")
    for name, total in summary["totals"].items():
        table.wait_text(f"chart-last-{name}", figure(total))
    assert not table.has("detail-resume")
    shot(table, "history-detail")
    table.page.mouse.move(195, 600)
    table.page.mouse.wheel(0, 700)
    shot(table, "history-chart")

    table.tap("detail-events-toggle")
    table.wait("detail-events")
    table.tap("export-csv")
    table.wait("export-text")
    lines = exported_text(table).splitlines()
    players = ["Ann", "Ben", "Cy", "Dee"]
    assert lines[0] == ",".join(["round", *players])
    for number, (line, entry) in enumerate(
        zip(lines[1:], summary["rounds"], strict=True)
    ):
        scores = [str(entry["scores"][name]) for name in players]
        assert line == ",".join([str(number + 1), *scores])
    shot(table, "history-export")
    table.tap("export-close")
    table.gone("export-text")
    table.page.mouse.move(195, 600)
    table.page.mouse.wheel(0, 1400)
    shot(table, "history-events")

    table.tap("history-back")
    table.tap(f"game-{ids['unfinished']}")
    check_detail(table, ids["unfinished"])
    table.tap("detail-resume")
    table.wait("undo")


def test_stats_equal_a_recount(table: Table) -> None:
    imported(table.server)
    open_history(table)
    table.tap("open-stats")
    expected = recount(table.server)
    for name, mine in expected.items():
        table.wait_text(f"stats-{name}-games", str(mine["games"]))
        table.wait_text(f"stats-{name}-wins", str(mine["wins"]))
        table.wait_text(f"stats-{name}-rate", rate_text(mine["wins"] / mine["games"]))
        for game, (played, wins, totals) in mine["by_game"].items():
            prefix = f"stats-{name}-{game}"
            table.wait_text(f"{prefix}-games", str(played))
            table.wait_text(f"{prefix}-wins", str(wins))
            table.wait_text(f"{prefix}-average", average_text(sum(totals) / played))
            pick = min if game == "black-hearts" else max
            table.wait_text(f"{prefix}-best", str(pick(totals)))
    shot(table, "history-stats")
    table.tap("filter-game-wolf-x-trick")
    table.gone("stats-Eve")
    table.wait("stats-Dee-wolf-x-trick-best")


def test_screens_on_a_tablet(tablet: Table) -> None:
    ids = imported(tablet.server)
    open_history(tablet)
    tablet.wait(f"game-{ids['wolf-x-trick.json']}")
    shot(tablet, "history-list")
    tablet.tap(f"game-{ids['trick-runaway-5p.json']}")
    check_detail(tablet, ids["trick-runaway-5p.json"])
    shot(tablet, "history-detail")
    tablet.tap("history-back")
    tablet.tap(f"game-{ids['cursed.json']}")
    check_detail(tablet, ids["cursed.json"])
    shot(tablet, "history-detail-cursed")
    tablet.tap("history-back")
    tablet.tap("open-stats")
    tablet.wait("stats-Ann")
    shot(tablet, "history-stats")
    tablet.tap("lang")
    tablet.wait("stats-Ann")
    shot(tablet, "history-stats-ja")
    tablet.tap("history-back")
    shot(tablet, "history-list-ja")
    tablet.tap("lang")


def test_examples_exist() -> None:
    for name in IMPORTED:
        assert Path(ROOT / "examples" / name).exists()
