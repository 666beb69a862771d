"""Questions asked before: how they vote, and how they are kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import recall, rules
from companion.recall import Asked, Recall

IDF = {"tie": 2.0, "trick": 1.0, "moon": 3.0, "pile": 2.0, "lead": 1.5}


def _asked(question: str, *answers: str) -> Asked:
    return Asked(question, None, answers, "set")


TAUGHT = [
    (_asked("tie in a trick", "g/trick-winner"), {"tie": 1.0, "trick": 1.0}),
    (_asked("tied trick again", "g/trick-winner"), {"tie": 1.0, "trick": 1.0}),
    (_asked("moon pile", "g/piles", "g/moons"), {"moon": 1.0, "pile": 1.0}),
    (_asked("who leads", "g/lead"), {"lead": 1.0}),
]


def test_a_question_like_one_asked_votes_for_its_answers() -> None:
    votes = Recall(TAUGHT, IDF).votes({"tie": 1.0, "trick": 1.0})
    assert max(votes, key=votes.__getitem__) == "g/trick-winner"
    assert set(votes) == {"g/trick-winner"}


def test_each_further_like_question_counts_half() -> None:
    votes = Recall(TAUGHT, IDF).votes({"tie": 1.0, "trick": 1.0})
    assert votes["g/trick-winner"] == pytest.approx(1.0 + recall.FOLLOWING_SHARE)


def test_every_answer_of_a_question_takes_its_vote() -> None:
    votes = Recall(TAUGHT, IDF).votes({"moon": 1.0})
    assert votes["g/piles"] == votes["g/moons"] > 0


def test_a_question_sharing_nothing_gets_no_vote() -> None:
    assert Recall(TAUGHT, IDF).votes({"unknown": 1.0}) == {}
    assert Recall((), IDF).votes({"tie": 1.0}) == {}


def test_a_word_trusted_less_weighs_less() -> None:
    taught = Recall(TAUGHT, IDF)
    sure = taught.votes({"moon": 1.0, "lead": 1.0})
    unsure = taught.votes({"moon": 1.0, "lead": 0.2})
    assert unsure["g/piles"] > sure["g/piles"]
    assert unsure["g/lead"] < sure["g/lead"]


def test_without_leaves_the_questions_named_out() -> None:
    taught = Recall(TAUGHT, IDF).without({"tie in a trick", "tied trick again"})
    assert "g/trick-winner" not in taught.votes({"tie": 1.0, "trick": 1.0})
    assert len(taught.taught) == 2


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_every_set_is_taught_in_both_languages(lang: str) -> None:
    assert recall.set_names(lang) == recall.set_names("en")
    rows = recall.load(lang)
    assert {row.set for row in rows} == set(recall.set_names(lang))
    assert all(row.answers for row in rows)


def test_a_reading_out_of_date_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = recall.load("en")[:20]
    kept = rules.readings("en", asked)
    stale = tmp_path / "asked-readings.json"
    wrong = {a.question: {"moon": 1.0} for a in asked}
    stale.write_text(json.dumps({"fingerprint": "old", "readings": wrong}))
    monkeypatch.setattr(rules, "_readings_path", lambda lang: stale)
    assert not rules.readings_are_current("en")
    assert rules.readings("en", asked) == kept


def test_a_question_not_yet_kept_is_read_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = Asked("who leads the first trick", None, ("cursed-tricks/setup",), "new")
    monkeypatch.setattr(rules, "_readings_path", lambda lang: tmp_path / "none.json")
    assert rules.readings("en", [new])[new.question]
