"""Kept summaries, the statistics' tally and the list's pages always equal a
recount from the stored logs, whatever happened to the games and the file."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import stats
from companion.errors import CompanionError
from companion.listing import Listing, known_players, past_games
from companion.log import GameLog, loads
from companion.replay import replay
from companion.store import Store
from companion.summaries import SUMMARIES_FILE, Summaries, summaries_of, summarise

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def example(name: str) -> GameLog:
    return loads((ROOT / "examples" / name).read_text(encoding="utf-8"))


def lines(folder: Path) -> dict[str, dict[str, Any]]:
    """The summaries file: each game's last line, after the line of the rules."""
    text = (folder / SUMMARIES_FILE).read_text(encoding="utf-8").splitlines()
    assert set(json.loads(text[0])) == {"rules"}
    kept: dict[str, dict[str, Any]] = {}
    for line in map(json.loads, text[1:]):
        if "gone" in line:
            del kept[line["gone"]]
        else:
            kept[line["game"]["info"]["id"]] = line["game"]
    return kept


def recounted(store: Store) -> list[stats.PlayerFigures]:
    """The figures from a fresh replay of every stored game, nothing kept."""
    games = []
    for info in store.list_games():
        stored = store.load(info.id)
        games.append(summarise(stored.info, replay(stored.log).summary()))
    return stats.player_figures(games)


def same_figures(got: list[stats.PlayerFigures], want: list[stats.PlayerFigures]):
    assert [record.name for record in got] == [record.name for record in want]
    for mine, theirs in zip(got, want, strict=True):
        assert mine.by_game == theirs.by_game
        assert {key: vars(rival) for key, rival in mine.rivals.items()} == {
            key: vars(rival) for key, rival in theirs.rivals.items()
        }


def check(store: Store) -> None:
    """Statistics, per game too, and every list page equal a recount."""
    same_figures(stats.statistics(store).players, recounted(store))
    for game in {info.game for info in store.list_games()}:
        shown = stats.statistics(store, game).players
        games = [summary for summary in stats.gather(store, game).games]
        same_figures(shown, stats.player_figures(games))
    every = store.list_games(include_deleted=True)
    for trash in (False, True):
        wanted = [info.id for info in every if info.deleted == trash]
        page = past_games(store, trash=trash, count=1000)
        assert [info.id for info in page.games] == wanted
        assert page.total == len(wanted)


