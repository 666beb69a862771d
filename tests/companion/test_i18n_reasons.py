"""Every reason an engine can give reads in Japanese and opens a rules entry."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import string
from pathlib import Path

import pytest

from companion import rules
from companion.games import SLUGS, get_engine
from companion.games.base import COMMON_TEXTS, Engine, Reason
from companion.i18n import reason_text
from companion.log import loads
from companion.replay import replay

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "data" / "i18n"
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def _present_engines() -> list[Engine]:
    # The engines are written alongside this file; cover whichever exist.
    engines = []
    for slug in SLUGS:
        try:
            engines.append(get_engine(slug))
        except ImportError:
            continue
    return engines


ENGINES = _present_engines()
JA = json.loads((I18N / "reasons.ja.json").read_text(encoding="utf-8"))
WORDS = json.loads((I18N / "words.ja.json").read_text(encoding="utf-8"))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _english() -> dict[str, str]:
    texts = {f"common.{name}": text for name, (_, text) in COMMON_TEXTS.items()}
    for engine in ENGINES:
        texts.update(
            {f"{engine.slug}.{name}": text for name, (_, text) in engine.texts.items()}
        )
    return texts


ENGLISH = _english()


def test_all_five_engines_are_covered() -> None:
    assert [e.slug for e in ENGINES] == list(SLUGS)


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_reason_has_a_japanese_template_with_the_same_fields(key: str) -> None:
    assert key in JA, f"no Japanese text for {key}"
    assert _fields(JA[key]) == _fields(ENGLISH[key])
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", JA[key])


def test_no_japanese_template_is_left_over() -> None:
    # Only keys of engines that exist can be judged stale.
    present = {"common"} | {e.slug for e in ENGINES}
    stale = {k for k in JA if k.split(".")[0] in present} - set(ENGLISH)
    assert not stale


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_every_topic_an_engine_cites_is_in_the_rules(engine: Engine, lang: str) -> None:
    cited = {topic for topic, _ in engine.texts.values()} | set(engine.topics)
    module = inspect.getsource(importlib.import_module(type(engine).__module__))
    cited |= {
        topic for name, (topic, _) in COMMON_TEXTS.items() if f'"{name}"' in module
    }
    for topic in cited:
        rules.entry(engine.slug, topic, lang)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_reason_renders_in_japanese(engine: Engine) -> None:
    names = list(engine.texts) + list(COMMON_TEXTS)
    for name in names:
        template = engine.texts.get(name, COMMON_TEXTS.get(name, ("", "")))[1]
        reason = engine.reason(name, **dict.fromkeys(_fields(template), "7"))
        japanese = reason_text(reason, "ja")
        assert japanese != reason.text and "{" not in japanese, reason.key


def _untranslated(reason: Reason, players: set[str]) -> list[str]:
    """English words carried in a reason's fields that have no Japanese word."""
    left = []
    for name, value in reason.params.items():
        if name in {"text", "gift"} or value in WORDS:
            continue
        for player in sorted(players, key=len, reverse=True):
            value = value.replace(player, " ")
        left += [w for w in re.findall(r"[A-Za-z]{2,}", value) if w != "and"]
    return left


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_words_in_example_games_read_in_japanese(path: Path) -> None:
    log = loads(path.read_text(encoding="utf-8"))
    if log.game not in {e.slug for e in ENGINES}:
        pytest.skip(f"{log.game} has no engine yet")
    players = set(log.players)
    for step in replay(log).steps:
        for reason in step.outcome.reasons + step.outcome.warnings:
            assert not _untranslated(reason, players), reason.key
            rules.entry(log.game, reason.topic, "ja")
