import json

import pytest

from companion.errors import FormatError
from companion.log import (
    FORMAT,
    MAX_DEPTH,
    MAX_EVENT_BYTES,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    GameLog,
    dumps,
    loads,
)
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
        (log_text(players=["Ann", ""]), "blank"),
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


def nested(levels: int) -> object:
    """A number in ``levels - 1`` lists: an event's field whose deepest list is
    ``levels`` deep, the event counting as the first level."""
    value: object = 0
    for _ in range(levels - 1):
        value = [value]
    return value


def test_values_at_the_limits_are_kept_and_one_past_them_refused() -> None:
    at = {
        "name": ("A" * MAX_NAME_CHARS, "A" * (MAX_NAME_CHARS + 1)),
        "text": ("x" * MAX_TEXT_CHARS, "x" * (MAX_TEXT_CHARS + 1)),
        "number": (10**MAX_INT_DIGITS - 1, 10**MAX_INT_DIGITS),
        # The event is the first level, its field the second.
        "depth": (nested(MAX_DEPTH), nested(MAX_DEPTH + 1)),
        "event": (["x" * 1000] * 15, ["x" * 1000] * 17),
    }
    for what, (kept, refused) in at.items():
        for value, fits in ((kept, True), (refused, False)):
            if what == "name":
                text = log_text(players=[value, "Ben"])
            else:
                text = log_text(events=[{"type": "altar", "x": value}])
            if fits:
                assert loads(dumps(loads(text))) == loads(text)
            else:
                with pytest.raises(FormatError, match="^event [01]: "):
                    loads(text)
    assert MAX_EVENT_BYTES < 17_000


def test_unknown_top_level_fields_travel_with_the_log() -> None:
    text = log_text(device={"name": "tablet"}, events=[{"type": "altar", "y": 1}])
    log = loads(text)
    assert log.extra == {"device": {"name": "tablet"}}
    assert json.loads(dumps(log)) == {**json.loads(text), "options": {}}
    assert log.with_events([]).extra == log.extra
