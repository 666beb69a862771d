"""Every word the screens ask for exists in English and Japanese (no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.i18n import ui_keys
from screens.figures import FIELDS, player_figures, shown

ROOT = Path(__file__).resolve().parents[2]
SCREENS = sorted((ROOT / "screens").glob("*.py"))
LITERAL_KEY = re.compile(r"""\bt\(\s*"([a-z][a-z0-9_.-]*)"\s*[,)]""")


def test_english_and_japanese_have_the_same_keys() -> None:
    assert ui_keys("en") == ui_keys("ja")


def test_every_literal_key_the_screens_use_is_translated() -> None:
    keys = ui_keys("en")
    for path in SCREENS:
        source = path.read_text(encoding="utf-8")
        for key in LITERAL_KEY.findall(source):
            assert key in keys, f"{path.name} asks for {key!r}"


def test_every_field_shown_has_a_label_in_both_languages() -> None:
    for lang in ("en", "ja"):
        keys = ui_keys(lang)
        for fields in FIELDS.values():
            for field in fields:
                assert f"field.{field}" in keys


def test_japanese_texts_are_written_in_japanese() -> None:
    japanese = json.loads((ROOT / "data/i18n/ui.ja.json").read_text(encoding="utf-8"))
    english = json.loads((ROOT / "data/i18n/ui.en.json").read_text(encoding="utf-8"))
    same = [k for k, v in japanese.items() if v == english.get(k)]
    # Names of things (the game CURSED!, language names) may stay as they are.
    assert len(same) <= 8, same


def test_figures_read_the_summary() -> None:
    view = {"taken": ["C3", "W1", "C6"]}
    figures = dict(player_figures("black-hearts", view, {"curse_points": {"C3": 3}}))
    assert figures == {"taken": "3♥ 1☆ 6♥", "round_points": "3"}
    assert shown([]) == "–"
    assert shown(False) == "–"
    assert shown(-2) == "-2"
