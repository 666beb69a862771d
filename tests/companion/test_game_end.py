"""The end of a game as the core tells it: who won, why, and the standing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.export import game_csv
from companion.games import describe
from companion.i18n import counted, names_text, reason_text, sentences
from companion.log import loads
from companion.replay import replay

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))
CARD_CODE = re.compile(r"\b[A-Z]\d{1,2}\b")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_a_finished_game_keeps_the_reasons_that_decided_it(path: Path) -> None:
    finished = replay(loads(path.read_text(encoding="utf-8")))
    summary = finished.summary()
    assert summary["finished"]
    assert finished.verdict
    # the verdict is what the last entry said, in the order it was said
    said = finished.steps[-1].outcome.reasons
    assert all(reason in said for reason in finished.verdict)
    for winner in summary["winners"]:
        assert any(winner in reason_text(r) for r in finished.verdict)
    for lang in ("en", "ja"):
        assert not CARD_CODE.search(" ".join(reason_text(r, lang) for r in said))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_a_game_in_progress_has_no_verdict(path: Path) -> None:
    log = loads(path.read_text(encoding="utf-8"))
    assert replay(log.with_events(log.events[:-1])).verdict == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_score_sheet_names_no_card_code_and_no_event(path: Path, lang: str) -> None:
    sheet = game_csv(loads(path.read_text(encoding="utf-8")), lang)
    assert not CARD_CODE.search(sheet)
    assert not re.search(r"\bevents?\b|イベント", sheet, re.IGNORECASE)


def test_the_winners_share_first_place_and_equal_figures_share_a_place() -> None:
    wolf = describe("wolf-x-trick")
    totals = {"Ann": 9, "Ben": 5, "Cy": 2, "Dee": 2}
    assert wolf.places(["Ben"], totals) == [
        (1, "Ben"),
        (2, "Ann"),
        (3, "Cy"),
        (3, "Dee"),
    ]
    hearts = describe("black-hearts")  # fewer curse points is better
    assert hearts.places(["Cy", "Dee"], {"Ann": 14, "Ben": 9, "Cy": 3, "Dee": 3}) == [
        (1, "Cy"),
        (1, "Dee"),
        (3, "Ben"),
        (4, "Ann"),
    ]


def test_counts_agree_with_their_nouns() -> None:
    assert counted("count.game", 1) == "1 game"
    assert counted("count.game", 2) == "2 games"
    assert counted("count.game", 0) == "0 games"
    assert counted("count.spell", 1, "ja") == "呪文1回"


def test_names_and_sentences_read_as_written() -> None:
    assert names_text(["Ann"]) == "Ann"
    assert names_text(["Ann", "Cy", "Dee"]) == "Ann, Cy and Dee"
    assert names_text(["Ann", "Cy"], "ja") == "Ann、Cy"
    assert sentences(["ann wins", "nobody else."]) == "Ann wins. Nobody else."
    assert sentences(["Annの勝ち"], "ja") == "Annの勝ち。"


def test_a_players_wording_of_a_reason_keeps_its_params() -> None:
    from string import Formatter

    from companion.games import get_engine
    from companion.i18n import I18N

    worded = json.loads((I18N / "reasons.en.json").read_text(encoding="utf-8"))
    for key, template in worded.items():
        slug, name = key.split(".", 1)
        engine_template = get_engine(slug).texts[name][1]
        fields = {f for _, f, _, _ in Formatter().parse(template) if f}
        assert fields == {f for _, f, _, _ in Formatter().parse(engine_template) if f}
    pile = get_engine("wolf-x-trick").reason(
        "pile-moons", player="Ann", points=3, full=3, super=0
    )
    assert reason_text(pile) == (
        "Ann's new pile scores 3 points (Full Moons: 3; "
        "Super Full Moons, 2 points each: 0)"
    )


def test_an_entry_is_counted_among_its_kind() -> None:
    from companion.timeline import ordinal

    events = [{"type": "spell"}, {"type": "altar"}, {"type": "spell"}, {"type": "set"}]
    assert [ordinal(events, n) for n in range(1, 5)] == [1, 1, 2, 1]
