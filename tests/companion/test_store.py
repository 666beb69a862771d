"""The store's API on real TinyDB files (and TinyDB's MemoryStorage)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import store as store_module
from companion.errors import FormatError, LogError, RuleError, StoreError
from companion.log import GameLog, dumps, loads
from companion.paths import data_dir
from companion.replay import replay
from companion.store import ARCHIVE_FILE, LIVE_FILE, SCHEMA, Store
from tests.companion.command import companion

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
FORTUNES = ["wealth", "health", "love", "fate", "luck"]


# Logs of CURSED! to store: small, and every event is easy to make up.


def spell(caster: str, target: str, fortune: str, effect: str = "curse") -> dict:
    return {
        "type": "spell",
        "caster": caster,
        "target": target,
        "fortune": fortune,
        "effect": effect,
    }


def filler(number: int) -> dict:
    """Event ``number`` of a game that never ends: Ben's luck goes up and down."""
    return spell("Ann", "Ben", "luck", "curse" if number % 2 == 0 else "bless")


def header(*players: str) -> GameLog:
    return GameLog("cursed", list(players or ("Ann", "Ben")))


def knock_out(caster: str, target: str) -> list[dict]:
    return [spell(caster, target, fortune) for fortune in FORTUNES]


def data_files(folder: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.iterdir())
        if path.is_file() and path.name != ".lock"
    }


Reopen = Callable[[], Store]


@pytest.fixture(params=["file", "memory"])
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Reopen:
    """Opens the store again (a new process would see the same on disk)."""
    if request.param == "memory":
        memory = Store(tmp_path, memory=True)
        return lambda: memory
    return lambda: Store(tmp_path / "data", fsync=False)


@pytest.fixture
def store(reopen: Reopen) -> Store:
    return reopen()


def test_a_new_game_reads_back_as_written(store: Store, reopen: Reopen) -> None:
    log = header("Ann", "Ben", "Cy")
    game_id = store.create_game(log)
    stored = reopen().load(game_id)
    assert stored.log == log
    assert stored.redo == []
    assert stored.info.players == ["Ann", "Ben", "Cy"]
    assert stored.info.state == "in progress"
    assert stored.info.started.endswith("Z")


def test_appended_events_read_back_and_replay(store: Store, reopen: Reopen) -> None:
    game_id = store.create_game(header())
    for number in range(6):
        result = store.append(game_id, filler(number))
    assert len(result.log.events) == 6
    stored = reopen().load(game_id)
    assert stored.log.events == [filler(number) for number in range(6)]
    assert stored.info.events == 6
    assert reopen().replay(game_id).summary() == result.summary()


def test_a_refused_event_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    store.append(game_id, filler(0))
    before = data_files(tmp_path)
    with pytest.raises(LogError) as caught:
        store.append(game_id, spell("Ann", "Zed", "luck"))
    assert caught.value.event == 2
    with pytest.raises(FormatError):
        store.append(game_id, {"type": "spell", "bad": {1, 2}})
    assert data_files(tmp_path) == before
    assert store.load(game_id).log.events == [filler(0)]


def test_an_unknown_game_id_is_a_store_error(store: Store) -> None:
    with pytest.raises(StoreError, match="nope"):
        store.load("nope")
    with pytest.raises(StoreError):
        store.append("nope", filler(0))


def test_undo_and_redo(store: Store, reopen: Reopen) -> None:
    game_id = store.create_game(header())
    for number in range(3):
        store.append(game_id, filler(number))
    store.undo(game_id)
    result = store.undo(game_id)
    assert result.log.events == [filler(0)]
    assert reopen().load(game_id).redo == [filler(2), filler(1)]
    result = reopen().redo(game_id)
    assert result.log.events == [filler(0), filler(1)]
    assert store.load(game_id).redo == [filler(2)]
    store.redo(game_id)
    with pytest.raises(StoreError, match="nothing to redo"):
        store.redo(game_id)
    for _ in range(3):
        store.undo(game_id)
    with pytest.raises(StoreError, match="nothing to undo"):
        store.undo(game_id)


