"""History and stats figures equal a recount from the stored logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import stats
from companion.games import all_games, describe
from companion.i18n import ui_keys
from companion.log import GameLog, loads
from companion.replay import replay
from companion.store import GameInfo, Store
from companion.summaries import GameSummary, summarise

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
ROUND_GAMES = {"cursed-tricks", "black-hearts", "trick-runaway"}


def example(name: str) -> GameLog:
    return loads((ROOT / "examples" / name).read_text(encoding="utf-8"))


def renamed(log: GameLog, old: str, new: str) -> GameLog:
    """The same game with one player written differently (names are JSON strings)."""
    text = json.dumps(log.to_dict()).replace(json.dumps(old), json.dumps(new))
    return GameLog.from_dict(json.loads(text))


def cut(log: GameLog, events: int) -> GameLog:
    return log.with_events(log.events[:events])


def recount(logs: list[GameLog]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per player (folded name) and game: played, wins and totals, from summaries."""
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for log in logs:
        summary = replay(log).summary()
        if not summary["finished"]:
            continue
        for name, total in summary["totals"].items():
            row = table.setdefault(name.lower(), {}).setdefault(
                log.game, {"played": 0, "wins": 0, "totals": [], "ranked": []}
            )
            row["played"] += 1
            row["wins"] += int(name in summary["winners"])
            row["totals"].append(total)
            row["ranked"].append(describe(log.game).best_of(summary, name))
    return table


def check_against_recount(
    figures: list[stats.PlayerFigures], logs: list[GameLog]
) -> None:
    expected = recount(logs)
    assert {record.name.lower() for record in figures} == set(expected)
    for record in figures:
        mine = expected[record.name.lower()]
        assert set(record.by_game) == set(mine)
        assert record.played == sum(row["played"] for row in mine.values())
        assert record.wins == sum(row["wins"] for row in mine.values())
        assert record.win_rate == pytest.approx(record.wins / record.played)
        for game, row in mine.items():
            got = record.by_game[game]
            assert (got.played, got.wins) == (row["played"], row["wins"])
            assert got.total == sum(row["totals"])
            assert got.average == pytest.approx(sum(row["totals"]) / row["played"])
            ranked = [best for best in row["ranked"] if best is not None]
            assert got.best == (max(ranked).value if ranked else None)


def filled_store(folder: Path, logs: list[GameLog]) -> Store:
    store = Store(folder, fsync=False)
    for log in logs:
        store.import_log(log)
    return store


def test_every_example_counts_once_per_player(tmp_path: Path) -> None:
    logs = [loads(path.read_text(encoding="utf-8")) for path in EXAMPLES]
    store = filled_store(tmp_path, logs)
    figures = stats.store_figures(store)
    check_against_recount(figures, logs)
    ann = next(record for record in figures if record.name == "Ann")
    # Ann plays in every example.
    assert ann.played == len(EXAMPLES)


def test_hand_counted_figures(tmp_path: Path) -> None:
    logs = [example("cursed-tricks.json"), example("black-hearts.json")]
    logs.append(renamed(example("black-hearts-all-curses.json"), "Ben", "ben"))
    store = filled_store(tmp_path, logs)
    ben = next(r for r in stats.store_figures(store) if r.name.lower() == "ben")
    # Cursed Tricks: Ben 35 and the win. Black Hearts: 11 (a win), then 8
    # in the game Cy won by taking every Curse card.
    assert ben.played == 3 and ben.wins == 2
    hearts = ben.by_game["black-hearts"]
    assert (hearts.played, hearts.wins, hearts.best) == (2, 1, 8)
    assert hearts.average == pytest.approx(9.5)
    assert ben.by_game["cursed-tricks"].best == 35
    # The newest game comes first, so its spelling names the player.
    assert ben.name == "ben"


def test_unfinished_and_abandoned_games_do_not_count(tmp_path: Path) -> None:
    whole = example("cursed-tricks.json")
    store = filled_store(tmp_path, [whole, cut(whole, 20), cut(whole, 40)])
    live = store.unfinished()
    store.finish(live[0].id, abandon=True)
    assert len(store.list_games()) == 3
    figures = stats.store_figures(store)
    check_against_recount(figures, [whole])
    assert all(record.played == 1 for record in figures)


