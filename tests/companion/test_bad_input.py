"""Every bad input gets one line (exit 2) and changes nothing; never a traceback.

Through ``companion replay``, ``companion import`` and the store's own API.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import LogError, StoreError
from companion.log import MAX_EVENTS, MAX_NAME_CHARS, GameLog, loads
from companion.store import Store
from tests.companion.command import companion
from tests.companion.test_store import data_files

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "cursed.json").read_text())
NOBODY = 65534
PLACE = "<the value>"


def with_event_field(value: str, number: int = 2) -> str:
    """The example log as text, event ``number`` carrying ``"x": value``."""
    log = json.loads(json.dumps(EXAMPLE))
    log["events"][number - 1]["x"] = PLACE
    return json.dumps(log).replace(json.dumps(PLACE), value)


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_players(*names: str) -> str:
    return json.dumps({**EXAMPLE, "players": list(names), "events": []})


BAD_LOGS = {
    "nested 1000 deep": (with_event_field(deep(1000)), None),
    "nested 1000 deep in the header": (
        json.dumps({**EXAMPLE, "options": {}}).replace(
            '"options": {}', f'"options": {{"x": {deep(1000)}}}'
        ),
        None,
    ),
    "nested 600 deep": (with_event_field(deep(600)), 2),
    "a 5000-digit number": (with_event_field("9" * 5000), 2),
    "NaN": (with_event_field("NaN"), 2),
    "Infinity": (with_event_field("-Infinity"), 2),
    "1e999": (with_event_field("1e999"), 2),
    "a lone surrogate": (with_players("Ann\ud800", "Ben"), 0),
    "a long name": (with_players("A" * (MAX_NAME_CHARS + 1), "Ben"), 0),
    "a long text": (with_event_field(json.dumps("x" * 3000)), 2),
    "too many events": (
        json.dumps({**EXAMPLE, "events": [{"type": "x"}] * (MAX_EVENTS + 1)}),
        0,
    ),
    "a huge event": (with_event_field(json.dumps(["x" * 1000] * 20)), 2),
    "a huge file": (json.dumps({**EXAMPLE, "x": " " * 5_000_001}), 0),
}


def assert_refused(result: subprocess.CompletedProcess[str]) -> None:
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1, result.stderr


@pytest.fixture
def store_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    Store(folder, fsync=False).import_log(GameLog.from_dict(EXAMPLE))
    return folder


@pytest.mark.parametrize("name", sorted(BAD_LOGS))
def test_replay_and_import_refuse_alike_in_one_line(
    name: str, store_folder: Path
) -> None:
    text, event = BAD_LOGS[name]
    before = data_files(store_folder)
    replayed = companion("replay", "-", stdin=text)
    imported = companion("import", "--data", str(store_folder), "-", stdin=text)
    assert_refused(replayed)
    assert imported.stderr == replayed.stderr
    assert_refused(imported)
    if event is not None:
        assert replayed.stderr.startswith(f"error: event {event}: ")
    assert data_files(store_folder) == before
    # The store's own API refuses the same, when the text parses at all.
    try:
        log = loads(text)
    except LogError:
        return
    with pytest.raises(LogError):
        Store(store_folder, fsync=False).import_log(log)


def test_the_store_api_refuses_what_a_log_may_not_hold(store_folder: Path) -> None:
    store = Store(store_folder, fsync=False)
    before = data_files(store_folder)
    nested: Any = []
    for _ in range(1000):
        nested = [nested]
    for value in (nested, 10**5000, float("nan"), "Ann\ud800", {1: 2}, object()):
        event = {**EXAMPLE["events"][1], "x": value}
        log = GameLog.from_dict(EXAMPLE).with_events([EXAMPLE["events"][0], event])
        with pytest.raises(LogError, match="^event 2: "):
            store.import_log(log)
    surrogate = GameLog("cursed", ["Ann\ud800", "Ben"])
    with pytest.raises(LogError, match="^event 0: "):
        store.create_game(surrogate)
    game_id = store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    after_create = data_files(store_folder)
    with pytest.raises(LogError):
        store.append(game_id, {"type": "spell", "x": nested})
    with pytest.raises(LogError):
        store.set_setting("name", "Ann\ud800")
    assert data_files(store_folder) == after_create
    assert before != after_create


def test_unknown_top_level_fields_are_kept_and_exported(tmp_path: Path) -> None:
    text = json.dumps({**EXAMPLE, "device": {"name": "tablet"}, "note": "cup final"})
    imported = companion("import", "--data", str(tmp_path), "-", stdin=text)
    assert imported.returncode == 0, imported.stderr
    exported = companion("export", "--data", str(tmp_path), imported.stdout.strip())
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == json.loads(text)


def test_games_escapes_what_a_terminal_would_act_on(tmp_path: Path) -> None:
    # Names are refused such characters now; a store kept from before may
    # still hold them, so they are written into its file.
    names = ["Ann\nfake-id\tcursed\tEve", "Ben\x1b[2J", "Zoë 花子"]
    stand_ins = ["Ann", "Ben", "Cy"]
    Store(tmp_path, fsync=False).create_game(GameLog("cursed", stand_ins))
    live = tmp_path / "live.json"
    text = live.read_text(encoding="utf-8")
    for stand_in, name in zip(stand_ins, names, strict=True):
        text = text.replace(json.dumps(stand_in), json.dumps(name))
    live.write_text(text, encoding="utf-8")
    listed = companion("games", "--data", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count("\n") == 1
    assert listed.stdout.count("\t") == 4
    assert "\x1b" not in listed.stdout
    assert "Ann\\u000afake-id\\u0009cursed" in listed.stdout
    assert "Zoë 花子" in listed.stdout


def test_data_pointing_at_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    for command in (["games"], ["import", str(ROOT / "examples" / "cursed.json")]):
        result = companion(*command, "--data", str(file))
        assert_refused(result)
        assert "is a file, not a folder" in result.stderr
    assert file.read_text() == "mine"


# Writes that fail at the system: the store runs as a user without the right
# (root ignores file modes), after importing everything while still root.
AS_NOBODY = f"""
import os, sys
import companion.cli
# The command imports the store and the rest when it needs them; as nobody
# the interpreter's own folder may be closed, so they are imported now.
import companion.log, companion.paths, companion.replay, companion.stats
import companion.store
companion.cli.build_parser()
from companion.games import SLUGS, get_engine
for slug in SLUGS:
    get_engine(slug)
