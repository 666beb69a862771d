"""The BG Stats link of a finished game, decoded, says what the game's log says."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import bgstats
from companion.games import describe
from companion.log import GameLog, loads
from companion.replay import replay
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
FINISHED = [path for path in EXAMPLES if replay(loads(path.read_text())).state.finished]

# By hand from each log: who acted first, and each player's place.
EXPECTED: dict[str, tuple[str | None, dict[str, int]]] = {
    "black-hearts-all-curses": ("Cy", {"Cy": 1, "Ann": 2, "Ben": 2, "Dee": 2}),
    "black-hearts": ("Ann", {"Ben": 1, "Cy": 2, "Dee": 2, "Ann": 4}),
    "cursed-tricks-standard-3p": ("Ben", {"Ben": 1, "Cy": 2, "Ann": 3}),
    "cursed-tricks": ("Cy", {"Ben": 1, "Cy": 2, "Ann": 3, "Dee": 4}),
    "cursed": ("Ann", {"Ann": 1, "Ben": 2, "Cy": 2}),
    "trick-runaway-5p": (
        "Cy",
        {"Ann": 1, "Ben": 1, "Dee": 1, "Eve": 1, "Cy": 5},
    ),
    "trick-runaway": ("Ben", {"Ben": 1, "Cy": 1, "Ann": 3, "Dee": 3}),
    # piles counted at the end: nobody is known to have led
    "wolf-x-trick-piles": (None, {"Ben": 1, "Ann": 2, "Cy": 2}),
    "wolf-x-trick": ("Ann", {"Ben": 1, "Ann": 2, "Cy": 2, "Dee": 2}),
}


def decoded(address: str) -> dict[str, Any]:
    assert address.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    (data,) = parse_qs(urlsplit(address).query, strict_parsing=True)["data"]
    found = json.loads(data)
    assert isinstance(found, dict)
    return found


def stored(tmp_path: Path, log: GameLog) -> tuple[Store, str]:
    store = Store(tmp_path, fsync=False)
    return store, store.import_log(log)


def test_every_kind_of_game_has_a_finished_example() -> None:
    kinds = {loads(path.read_text()).game for path in FINISHED}
    assert kinds == {
        "cursed-tricks",
        "trick-runaway",
        "cursed",
        "wolf-x-trick",
        "black-hearts",
    }
    assert {path.stem for path in FINISHED} == set(EXPECTED)


@pytest.mark.parametrize("path", FINISHED, ids=lambda path: path.stem)
def test_the_link_carries_the_finished_game(path: Path, tmp_path: Path) -> None:
    log = loads(path.read_text(encoding="utf-8"))
    store, game_id = stored(tmp_path, log)
    info = store.load(game_id).info
    summary = replay(log).summary()
    spec = describe(log.game)
    play = decoded(bgstats.link(info, store.replay(game_id), "en", "Kitchen table"))

    assert play["sourceName"] == "Curse Companion"
    assert play["sourcePlayId"] == game_id
    scored = spec.measure in ("points", "curse-points")
    assert play["game"] == {
        "name": spec.title_in("en"),
        "highestWins": not spec.lower_is_better,
        "noPoints": not scored,
        "sourceGameId": log.game,
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    started = datetime.fromisoformat(info.started.replace("Z", "+00:00"))
    assert play["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] == 0  # imported at once: no time passed
    assert play["location"] == "Kitchen table"
    for name, total in summary["totals"].items():
        assert f"{name} {total}" in play["comments"]

    first, places = EXPECTED[path.stem]
    assert [player["name"] for player in play["players"]] == log.players
    for player in play["players"]:
        name = player["name"]
        expected = {
            "name": name,
            "winner": name in summary["winners"],
            "rank": places[name],
            "startPlayer": name == first,
            "role": "",
            "sourcePlayerId": name.casefold(),
        }
        if scored:
            expected["score"] = summary["totals"][name]
        assert player == expected
    store.close()


def test_the_length_is_the_minutes_from_start_to_the_last_change(
    tmp_path: Path,
) -> None:
    log = loads((ROOT / "examples" / "cursed-tricks.json").read_text())
    store, game_id = stored(tmp_path, log)
    info = store.load(game_id).info
    info.started, info.updated = "2026-03-01T19:00:00.000Z", "2026-03-01T20:14:40.000Z"
    play = decoded(bgstats.link(info, store.replay(game_id)))
    assert (play["playDate"], play["durationMin"]) == ("2026-03-01 19:00:00", 75)
    assert "location" not in play
    store.close()


def test_the_comments_follow_the_language(tmp_path: Path) -> None:
    log = loads((ROOT / "examples" / "trick-runaway.json").read_text())
    store, game_id = stored(tmp_path, log)
    info = store.load(game_id).info
    english = decoded(bgstats.link(info, store.replay(game_id), "en"))["comments"]
    japanese = decoded(bgstats.link(info, store.replay(game_id), "ja"))["comments"]
    assert english.startswith("Life: ")
    assert japanese != english and "Ben 16" in japanese
    store.close()


def test_an_unfinished_game_is_not_sent(tmp_path: Path) -> None:
    log = loads((ROOT / "examples" / "cursed-tricks.json").read_text())
    store, game_id = stored(tmp_path, log.with_events(log.events[:10]))
    with pytest.raises(ValueError):
        bgstats.link(store.load(game_id).info, store.replay(game_id))
    store.close()