def test_the_summaries_are_kept_beside_the_store_and_marked(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    ids = [store.import_log(loads(path.read_text())) for path in EXAMPLES]
    check(store)
    kept = lines(tmp_path)
    assert set(kept) == set(ids)
    for game_id in ids:
        info = kept[game_id]["info"]
        assert (info["rev"], info["updated"]) == (
            store.revision(game_id),
            store.load(game_id).info.updated,
        )


def test_opening_again_replays_nothing_and_a_change_replays_one_game(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path, fsync=False)
    for path in EXAMPLES:
        store.import_log(loads(path.read_text()))
    whole = example("cursed-tricks.json")
    playing = store.import_log(whole.with_events(whole.events[:20]))
    stats.statistics(store)
    # Another run: the kept file answers, no log is replayed.
    again = Summaries(Store(tmp_path, fsync=False))
    again.sync()
    assert again.recounted == 0
    kept = summaries_of(store)
    before = kept.recounted
    store.append(playing, whole.events[20])
    stats.statistics(store)
    assert kept.recounted == before + 1
    stats.statistics(store)
    assert kept.recounted == before + 1
    check(store)


def test_deleting_the_file_loses_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    for path in EXAMPLES:
        store.import_log(loads(path.read_text()))
    shown = stats.statistics(store).players
    (tmp_path / SUMMARIES_FILE).unlink()
    fresh = Store(tmp_path, fsync=False)
    same_figures(stats.statistics(fresh).players, shown)
    assert (tmp_path / SUMMARIES_FILE).exists()
    summaries_of(fresh).rebuild()
    same_figures(stats.statistics(fresh).players, shown)


def test_a_summary_not_of_the_stored_log_is_recounted(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.import_log(example("cursed-tricks.json"))
    stats.statistics(store)
    entry = lines(tmp_path)[game_id]
    entry["totals"] = {name: 99 for name in entry["totals"]}
    entry["info"]["rev"] += 7  # a revision the game never had with this log
    with (tmp_path / SUMMARIES_FILE).open("a", encoding="utf-8") as file:
        file.write(json.dumps({"game": entry}) + "\n")
    fresh = Store(tmp_path, fsync=False)
    same_figures(stats.statistics(fresh).players, recounted(fresh))
    assert summaries_of(fresh).recounted == 1


def test_a_damaged_or_foreign_file_is_recounted(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    for path in EXAMPLES[:3]:
        store.import_log(loads(path.read_text()))
    path = tmp_path / SUMMARIES_FILE
    for text in ("{not json", json.dumps({"rules": "other"}), "[]", ""):
        path.write_text(text, encoding="utf-8")
        fresh = Store(tmp_path, fsync=False)
        same_figures(stats.statistics(fresh).players, recounted(fresh))
        assert summaries_of(fresh).recounted == 3


def test_another_process_writing_is_seen(tmp_path: Path) -> None:
    mine = Store(tmp_path, fsync=False)
    mine.import_log(example("cursed-tricks.json"))
    check(mine)
    other = Store(tmp_path, fsync=False)
    other.import_log(example("black-hearts.json"))
    other.delete_game(other.list_games()[-1].id)
    check(mine)


def test_a_log_that_no_longer_replays_is_counted_apart(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    good = store.import_log(example("cursed-tricks.json"))
    bad = store.import_log(example("black-hearts.json"))
    doc_file = tmp_path / "archive.json"
    data = json.loads(doc_file.read_text(encoding="utf-8"))
    for doc in data["games"].values():
        if doc["id"] == bad:
            log = json.loads(doc["log"])
            log["events"][3]["cards"] = ["Z99"]
            doc["log"] = json.dumps(log)
    doc_file.write_text(json.dumps(data), encoding="utf-8")
    fresh = Store(tmp_path, fsync=False)
    found = stats.statistics(fresh)
    assert found.broken == [bad]
    assert all(set(record.by_game) == {"cursed-tricks"} for record in found.players)
    assert [info.id for info in past_games(fresh).games] == [bad, good]


def test_pages_and_names_newest_first(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    logs = [example("cursed-tricks.json"), example("trick-runaway-5p.json")] * 3
    ids = [store.import_log(log) for log in logs]
    newest = ids[::-1]
    first = past_games(store, count=4)
    assert ([info.id for info in first.games], first.total, first.more) == (
        newest[:4],
        6,
        True,
    )
    rest = past_games(store, offset=4, count=4)
    assert [info.id for info in rest.games] == newest[4:] and not rest.more
    # Past the end (games went meanwhile): the last page.
    assert past_games(store, offset=40, count=4).offset == 4
    eve = past_games(store, player="EVE", count=10)
    assert [info.id for info in eve.games] == newest[0::2]
    runaway = past_games(store, game="trick-runaway", player="ann", count=10)
    assert runaway.total == 3
    assert known_players(store) == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    store.delete_game(ids[-1])
    assert past_games(store, trash=True).total == 1
    assert past_games(store).total == 5


def test_an_empty_store_lists_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    page = past_games(store)
    assert (page.games, page.total, page.more) == ([], 0, False)
    assert stats.statistics(store).players == []
    assert Listing().players() == []


ACTIONS = (
    "import",
    "append",
    "undo",
    "finish",
    "abandon",
    "delete",
    "restore",
    "purge",
    "edit",
)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 50)), max_size=14))
def test_any_history_of_changes_keeps_everything_equal_to_a_recount(
    steps: list[tuple[str, int]],
) -> None:
    """Import, play, take back, finish, delete, restore, purge, correct: after
    each, what is kept equals a fresh recount."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(folder, fsync=False)
        logs = [loads(path.read_text()) for path in EXAMPLES]
        for action, pick in steps:
            games = store.list_games(include_deleted=True)
            chosen = games[pick % len(games)] if games else None
            try:
                if action == "import" or chosen is None:
                    log = logs[pick % len(logs)]
                    store.import_log(log.with_events(log.events[: pick * 7]))
                elif action == "append":
                    whole = next(
                        log
                        for log in logs
                        if log.game == chosen.game and log.players == chosen.players
                    )
                    events = store.load(chosen.id).log.events
                    if len(events) < len(whole.events):
                        store.append(chosen.id, whole.events[len(events)])
                elif action == "undo":
                    store.undo(chosen.id)
                elif action == "finish":
                    store.finish(chosen.id)
                elif action == "abandon":
                    store.finish(chosen.id, abandon=True)
                elif action == "delete":
                    store.delete_game(chosen.id)
                elif action == "restore":
                    store.restore_game(chosen.id)
                elif action == "purge":
                    store.purge_game(chosen.id)
                elif action == "edit":
                    store.delete_event(chosen.id, len(store.load(chosen.id).log.events))
            except (CompanionError, StopIteration):
                pass  # refused: nothing changed, which the check below sees too
            check(store)
        store.close()