os.setgid({NOBODY})
os.setuid({NOBODY})
sys.exit(companion.cli.main(sys.argv[1:]))
"""


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder the unprivileged user may enter (tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def readable_copy(source: Path, shared: Path) -> Path:
    """``source`` copied where the unprivileged user may read it.

    The checkout may sit in a folder only its owner can enter (a home folder
    of mode 700), so nothing in it is handed to that user by its path.
    """
    copy = shared / source.name
    shutil.copyfile(source, copy)
    copy.chmod(0o644)
    return copy


def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
    # The program and its environment are loaded before the user is dropped
    # (see AS_NOBODY): only the files named in ``args`` are read as nobody.
    return subprocess.run(
        [sys.executable, "-c", AS_NOBODY, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="dropping to another user needs root",
)


@needs_root
@pytest.mark.parametrize(
    "case", ["read-only folder", "unwritable lock", "missing under read-only"]
)
def test_a_folder_the_app_may_not_write_is_refused(shared_tmp: Path, case: str) -> None:
    folder = shared_tmp / "data"
    Store(folder, fsync=False).create_game(GameLog("cursed", ["Ann", "Ben"]))
    folder.chmod(0o755)
    for path in folder.iterdir():
        path.chmod(0o644)  # readable by all; written only by their owner
    if case == "unwritable lock":
        folder.chmod(0o777)
        (folder / ".lock").chmod(0o644)
    elif case == "missing under read-only":
        folder = folder / "missing"
    example = readable_copy(ROOT / "examples" / "cursed.json", shared_tmp)
    before = {p.name: p.read_bytes() for p in shared_tmp.rglob("*") if p.is_file()}
    result = as_nobody("import", "--data", str(folder), str(example))
    assert_refused(result)
    assert "cannot be changed" in result.stderr
    after = {p.name: p.read_bytes() for p in shared_tmp.rglob("*") if p.is_file()}
    assert after == before
    assert not (shared_tmp / "data" / "missing").exists()


@needs_root
def test_a_data_file_the_app_may_not_read_is_refused_not_set_aside(
    shared_tmp: Path,
) -> None:
    folder = shared_tmp / "data"
    Store(folder, fsync=False).create_game(GameLog("cursed", ["Ann", "Ben"]))
    folder.chmod(0o777)
    (folder / "live.json").chmod(0o600)
    before = sorted(p.name for p in folder.iterdir())
    result = as_nobody("games", "--data", str(folder))
    assert_refused(result)
    assert "cannot be read (Permission denied)" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == before


@needs_root
def test_a_damaged_file_in_a_folder_the_app_may_not_write_stays_in_place(
    shared_tmp: Path,
) -> None:
    folder = shared_tmp / "data"
    store = Store(folder, fsync=False)
    store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    (folder / "live.json").write_bytes(b"{damaged")
    for path in folder.iterdir():
        path.chmod(0o644)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = as_nobody("games", "--data", str(folder))
    assert_refused(result)
    assert "could not be put in its place (Permission denied)" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_read_only_disk_is_refused_by_the_store(
    store_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = data_files(store_folder)
    real_open = os.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & writing:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    store = Store(store_folder, fsync=False)
    assert len(store.list_games()) == 1  # reading still works
    with pytest.raises(StoreError, match="Read-only file system"):
        store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    monkeypatch.undo()
    assert data_files(store_folder) == before


junk = st.one_of(
    st.sampled_from(
        ["NaN", "Infinity", "1e400", "9" * 4400, deep(990), deep(300), '"\\ud800"']
    ),
    st.text(max_size=30).map(json.dumps),
    st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(json.dumps),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(value=junk, event=st.integers(1, len(EXAMPLE["events"])), data=st.data())
def test_fuzzed_logs_are_kept_or_refused_in_one_line(
    value: str,
    event: int,
    data: st.DataObject,
    store_folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = with_event_field(value, event)
    if data.draw(st.booleans()):
        text = text.replace('"Ann"', json.dumps("Ann" + value[:10]), 1)
    source = store_folder.parent / "log.json"
    source.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = data_files(store_folder)
    outcomes = []
    for command in (["replay"], ["import", "--data", str(store_folder)]):
        code = main([*command, str(source)])
        out, err = capsys.readouterr()
        outcomes.append(code)
        if code:
            assert code == 2
            assert err.startswith("error: ") and err.count("\n") == 1, err
            assert data_files(store_folder) == before
    assert outcomes[0] == outcomes[1]  # replay and import agree
    try:
        log = loads(text)
    except LogError:
        return
    try:
        game_id = Store(store_folder, fsync=False).import_log(log)
    except (LogError, StoreError) as error:
        assert "\n" not in str(error)
    else:
        Store(store_folder, fsync=False).load(game_id)
