"""Every game's CSV recounts to its summary, in both languages.

The rows are read back as a player would read the paper: the last running
total, the last life, the piles added up, the fortunes still standing.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.export import cell_text, game_csv, sheet_rows
from companion.games.base import Say
from companion.i18n import LANGUAGES
from companion.log import GameLog, loads
from companion.replay import replay
from tests.companion.games.test_contract import GAMES_AND_COUNTS, play_out

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))
STANDING = ("blessed", "neutral")


def recount(log: GameLog) -> dict[str, int]:
    """Each player's figure as the CSV's rows give it (English cells)."""
    columns, rows = sheet_rows(log)
    keys = [column.key for column in columns]
    players = list(log.players)
    table = [[cell_text(cell, "en") for cell in row] for row in rows]
    found: dict[str, int] = {}
    if "export.pile" in keys:
        points: dict[str, int] = defaultdict(int)
        for row in table:
            if row[0] == "Final":
                found[row[1]] = int(row[3])
            else:
                points[row[1]] += int(row[2])
        assert not found or found == {name: points[name] for name in players}
        return {name: points[name] for name in players}
    for at, column in enumerate(columns):
        if column.key in ("export.total-of", "export.life-of") and table:
            found[column.name] = int(table[-1][at])
        elif column.key == "export.fortune-of":
            last = table[-1][at] if table else "neutral"
            found.setdefault(column.name, 0)
            found[column.name] += last in STANDING
    return found


def check(log: GameLog) -> None:
    summary = replay(log).summary()
    counted = recount(log)
    _, rows = sheet_rows(log)
    if not rows and summary["rounds"] == []:
        # nothing written yet: nothing to recount beyond the headings
        return
    assert counted == summary["totals"]
    for lang in LANGUAGES:
        text = game_csv(log, lang)
        read = list(csv.reader(io.StringIO(text)))
        assert len(read) == len(rows) + 1
        assert all(len(line) == len(read[0]) for line in read)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_recounts_to_its_summary(path: Path) -> None:
    check(loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(("slug", "count"), GAMES_AND_COUNTS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_finished_games_recount(slug: str, count: int, seed: int) -> None:
    table = play_out(slug, count, seed)
    assert table.replay.state.finished
    check(table.replay.log)


def test_headings_speak_the_readers_language() -> None:
    log = loads(EXAMPLES[0].read_text(encoding="utf-8"))
    english, japanese = (game_csv(log, lang).splitlines()[0] for lang in LANGUAGES)
    assert english != japanese
    assert all(name in japanese for name in log.players)


def test_round_rows_name_each_players_points_and_running_total() -> None:
    log = next(
        loads(path.read_text(encoding="utf-8"))
        for path in EXAMPLES
        if path.stem.startswith("cursed-tricks")
    )
    columns, rows = sheet_rows(log)
    assert columns[:3] == [
        Say("export.round"),
        Say("export.points-of", log.players[0]),
        Say("export.total-of", log.players[0]),
    ]
    running: dict[int, int] = defaultdict(int)
    for row in rows:
        values: list[Any] = row[1:]
        for seat in range(len(log.players)):
            running[seat] += int(values[2 * seat])
            assert running[seat] == values[2 * seat + 1]