def test_filters_by_game_and_player(tmp_path: Path) -> None:
    logs = [
        example("cursed-tricks.json"),
        example("trick-runaway-5p.json"),
        example("wolf-x-trick.json"),
    ]
    store = filled_store(tmp_path, logs)
    only_wolf = stats.store_figures(store, game="wolf-x-trick")
    check_against_recount(only_wolf, [logs[2]])
    with_eve = stats.gather(store, player="eve")
    assert [played.info.game for played in with_eve.games] == ["trick-runaway"]
    assert with_eve.broken == []


def test_round_table_matches_the_summary() -> None:
    for path in EXAMPLES:
        result = replay(loads(path.read_text(encoding="utf-8")))
        summary = result.summary()
        table = stats.round_table(result)
        assert table.players == result.log.players
        assert table.rows == [entry["scores"] for entry in summary["rounds"]]
        assert table.totals == summary["totals"]


def check_series(log: GameLog) -> None:
    result = replay(log)
    summary = result.summary()
    series = stats.chart_series(result)
    players = log.players
    assert series.players == players
    assert series.measure == stats.MEASURES[log.game]
    start = series.steps[0]
    assert start.number == 0
    if log.game == "trick-runaway":
        assert set(start.values.values()) == {result.state.options["life"]}
    else:
        assert set(start.values.values()) == {5 if log.game == "cursed" else 0}
    later = series.steps[1:]
    if log.game in ROUND_GAMES:
        assert series.kind == stats.ROUND_STEP
        assert [step.number for step in later] == list(
            range(1, len(summary["rounds"]) + 1)
        )
        running = dict(start.values)
        for step, entry in zip(later, summary["rounds"], strict=True):
            for name in players:
                score = entry["scores"][name]
                running[name] = (
                    score if log.game == "trick-runaway" else running[name] + score
                )
            assert step.values == running
        # Trick Runaway's life moves during a round; the others' totals only
        # change when a round ends.
        between_rounds = "trick" not in result.prompt().expects
        if log.game != "trick-runaway" or between_rounds:
            assert series.steps[-1].values == summary["totals"]
    elif log.game == "wolf-x-trick":
        assert series.kind == stats.PILE_STEP
        piles = {name: summary["players"][name]["piles"] for name in players}
        assert len(later) == sum(len(p) for p in piles.values())
        seen: dict[str, list[int]] = {name: [] for name in players}
        for before, after in zip(series.steps, later, strict=False):
            changed = [n for n in players if after.values[n] != before.values[n]]
            assert len(changed) == 1  # a pile is never worth 0
            name = changed[0]
            seen[name].append(after.values[name] - before.values[name])
        assert seen == piles
        assert series.steps[-1].values == summary["totals"]
    else:
        assert series.kind == stats.EVENT_STEP
        numbers = [
            number
            for number, event in enumerate(log.events, start=1)
            if event["type"] in ("spell", "set")
        ]
        assert [step.number for step in later] == numbers
        assert series.steps[-1].values == summary["totals"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_series_of_every_example(path: Path) -> None:
    check_series(loads(path.read_text(encoding="utf-8")))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_series_of_any_part_of_a_game(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(EXAMPLES))
    log = loads(path.read_text(encoding="utf-8"))
    check_series(cut(log, data.draw(st.integers(0, len(log.events)))))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(EXAMPLES), st.booleans(), st.floats(0, 1)),
        min_size=1,
        max_size=6,
    )
)
def test_figures_of_any_set_of_games(
    picks: list[tuple[Path, bool, float]],
) -> None:
    logs: list[GameLog] = []
    for path, lower_ann, kept in picks:
        log = loads(path.read_text(encoding="utf-8"))
        if lower_ann:
            log = renamed(log, "Ann", "ANN")
        logs.append(cut(log, round(len(log.events) * kept)))
    store = Store("unused", memory=True)
    for log in logs:
        store.import_log(log)
    check_against_recount(stats.store_figures(store), logs)


# "best" follows each game's own win rule


def finished(
    game: str,
    totals: dict[str, int],
    winners: list[str],
    views: dict[str, dict[str, Any]] | None = None,
) -> GameSummary:
    """A finished game as the statistics see it: its listing and its summary."""
    info = GameInfo(
        id=f"{game}-{len(totals)}-{sum(totals.values())}",
        game=game,
        players=list(totals),
        started="2026-01-01T00:00:00.000Z",
        finished=True,
        winners=winners,
    )
    summary = {
        "game": game,
        "finished": True,
        "winners": winners,
        "totals": totals,
        "rounds": [],
        "leader": None,
        "players": views or {name: {} for name in totals},
    }
    return summarise(info, summary)