def test_recording_a_new_event_drops_the_redo_stack(store: Store) -> None:
    game_id = store.create_game(header())
    for number in range(3):
        store.append(game_id, filler(number))
    store.undo(game_id)
    store.undo(game_id)
    # The same event as the next redo keeps the rest of the stack...
    store.append(game_id, filler(1))
    assert store.load(game_id).redo == [filler(2)]
    store.undo(game_id)
    # ...another one starts a new line of events.
    store.append(game_id, spell("Ben", "Ann", "love", "bless"))
    assert store.load(game_id).redo == []


def test_undo_after_the_end_reopens_the_game(store: Store) -> None:
    game_id = store.create_game(header())
    for event in knock_out("Ann", "Ben"):
        result = store.append(game_id, event)
    assert result.summary()["winners"] == ["Ann"]
    assert store.load(game_id).info.archived  # the last event archived it
    store.finish(game_id)
    assert store.unfinished() == []
    result = store.undo(game_id)
    assert not result.state.finished
    info = store.load(game_id).info
    assert (info.archived, info.finished, info.state) == (False, False, "in progress")
    assert [g.id for g in store.unfinished()] == [game_id]


def three_player_game(store: Store) -> str:
    game_id = store.create_game(header("Ann", "Ben", "Cy"))
    for event in [
        *knock_out("Ann", "Ben")[:4],
        spell("Ann", "Cy", "luck"),
        spell("Ben", "Cy", "luck", "bless"),
    ]:
        store.append(game_id, event)
    return game_id


def test_replace_a_past_event(store: Store, reopen: Reopen) -> None:
    game_id = three_player_game(store)
    result = store.replace_event(game_id, 1, spell("Cy", "Ben", "wealth"))
    assert result.log.events[0] == spell("Cy", "Ben", "wealth")
    assert reopen().load(game_id).log.events == result.log.events
    with pytest.raises(StoreError, match="no event 9"):
        store.replace_event(game_id, 9, filler(0))


def test_an_edit_that_breaks_a_later_event_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = three_player_game(store)
    store.undo(game_id)
    store.redo(game_id)
    before_files = data_files(tmp_path)
    before = store.load(game_id)
    # Ben's fifth curse puts him out, so his spell in event 6 cannot happen.
    with pytest.raises(RuleError) as caught:
        store.replace_event(game_id, 5, spell("Ann", "Ben", "luck"))
    assert caught.value.event == 6
    assert store.load(game_id) == before
    assert data_files(tmp_path) == before_files


def test_delete_a_past_event(store: Store) -> None:
    game_id = three_player_game(store)
    result = store.delete_event(game_id, 5)
    assert len(result.log.events) == 5
    assert store.load(game_id).log.events[-1] == spell("Ben", "Cy", "luck", "bless")
    with pytest.raises(StoreError):
        store.delete_event(game_id, 0)


