"""Whatever shape a damaged data file has, the command line answers in one line.

A file changed by hand that still reads as JSON (values of the wrong kind,
records missing a field, values nested thousands deep, numbers thousands of
digits long) in live.json, archive.json, the settings they hold or their
backups: `companion games`, `export` and `import` either work or print one
line and exit 2, and never change a data file.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.log import loads
from companion.store import ARCHIVE_FILE, LIVE_FILE, Store
from tests.companion.command import companion
from tests.companion.test_store import filler, header

ROOT = Path(__file__).resolve().parents[2]
FINISHED = ROOT / "examples" / "cursed-tricks.json"
FILES = [LIVE_FILE, ARCHIVE_FILE, LIVE_FILE + ".bak", ARCHIVE_FILE + ".bak"]
# Put in place of a value as written, so that the file holds it as it stands.
SPLICE = "\ue000spliced\ue000"


def make_template(folder: Path) -> dict[str, str]:
    """A folder with a game in each file, a setting, options and backups."""
    store = Store(folder, fsync=False)
    going_on = store.create_game(header().with_events([filler(n) for n in range(3)]))
    over = store.import_log(loads(FINISHED.read_text()))
    store.set_setting("lang", "ja")
    store.remember_options("trick-runaway", {"life": 17}, 4)
    store.append(going_on, filler(3))
    store.import_log(loads(FINISHED.read_text()))  # the archive's backup
    store.set_setting("theme", "dark")
    return {"live": going_on, "archive": over}


TEMPLATE = Path(tempfile.mkdtemp(prefix="damaged-files-"))
IDS = make_template(TEMPLATE)


def data_files(folder: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.iterdir())
        if path.is_file() and path.name != ".lock"
    }


def paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself first."""
    yield here
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*here, index))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
raw_values = st.sampled_from(
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 5_000 + "1" + "}" * 5_000,
        "[" * 30 + "]" * 30,
        "1" * 5_000,
        "-" + "9" * 40,
        "1e999",
        "NaN",
    ]
)


def damage(text: str, data: st.DataObject) -> str:
    """``text`` (a data file) with one value replaced, removed or grown."""
    value = json.loads(text)
    places = list(paths(value))
    place = places[data.draw(st.integers(0, len(places) - 1), label="place")]
    how = data.draw(st.sampled_from(["replace", "remove", "raw"]), label="how")
    if not place:
        return (
            data.draw(raw_values)
            if how == "raw"
            else json.dumps(data.draw(json_values))
        )
    parent = value
    for key in place[:-1]:
        parent = parent[key]
    if how == "remove":
        del parent[place[-1]]
        return json.dumps(value)
    if how == "replace":
        parent[place[-1]] = data.draw(json_values, label="new value")
        return json.dumps(value)
    parent[place[-1]] = SPLICE
    return json.dumps(value).replace(json.dumps(SPLICE), data.draw(raw_values))


COMMANDS = [
    ["games"],
    ["games", "--all"],
    ["export", IDS["live"]],
    ["export", IDS["archive"]],
    ["export", "--csv", IDS["archive"]],
    ["import", str(FINISHED)],
]


def run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, err.getvalue()


def check_answer(code: int, errors: str, before: dict, after: dict, argv: list) -> None:
    lines = errors.splitlines(keepends=True)
    # A file that does not read at all is replaced by its backup, and that is
    # said first, a line of its own; nothing else may change a file.
    repaired = [line for line in lines if line.startswith("warning: ")]
    rest = lines[len(repaired) :]
    if code == 2:
        assert len(rest) == 1 and rest[0].startswith("error: "), errors
    else:
        assert code == 0 and rest == [], errors
    if not repaired and (code == 2 or argv[0] != "import"):
        assert after == before


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(FILES),
    argv=st.sampled_from(COMMANDS),
    main=st.sampled_from(["kept", "missing", "garbled"]),
    data=st.data(),
)
def test_a_damaged_file_gets_one_line_and_nothing_changes(
    name: str, argv: list[str], main: str, data: st.DataObject
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="damaged-"))
    try:
        shutil.copytree(TEMPLATE, folder, dirs_exist_ok=True)
        path = folder / name
        path.write_text(damage(path.read_text(), data), encoding="utf-8")
        if name.endswith(".bak"):
            # A backup is read only when its file is gone or does not read.
            original = folder / name.removesuffix(".bak")
            if main == "missing":
                original.unlink()
            elif main == "garbled":
                original.write_bytes(b'{"games": {"1": ')
        before = data_files(folder)
        code, errors = run([*argv, "--data", str(folder)])
        check_answer(code, errors, before, data_files(folder), argv)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# The same through the real command, a process of its own, for each kind of shape.
SHAPES = {
    "a game's players are a number": (
        LIVE_FILE,
        '"players": ["Ann", "Ben"]',
        '"players": 7',
    ),
    "a game without its id": (ARCHIVE_FILE, '"id": "', '"lost": "'),
    "nesting a hundred thousand deep": (
        LIVE_FILE,
        '"value": "dark"',
        '"value": ' + "[" * 100_000 + "]" * 100_000,
    ),
    "a number of five thousand digits": (
        LIVE_FILE,
        '"schema": 1',
        '"schema": ' + "1" * 5000,
    ),
    "a number too large for a float": (ARCHIVE_FILE, '"rev": ', '"rev": 1e999, "x": '),
    "the settings are a list": (LIVE_FILE, '"settings": {', '"settings": [], "y": {'),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize(
    "argv", [["games"], ["export", IDS["live"]], ["import", str(FINISHED)]]
)
def test_the_command_refuses_each_damaged_shape_in_one_line(
    tmp_path: Path, shape: str, argv: list[str]
) -> None:
    name, old, new = SHAPES[shape]
    shutil.copytree(TEMPLATE, tmp_path, dirs_exist_ok=True)
    path = tmp_path / name
    text = json.dumps(json.loads(path.read_text()), ensure_ascii=False)
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = data_files(tmp_path)
    done = companion(*argv, "--data", str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert "not as the app wrote it" in done.stderr or "could not" in done.stderr
    assert data_files(tmp_path) == before
