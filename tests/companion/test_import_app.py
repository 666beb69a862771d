"""The app's import refuses every log the command line refuses, and stores nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import LogError, one_line
from companion.export import import_file, import_text
from companion.log import GameLog
from companion.store import Store
from tests.companion.test_bad_input import BAD_LOGS, EXAMPLE
from tests.companion.test_store import data_files


def bad_rules_logs() -> dict[str, str]:
    """Logs that parse but break the game's rules or the format's fields."""
    def changed(number: int, **fields: object) -> str:
        log = json.loads(json.dumps(EXAMPLE))
        log["events"][number - 1].update(fields)
        return json.dumps(log)

    return {
        "a stranger": changed(4, target="Zed"),
        "an unknown effect": changed(2, effect="hex"),
        "an unknown event": changed(3, type="x"),
        "an unknown game": json.dumps({**EXAMPLE, "game": "hearts"}),
        "not JSON": '{"format": ',
        "one player": json.dumps({**EXAMPLE, "players": ["Ann"], "events": []}),
    }


CASES = {**{name: text for name, (text, _) in BAD_LOGS.items()}, **bad_rules_logs()}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    Store(folder, fsync=False).import_log(GameLog.from_dict(EXAMPLE))
    return folder


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_app_refuses_what_the_command_line_refuses(
    name: str, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CASES[name]
    source = tmp_path / "log.json"
    source.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = data_files(folder)
    assert main(["import", "--data", str(folder), str(source)]) == 2
    said = capsys.readouterr().err
    store = Store(folder, fsync=False)
    with pytest.raises(LogError) as pasted:
        import_text(store, text)
    with pytest.raises(LogError) as picked:
        import_file(store, source.read_bytes())
    # The same words as the command line, event number first.
    assert said == f"error: {one_line(str(pasted.value))}\n"
    assert str(picked.value) == str(pasted.value)
    assert pasted.value.event is not None
    assert data_files(folder) == before


def test_a_good_log_is_stored_as_given(folder: Path) -> None:
    store = Store(folder, fsync=False)
    game_id = import_text(store, json.dumps(EXAMPLE))
    assert store.load(game_id).log == GameLog.from_dict(EXAMPLE)
    again = import_file(store, json.dumps(EXAMPLE).encode("utf-8"))
    assert again != game_id


def test_a_file_that_is_not_text_is_refused(folder: Path) -> None:
    before = data_files(folder)
    with pytest.raises(LogError) as caught:
        import_file(Store(folder, fsync=False), b"\xff\xfe{}")
    assert caught.value.event == 0
    assert data_files(folder) == before