def test_the_last_event_moves_the_game_to_the_archive(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    for event in knock_out("Ann", "Ben"):
        store.append(game_id, event)
    store.finish(game_id)  # twice does no harm
    live = json.loads((tmp_path / LIVE_FILE).read_text())
    archive = json.loads((tmp_path / ARCHIVE_FILE).read_text())
    assert game_id not in json.dumps(live)
    assert [doc["id"] for doc in archive["games"].values()] == [game_id]
    info = Store(tmp_path).load(game_id).info
    assert (info.finished, info.winners, info.state) == (True, ["Ann"], "finished")


def test_an_unfinished_game_is_archived_only_as_abandoned(store: Store) -> None:
    game_id = store.create_game(header())
    store.append(game_id, filler(0))
    with pytest.raises(StoreError, match="not over"):
        store.finish(game_id)
    store.finish(game_id, abandon=True)
    info = store.load(game_id).info
    assert (info.archived, info.finished, info.state) == (True, False, "abandoned")
    assert store.unfinished() == []
    store.append(game_id, filler(1))  # picking it up again
    assert [g.id for g in store.unfinished()] == [game_id]


def test_delete_and_restore(store: Store, reopen: Reopen) -> None:
    playing = store.create_game(header())
    done = store.create_game(header("Cy", "Dee"))
    for event in knock_out("Cy", "Dee"):
        store.append(done, event)
    store.finish(done)
    for game_id in (playing, done):
        store.delete_game(game_id)
        store.delete_game(game_id)
    assert reopen().list_games() == []
    assert {g.state for g in store.list_games(include_deleted=True)} == {"deleted"}
    with pytest.raises(StoreError, match="trash"):
        store.append(playing, filler(0))
    for game_id in (playing, done):
        store.restore_game(game_id)
    states = {g.id: g.state for g in reopen().list_games()}
    assert states == {playing: "in progress", done: "finished"}
    assert [g.id for g in store.unfinished()] == [playing]
    store.append(playing, filler(0))


def test_purge_removes_only_deleted_games(store: Store) -> None:
    game_id = store.create_game(header())
    with pytest.raises(StoreError, match="not in the trash"):
        store.purge_game(game_id)
    store.delete_game(game_id)
    store.purge_game(game_id)
    assert store.list_games(include_deleted=True) == []


def test_list_filters_and_order(store: Store) -> None:
    first = store.create_game(header("Ann", "Ben"))
    second = store.create_game(header("Cy", "Ann", "Dee"))
    third = store.import_log(loads((ROOT / "examples/wolf-x-trick.json").read_text()))
    assert [g.id for g in store.list_games()] == [third, second, first]
    assert [g.id for g in store.list_games(game="cursed")] == [second, first]
    assert [g.id for g in store.list_games(player="ann")] == [third, second, first]
    assert [g.id for g in store.list_games(player="Dee")] == [third, second]
    assert [g.id for g in store.list_games(game="cursed", player="Ben")] == [first]
    assert store.list_games(game="black-hearts") == []
    # An imported game that is over goes straight to the archive.
    assert store.load(third).info.state == "finished"
    assert [g.id for g in store.unfinished()] == [second, first]


def test_game_ids_are_unique_and_sort_by_creation(store: Store) -> None:
    ids = [store.create_game(header()) for _ in range(30)]
    assert len(set(ids)) == 30
    assert ids == sorted(ids, key=lambda game_id: game_id[:15])
    assert all(len(game_id) == 20 for game_id in ids)


def test_known_players_most_recent_first(store: Store) -> None:
    store.create_game(header("Ann", "Ben"))
    gone = store.create_game(header("Zed", "Yan"))
    store.create_game(header("Cy", "Ann"))
    store.delete_game(gone)
    assert store.known_players() == ["Cy", "Ann", "Ben"]


def test_table_options_are_remembered(store: Store, reopen: Reopen) -> None:
    assert store.table_options("trick-runaway") == {}
    store.remember_options("trick-runaway", {"escape_track": [0, -2, -3, -4]})
    store.remember_options("trick-runaway", {"life": 17, "damage_track": [-2, 0, 3]}, 4)
    store.remember_options("trick-runaway", {"life": 15}, players=5)
    store.remember_options("trick-runaway", {"life": 16}, players=5)
    store.remember_options(
        "black-hearts", {"curse_points": {"C1": 1}, "two_oclock": "F2"}
    )
    again = reopen()
    assert again.table_options("trick-runaway", players=5) == {
        "escape_track": [0, -2, -3, -4],
        "life": 16,
    }
    assert again.table_options("trick-runaway", 4)["damage_track"] == [-2, 0, 3]
    assert again.table_options("trick-runaway") == {"escape_track": [0, -2, -3, -4]}
    assert again.table_options("black-hearts")["curse_points"] == {"C1": 1}
    with pytest.raises(StoreError, match="Unknown game"):
        again.remember_options("chess", {})


def test_remembered_options_make_a_game_that_replays(store: Store) -> None:
    store.remember_options("wolf-x-trick", {"full_moon_ranks": [3, 8, 10]})
    options = store.table_options("wolf-x-trick")
    game_id = store.create_game(GameLog("wolf-x-trick", ["Ann", "Ben"], options))
    assert store.replay(game_id).log.options == {"full_moon_ranks": [3, 8, 10]}


def test_settings_read_back(store: Store, reopen: Reopen) -> None:
    assert store.get_setting("language", "en") == "en"
    store.set_setting("language", "ja")
    store.set_setting("recent", {"players": ["Ann"], "count": 2})
    store.set_setting("language", "fr")
    again = reopen()
    assert again.get_setting("language") == "fr"
    assert again.get_setting("recent") == {"players": ["Ann"], "count": 2}
    # What a caller does with a value it got does not reach the store.
    again.get_setting("recent")["players"].append("Ben")
    assert again.get_setting("recent")["players"] == ["Ann"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_imports_and_exports_unchanged(store: Store, path: Path) -> None:
    log = loads(path.read_text())
    game_id = store.import_log(log)
    stored = store.load(game_id)
    assert stored.log == log
    assert loads(dumps(stored.log)) == log
    assert stored.info.finished == replay(log).state.finished


def test_cached_outcome_can_be_recomputed(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.import_log(loads((ROOT / "examples" / "cursed.json").read_text()))
    # Spoil the cached figures behind the store's back: the log still knows.
    path = tmp_path / ARCHIVE_FILE
    data = json.loads(path.read_text())
    for doc in data["games"].values():
        doc["winners"] = ["Nobody"]
    path.write_text(json.dumps(data))
    store = Store(tmp_path, fsync=False)
    assert store.load(game_id).info.winners == ["Nobody"]
    assert store.refresh() == []
    stored = store.load(game_id)
    assert stored.info.winners == replay(stored.log).state.winners == ["Ann"]


def test_the_schema_version_is_stored(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    assert not (tmp_path / LIVE_FILE).exists()  # opening alone writes nothing
    store.create_game(header())
    assert json.loads((tmp_path / LIVE_FILE).read_text())["meta"] == {
        "1": {"schema": SCHEMA}
    }


def test_migrations_run_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = Store(tmp_path, fsync=False).create_game(header())
    seen: list[int] = []

    def rename_players(store: Store) -> None:
        seen.append(store.schema())

    monkeypatch.setattr(store_module, "SCHEMA", SCHEMA + 1)
    monkeypatch.setitem(store_module.MIGRATIONS, SCHEMA, rename_players)
    store = Store(tmp_path, fsync=False)
    assert seen == [SCHEMA]
    assert store.schema() == SCHEMA + 1
    assert store.load(game_id).log == header()


def test_data_from_a_newer_app_is_refused(tmp_path: Path) -> None:
    Store(tmp_path, fsync=False).create_game(header())
    path = tmp_path / LIVE_FILE
    data = json.loads(path.read_text())
    data["meta"] = {"1": {"schema": SCHEMA + 1}}
    path.write_text(json.dumps(data))
    with pytest.raises(StoreError, match="newer version"):
        Store(tmp_path)


def test_a_move_cut_short_by_a_crash_is_settled(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    game_id = store.create_game(header())
    for event in knock_out("Ann", "Ben"):
        store.append(game_id, event)
        if len(store.load(game_id).log.events) == 4:
            live_before = (tmp_path / LIVE_FILE).read_bytes()
    # The fifth curse ended the game and moved it to the archive; as if the
    # crash came after the archive was written, before live was:
    (tmp_path / LIVE_FILE).write_bytes(live_before)
    store = Store(tmp_path, fsync=False)
    assert [g.id for g in store.list_games()] == [game_id]
    assert store.load(game_id).info.archived
    assert store.unfinished() == []


def test_recording_writes_only_the_small_file(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    for _ in range(20):
        store.import_log(loads((ROOT / "examples" / "cursed.json").read_text()))
    game_id = store.create_game(header())
    archive = (tmp_path / ARCHIVE_FILE).stat()
    store.append(game_id, filler(0))
    assert (tmp_path / ARCHIVE_FILE).stat().st_mtime_ns == archive.st_mtime_ns
    assert (tmp_path / LIVE_FILE).stat().st_size < 2000


def test_threads_lose_nothing(tmp_path: Path) -> None:
    stores = [Store(tmp_path, fsync=False), Store(tmp_path, fsync=False)]
    shared = stores[0].create_game(header())
    own = [stores[0].create_game(header("Cy", "Dee")) for _ in range(4)]
    errors: list[BaseException] = []
    count = 15

    def record(store: Store, game_id: str, events: Callable[[int], dict]) -> None:
        try:
            for number in range(count):
                store.append(game_id, events(number))
        except BaseException as error:  # noqa: B036 - reported by the test
            errors.append(error)

    def other(number: int) -> dict:
        return spell("Cy", "Dee", FORTUNES[number % 4], "bless")

    def love(number: int) -> dict:
        # Any order of these keeps the game going: blessings on love only.
        return spell("Ann", "Ben", "love", "bless")

    threads = [
        threading.Thread(target=record, args=(stores[i % 2], game_id, other))
        for i, game_id in enumerate(own)
    ] + [
        threading.Thread(target=record, args=(stores[i % 2], shared, love))
        for i in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    fresh = Store(tmp_path)
    for game_id in own:
        assert len(fresh.replay(game_id).log.events) == count
    assert len(fresh.replay(shared).log.events) == 3 * count


def test_data_folder_choice(tmp_path: Path) -> None:
    env = {"COMPANION_DATA": "/a", "FLET_APP_STORAGE_DATA": "/b"}
    assert data_dir(tmp_path, env) == tmp_path
    assert data_dir(None, env) == Path("/a")
    assert data_dir(None, {"FLET_APP_STORAGE_DATA": "/b"}) == Path("/b")
    assert data_dir(None, {}).name == "curse-companion"


# The command line


def test_cli_import_list_export(tmp_path: Path) -> None:
    source = ROOT / "examples" / "black-hearts.json"
    imported = companion("import", str(source), "--data", str(tmp_path))
    assert imported.returncode == 0, imported.stderr
    game_id = imported.stdout.strip()
    listed = companion("--data", str(tmp_path), "games")
    assert listed.stdout.split("\t") == [
        game_id,
        "black-hearts",
        "Ann, Ben, Cy, Dee",
        Store(tmp_path).load(game_id).info.started,
        "finished\n",
    ]
    exported = companion("export", game_id, "--data", str(tmp_path))
    assert loads(exported.stdout) == loads(source.read_text())
    again = companion("import", "-", "--data", str(tmp_path), stdin=exported.stdout)
    assert Store(tmp_path).load(again.stdout.strip()).log == loads(source.read_text())

    rows = companion("export", "--csv", game_id, "--data", str(tmp_path)).stdout
    lines = rows.splitlines()
    assert lines[0] == "Round,Ann,Ann total,Ben,Ben total,Cy,Cy total,Dee,Dee total"
    rounds = replay(loads(source.read_text())).summary()["rounds"]
    assert len(lines) == 1 + len(rounds)
    first = rounds[0]["scores"]
    players = ["Ann", "Ben", "Cy", "Dee"]
    twice = [f"{first[name]},{first[name]}" for name in players]
    assert lines[1] == "1," + ",".join(twice)
    japanese = companion(
        "export", "--csv", "--lang", "ja", game_id, "--data", str(tmp_path)
    )
    assert japanese.stdout.splitlines()[0].startswith("ラウンド,Ann,Ann 合計")


def test_cli_refuses_a_bad_import_and_changes_nothing(tmp_path: Path) -> None:
    companion("import", str(ROOT / "examples" / "cursed.json"), "--data", str(tmp_path))
    before = data_files(tmp_path)
    bad = json.loads((ROOT / "examples" / "cursed.json").read_text())
    bad["events"][3]["target"] = "Zed"
    result = companion("import", "-", "--data", str(tmp_path), stdin=json.dumps(bad))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: event 4: ")
    assert data_files(tmp_path) == before


def test_cli_unknown_id(tmp_path: Path) -> None:
    result = companion("export", "nope", "--data", str(tmp_path))
    assert result.returncode == 2
    assert "nope" in result.stderr


def test_generation_counts_writes_not_reads(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first = store.generation
    game = store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    assert store.generation == first + 1
    store.load(game)
    store.list_games()
    assert store.generation == first + 1
    store.set_setting("lang", "ja")
    assert Store(tmp_path).generation == first + 2  # shared by the folder's stores