def ann_at(games: list[GameSummary], game: str) -> stats.GameFigures:
    ann = next(r for r in stats.player_figures(games) if r.name == "Ann")
    return ann.by_game[game]


def test_best_at_cursed_tricks_is_the_highest_total() -> None:
    games = [
        finished("cursed-tricks", {"Ann": 30, "Ben": 12, "Cy": 9}, ["Ann"]),
        finished("cursed-tricks", {"Ann": 14, "Ben": 40, "Cy": 9}, ["Ben"]),
    ]
    assert ann_at(games, "cursed-tricks").best == 30


def test_best_at_black_hearts_is_the_lowest_total() -> None:
    games = [
        finished("black-hearts", {"Ann": 14, "Ben": 3, "Cy": 9}, ["Ben"]),
        finished("black-hearts", {"Ann": 5, "Ben": 13, "Cy": 9}, ["Ann"]),
        finished("black-hearts", {"Ann": 9, "Ben": 13, "Cy": 2}, ["Cy"]),
    ]
    assert ann_at(games, "black-hearts").best == 5


def test_best_at_wolf_x_trick_is_the_nearest_to_a_win() -> None:
    # The highest total (9) is far from winning; 3 missed Ben's 6 by three.
    games = [
        finished("wolf-x-trick", {"Ann": 9, "Ben": 5, "Cy": 2}, ["Ben"]),
        finished("wolf-x-trick", {"Ann": 3, "Ben": 6, "Cy": 7}, ["Ben"]),
    ]
    assert ann_at(games, "wolf-x-trick").best == 3
    # A win beats any near miss, whatever its points.
    games.append(finished("wolf-x-trick", {"Ann": -1, "Ben": 6, "Cy": 7}, ["Ann"]))
    assert ann_at(games, "wolf-x-trick").best == -1
    # A draw has no winner to come near.
    draw = [finished("wolf-x-trick", {"Ann": 2, "Ben": 2}, [])]
    assert ann_at(draw, "wolf-x-trick").best is None


def runaway(ann_life: int, ann_out: bool) -> GameSummary:
    lives = {"Ann": ann_life, "Ben": 10, "Cy": 4, "Dee": 7}
    views = {name: {"eliminated": False} for name in lives}
    views["Ann"] = {"eliminated": ann_out}
    views["Cy"] = {"eliminated": not ann_out}
    winners = [name for name in lives if not views[name]["eliminated"]]
    return finished("trick-runaway", lives, winners, views)


def test_best_at_trick_runaway_is_the_most_life_survived_with() -> None:
    games = [runaway(8, False), runaway(16, False), runaway(18, True)]
    assert ann_at(games, "trick-runaway").best == 16
    assert ann_at([runaway(18, True)], "trick-runaway").best is None


def test_best_at_cursed_is_the_fortunes_left_in_a_win() -> None:
    games = [
        finished("cursed", {"Ann": 3, "Ben": 0}, ["Ann"]),
        finished("cursed", {"Ann": 0, "Ben": 5}, ["Ben"]),
        finished("cursed", {"Ann": 2, "Ben": 0}, ["Ann"]),
    ]
    assert ann_at(games, "cursed").best == 3
    assert ann_at(games[1:2], "cursed").best is None


def test_rivals_met_most_and_the_record_against_each(tmp_path: Path) -> None:
    logs = [loads(path.read_text(encoding="utf-8")) for path in EXAMPLES]
    figures = stats.store_figures(filled_store(tmp_path, logs))
    for record in figures:
        for rival in record.rivals.values():
            together = [
                replay(log).summary()
                for log in logs
                if record.name in log.players and rival.name in log.players
            ]
            done = [summary for summary in together if summary["finished"]]
            assert rival.met == len(done)
            assert rival.won == sum(record.name in s["winners"] for s in done)
            assert rival.lost == sum(rival.name in s["winners"] for s in done)
        met = [rival.met for rival in record.most_met(len(record.rivals))]
        assert met == sorted(met, reverse=True)


def test_every_game_words_its_best_and_its_units_in_both_languages() -> None:
    for lang in ("en", "ja"):
        keys = ui_keys(lang)
        for game in all_games():
            assert f"stats.best-rule.{game.best_rule}" in keys
            assert f"unit.{game.unit}" in keys
            assert f"units.{game.unit}" in keys
