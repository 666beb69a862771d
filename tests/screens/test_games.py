"""Each game played in Chromium by tapping, then checked against the replay."""

from __future__ import annotations

import pytest

from tests.screens.conftest import Table, check_figures, plan_trick, play_trick

pytestmark = pytest.mark.browser


def play_round(table: Table, game_id: str, first: str | None = None) -> dict:
    """Tap tricks until the round (or the game) is over."""
    server = table.server
    rounds = len(server.summary(game_id)["rounds"])
    lead_card = first
    while True:
        prompt = server.store().replay(game_id).prompt()
        if "trick" not in prompt.expects:
            break
        play_trick(table, plan_trick(server, game_id, lead_card))
        lead_card = None
        summary = server.summary(game_id)
        if summary["finished"] or len(summary["rounds"]) > rounds:
            break
    return check_figures(table, game_id)


def test_cursed_tricks_round(table: Table) -> None:
    game_id = table.new_game("cursed-tricks", ["Ann", "Ben", "Cy", "Dee"], "Ann")
    table.wait_text("next-player", "Ann")
    table.shot("table-cursed-tricks")
    summary = play_round(table, game_id)
    assert len(summary["rounds"]) == 1
    table.wait("round-end")
    table.shot("round-end-cursed-tricks")


def test_trick_runaway_round(table: Table) -> None:
    game_id = table.new_game("trick-runaway", ["Ann", "Ben", "Cy", "Dee"], "Ben")
    table.wait_text("next-player", "Ben")
    summary = play_round(table, game_id)
    assert len(summary["rounds"]) == 1 or summary["finished"]
    table.shot("round-end-trick-runaway")
    # Level cubes made the app ask which track drops; the answers are stored.
    events = table.server.store().load(game_id).log.events
    assert any(set(e.get("lower", {}).values()) == {"escape"} for e in events)


def test_wolf_x_trick_game(table: Table) -> None:
    game_id = table.new_game("wolf-x-trick", ["Ann", "Ben", "Cy"], "Cy")
    table.wait_text("next-player", "Cy")
    summary = play_round(table, game_id)
    assert summary["finished"]
    table.wait("winners")
    table.shot("game-over-wolf-x-trick")


def test_black_hearts_round(table: Table) -> None:
    # The form records the first round: Dee, chosen there, holds Two o'clock.
    game_id = table.new_game("black-hearts", ["Ann", "Ben", "Cy", "Dee"], "Dee")
    table.wait_text("next-player", "Dee")
    # Dee holds Two o'clock: a lead of anything else is refused at its tap.
    table.tap("card-C1")
    table.wait_until(lambda: "Dee must lead" in table.read("error"))
    table.wait_text("next-player", "Dee")
    summary = play_round(table, game_id, first="F2")
    assert len(summary["rounds"]) == 1 or summary["finished"]
    log = table.server.store().load(game_id).log
    assert log.events[0] == {
        "type": "round",
        "leader": "Dee",
        "gift": None,
        "reversed": False,
    }
