"""Compare-and-set: a write meant for an older revision of a game is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import StaleGameError, StoreError
from companion.store import Store
from tests.companion.test_store import data_files, filler, header, knock_out


def test_every_write_moves_the_revision_and_a_stale_one_is_refused(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    rev = store.revision(game_id)
    assert store.load(game_id).rev == rev == store.list_games()[0].rev
    store.append(game_id, filler(0), expected_rev=rev)
    assert store.revision(game_id) == rev + 1
    generation = store.generation
    before = data_files(tmp_path)
    writes = [
        lambda: store.append(game_id, filler(1), expected_rev=rev),
        lambda: store.undo(game_id, expected_rev=rev),
        lambda: store.redo(game_id, expected_rev=rev),
        lambda: store.replace_event(game_id, 1, filler(0), expected_rev=rev),
        lambda: store.delete_event(game_id, 1, expected_rev=rev),
        lambda: store.finish(game_id, abandon=True, expected_rev=rev),
        lambda: store.delete_game(game_id, expected_rev=rev),
    ]
    for write in writes:
        with pytest.raises(StaleGameError, match="on another screen") as info:
            write()
        assert isinstance(info.value, StoreError)
    assert data_files(tmp_path) == before
    assert store.generation == generation  # nothing moved for screens to redraw
    current = store.revision(game_id)
    store.undo(game_id, expected_rev=current)
    store.delete_game(game_id, expected_rev=current + 1)
    with pytest.raises(StaleGameError):
        store.restore_game(game_id, expected_rev=current)
    store.restore_game(game_id, expected_rev=current + 2)
    assert not store.load(game_id).info.deleted


def test_without_an_expected_revision_writes_go_through(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    for event in knock_out("Ann", "Ben"):
        store.append(game_id, event)
    assert store.load(game_id).info.finished
    assert store.revision(game_id) == 1 + len(knock_out("Ann", "Ben"))
