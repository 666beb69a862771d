"""Whatever a log holds, replay answers with a summary or a LogError, never a crash."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import LogError
from companion.log import GameLog, loads
from companion.replay import replay

FOLDER = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = {path.name: loads(path.read_text()) for path in FOLDER.glob("*.json")}

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.lists(st.text(max_size=3), max_size=5),
    st.dictionaries(
        st.sampled_from(["Ann", "Ben", "x"]) | st.text(max_size=6),
        st.integers() | st.sampled_from(["escape", "damage", "P"]),
        max_size=2,
    ),
)
# Every event type some game knows: an event of one game's type in another's log
# reaches the handlers with fields they did not expect.
EVENT_TYPES = ["round", "trick", "pile", "end", "spell", "set", "altar", "x"]


def mutate(log: GameLog, data: st.DataObject) -> dict[str, Any]:
    raw = copy.deepcopy(log.to_dict())
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(
            st.sampled_from(["event", "option", "cards", "cut", "type"])
        )
        events = raw["events"]
        if where == "cut" and events:
            del events[data.draw(st.integers(0, len(events) - 1))]
        elif where == "option":
            key = data.draw(st.sampled_from([*raw["options"], "life", "deck", "x"]))
            raw["options"][key] = data.draw(junk)
        elif events:
            event = events[data.draw(st.integers(0, len(events) - 1))]
            if where == "type":
                event["type"] = data.draw(st.sampled_from(EVENT_TYPES))
            elif where == "cards" and isinstance(event.get("cards"), list):
                cards = event["cards"]
                if cards:
                    cards[data.draw(st.integers(0, len(cards) - 1))] = data.draw(junk)
            else:
                key = data.draw(st.sampled_from([*event, "leader", "break", "lower"]))
                event[key] = data.draw(junk)
    return raw


# More examples flush out engine paths a rare damage reaches: FUZZ_EXAMPLES=5000
EXAMPLES_TO_TRY = int(os.environ.get("FUZZ_EXAMPLES", "300"))


@settings(
    max_examples=EXAMPLES_TO_TRY,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(name=st.sampled_from(sorted(EXAMPLES)), data=st.data())
def test_a_damaged_log_is_replayed_or_refused_cleanly(name: str, data: Any) -> None:
    """Every damaged log gives a summary or a LogError, never another exception.

    Replay lets only LogError out as a refusal; anything else raised here is
    an engine bug, and fails this test as itself.
    """
    raw = mutate(EXAMPLES[name], data)
    try:
        result = replay(loads(json.dumps(raw)))
    except LogError as error:
        assert error.event is not None
        assert 0 <= error.event <= len(raw["events"])
        assert str(error).startswith(f"event {error.event}: ")
        return
    summary = result.summary()
    assert summary["game"] == raw["game"]
    assert set(summary["totals"]) == set(raw["players"])
    json.dumps(summary)  # plain JSON all the way down
