import json

import pytest

from companion.errors import FormatError
from companion.log import FORMAT, GameLog, dumps, loads
from companion.replay import replay

HEADER = {"format": FORMAT, "game": "cursed", "players": ["Ann", "Ben"]}


def log_text(**changes: object) -> str:
    data = dict(HEADER, **changes)
    return json.dumps({k: v for k, v in data.items() if v is not None})


def test_loads_and_dumps_round_trip() -> None:
    text = log_text(events=[{"type": "altar", "player": "Ann", "text": "x"}])
    log = loads(text)
    assert loads(dumps(log)) == log
    assert json.loads(dumps(log))["format"] == FORMAT


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        (log_text(format="companion-log/9"), "format"),
        (log_text(game=None), "no game"),
        (log_text(players=[]), "no players"),
        (log_text(players=["Ann", ""]), "non-empty"),
        (log_text(players=["Ann", "Ann"]), '"Ann" is used twice'),
        (log_text(options=[]), "options"),
        (log_text(events={}), "events"),
    ],
)
def test_refuses_a_bad_header_as_event_0(text: str, words: str) -> None:
    with pytest.raises(FormatError) as error:
        loads(text)
    assert error.value.event == 0
    assert words in str(error.value)


def test_an_event_without_a_type_is_named_by_number() -> None:
    with pytest.raises(FormatError) as error:
        loads(log_text(events=[{"type": "altar"}, {"kind": "spell"}]))
    assert error.value.event == 2


def test_unknown_game_is_refused_on_replay() -> None:
    with pytest.raises(FormatError) as error:
        replay(GameLog("chess", ["Ann", "Ben"]))
    assert error.value.event == 0
    assert '"chess"' in str(error.value)
