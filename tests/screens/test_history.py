"""Past games in Chromium: filter, open a game, read its table; stats on screen.

Every figure read off the screen is compared with a recount from the stored
logs through `companion replay`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from companion.games import describe
from companion.log import dumps, loads
from companion.replay import replay
from companion.timeline import lines
from screens.statistics import average_text, rate_text
from tests.companion.test_store import data_files
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
    """Per player and game: games, wins, totals and the ranked games of every
    finished stored game."""
    table: dict[str, dict[str, Any]] = {}
    for info in server.games():
        summary = server.summary(info.id)
        if not summary["finished"]:
            continue
        for name, total in summary["totals"].items():
            mine = table.setdefault(name, {"games": 0, "wins": 0, "by_game": {}})
            row = mine["by_game"].setdefault(info.game, [0, 0, [], []])
            won = int(name in summary["winners"])
            mine["games"] += 1
            mine["wins"] += won
            row[0] += 1
            row[1] += won
            row[2].append(total)
            ranked = describe(info.game).best_of(summary, name)
            if ranked is not None:
                row[3].append(ranked)
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
    table.wait_text("detail-winners", "Ben won")
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
    assert lines[0] == ",".join(
        ["Round", *(f"{name},{name} total" for name in players)]
    )
    running = dict.fromkeys(players, 0)
    for number, (line, entry) in enumerate(
        zip(lines[1:], summary["rounds"], strict=True)
    ):
        cells = [str(number + 1)]
        for name in players:
            running[name] += entry["scores"][name]
            cells += [str(entry["scores"][name]), str(running[name])]
        assert line == ",".join(cells)
    assert running == summary["totals"]
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
        for game, (played, wins, totals, ranked) in mine["by_game"].items():
            prefix = f"stats-{name}-{game}"
            table.wait_text(f"{prefix}-games", str(played))
            table.wait_text(f"{prefix}-wins", str(wins))
            table.wait_text(f"{prefix}-average", average_text(sum(totals) / played))
            best = figure(max(ranked).value if ranked else None)
            table.wait_text(f"{prefix}-best", best)
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


# keeping the list tidy, importing, and the story of a game


def example_log(name: str) -> Any:
    return loads((ROOT / "examples" / name).read_text(encoding="utf-8"))


def new_ids(server: Server, known: set[str], timeout: float = 15) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fresh = [info.id for info in server.games() if info.id not in known]
        if fresh:
            return fresh
        time.sleep(0.1)
    raise AssertionError("no game was created")


def test_delete_restore_rematch_and_empty_the_trash(table: Table) -> None:
    server = table.server
    log = example_log("black-hearts.json")
    game_id = server.store().import_log(log)
    open_history(table)
    table.tap(f"game-{game_id}")
    table.wait("detail-rematch")

    table.tap("detail-delete")
    table.wait("detail-restore")
    assert server.store().load(game_id).info.deleted
    table.tap("history-back")
    table.gone(f"game-{game_id}")
    table.tap("show-trash")
    table.tap(f"game-{game_id}")
    table.tap("detail-restore")
    table.wait("detail-rematch")
    assert not server.store().load(game_id).info.deleted

    known = {info.id for info in server.games()}
    table.tap("detail-rematch")
    (rematch,) = new_ids(server, known)
    table.wait("undo")
    again = server.store().load(rematch).log
    assert (again.game, again.players, again.options) == (
        log.game,
        log.players,
        log.options,
    )
    assert again.events == []

    # the rematch, abandoned, deleted and purged from the trash
    table.tap("home")
    table.wait("resume")
    open_history(table)
    table.tap(f"game-{rematch}")
    table.tap("detail-abandon")
    table.wait_until(lambda: server.store().load(rematch).info.archived)
    table.tap("detail-delete")
    table.wait("detail-restore")
    table.tap("history-back")
    table.tap("show-trash")
    table.wait(f"game-{rematch}")
    table.tap("empty-trash")
    table.gone(f"game-{rematch}")
    assert rematch not in {
        info.id for info in server.store().list_games(include_deleted=True)
    }


def test_home_lists_every_unfinished_game(table: Table) -> None:
    server = table.server
    whole = example_log("cursed-tricks.json")
    first = server.store().import_log(whole.with_events(whole.events[:20]))
    second = server.store().import_log(whole.with_events(whole.events[:45]))
    table.tap("home")
    for game_id in (first, second):
        events = server.store().load(game_id).log.events
        rounds = sum(event["type"] == "round" for event in events)
        table.wait_until(
            lambda game_id=game_id, rounds=rounds: table.text(
                f"waiting-{game_id}"
            ).startswith(f"Round {rounds} · last played")
        )


def test_import_a_pasted_log_good_and_bad(table: Table) -> None:
    server = table.server
    good = example_log("cursed.json")
    bad = good.to_dict()
    bad["events"][3]["target"] = "Zed"
    open_history(table)
    table.tap("import-open")
    before = data_files(server.data)
    table.type_into("import-text", json.dumps(bad))
    table.tap("import-go")
    table.wait_until(lambda: "entry 4 of the log" in table.text("import-problem"))
    shot(table, "history-import-refused")
    assert data_files(server.data) == before

    known = {info.id for info in server.games()}
    table.type_into("import-text", dumps(good))
    # the refusal goes once the app has the new text
    table.wait_until(lambda: table.read("import-problem") == "", timeout=15)
    table.tap("import-go")
    (game_id,) = new_ids(server, known)
    table.wait("detail-events-toggle")
    assert server.store().load(game_id).log == good


def test_the_story_names_rounds_tricks_and_winners(table: Table) -> None:
    ids = imported(table.server)
    game_id = ids["cursed-tricks.json"]
    result = replay(table.server.store().load(game_id).log)
    story = lines(result.steps)
    open_history(table)
    table.tap(f"game-{game_id}")
    table.tap("detail-events-toggle")
    first_round, first_trick = story[0], story[1]
    assert first_round.mark.type == "round" and first_trick.mark.trick == 1
    leader = result.log.events[0]["leader"]
    table.wait_text("event-1", f"Round 1 begins · {leader} leads")
    table.wait_text("event-2", f"Round 1 · Trick 1 · {first_trick.mark.winner} wins")
    assert not table.has("event-2-reason-0")
    table.tap("event-2")
    table.wait("event-2-reason-0")
    later = next(line for line in story if line.mark.round == 2 and line.mark.trick)
    number = later.mark.number
    table.wait_text(f"event-{number}", f"Round 2 · Trick 1 · {later.mark.winner} wins")
