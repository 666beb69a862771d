"""A clock ahead or behind costs nothing: no step of the store waits for it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import store as store_module
from companion.replay import replay
from companion.storage import AtomicJSONStorage
from companion.store import LIVE_FILE, Store, game_document
from tests.companion.test_store import filler, header

# Stamps written by devices whose clocks were a year ahead and a year behind.
YEAR_AHEAD = "2999-01-01T00:00:00.000Z"
YEAR_BEHIND = "1999-01-01T00:00:00.000Z"


def plant(folder: Path, started: str) -> str:
    """A game in progress stored by a device whose clock said ``started``."""
    game_id = started[:10].replace("-", "") + "-000000-beef"
    result = replay(header().with_events([filler(0)]))
    doc = game_document(game_id, started, result, archived=False)
    AtomicJSONStorage(folder / LIVE_FILE, fsync=False).write({"games": {"1": doc}})
    return game_id


def counting(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str
) -> Callable[[], int]:
    calls = 0
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return lambda: calls


@pytest.mark.parametrize("started", [YEAR_AHEAD, YEAR_BEHIND])
def test_a_game_stamped_a_year_off_costs_the_next_import_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: str
) -> None:
    planted = plant(tmp_path, started)
    store = Store(tmp_path, fsync=False)
    stamps = counting(monkeypatch, store_module, "_stamp")

    first = store.import_log(header().with_events([filler(0)]))
    second = store.import_log(header().with_events([filler(0)]))

    # One stamp per game: no step of the clock is counted off to get past
    # the planted one, however far off it is.
    assert stamps() == 2
    # The games stored last list first, whatever the clocks said.
    ids = [info.id for info in store.list_games()]
    assert ids == [second, first, planted]
    assert [info.id for info in store.unfinished()] == ids


@pytest.mark.parametrize("started", [YEAR_AHEAD, YEAR_BEHIND])
def test_playing_a_game_stamped_a_year_off_counts_no_clock_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: str
) -> None:
    planted = plant(tmp_path, started)
    store = Store(tmp_path, fsync=False)
    stamps = counting(monkeypatch, store_module, "_stamp")
    for number in range(1, 4):
        store.append(planted, filler(number))
    store.undo(planted)
    assert stamps() == 4  # one "last changed" stamp per change
    assert store.load(planted).info.started == started
