"""A name is what it looks like: one form, nothing hidden, no two alike."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import FormatError
from companion.log import GameLog, loads
from companion.names import (
    Problem,
    first_refusal,
    is_hidden,
    name_refusal,
    normal_form,
    reading,
)
from companion.store import Store
from tests.companion.command import companion
from tests.companion.test_store import data_files

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "cursed.json").read_text())

ZERO_WIDTH_SPACE = "\u200b"
HIDDEN = [
    ZERO_WIDTH_SPACE,
    "\u200c",  # zero width non-joiner
    "\u200d",  # zero width joiner
    "\ufeff",  # byte order mark
    "\u200e",  # left-to-right mark
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2069",  # pop directional isolate
    "\u00ad",  # soft hyphen
    "\u2060",  # word joiner
    "\u3164",  # Hangul filler
    "\x1b",
    "\n",
]
E_ACUTE_COMPOSED = "Zo\u00e9"
E_ACUTE_DECOMPOSED = "Zoe\u0301"


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_hidden_character_is_refused_and_named_in_words(hidden: str) -> None:
    refusal = name_refusal(f"Ann{hidden}")
    assert refusal is not None and refusal.problem is Problem.HIDDEN
    assert refusal.name == "Ann"
    assert "U+" not in refusal.text and hidden not in refusal.text


def test_the_refusal_says_which_hidden_character() -> None:
    refusal = name_refusal("Ann\u202e")
    assert refusal is not None
    assert "right-to-left override" in refusal.text


@pytest.mark.parametrize(
    "name", ["", "   ", "\u3000", ZERO_WIDTH_SPACE, "\u200b \ufeff"]
)
def test_a_blank_name_is_refused(name: str) -> None:
    refusal = name_refusal(name)
    assert refusal is not None and refusal.problem is Problem.BLANK


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "ann"),
        ("Ann", "ANN"),
        ("Ann", " Ann "),
        ("Mary Ann", "Mary  Ann"),
        (E_ACUTE_COMPOSED, E_ACUTE_DECOMPOSED),
        ("Straße", "STRASSE"),
    ],
)
def test_names_that_read_the_same_are_one_player_named_twice(
    first: str, second: str
) -> None:
    refusal = first_refusal([first, second])
    assert refusal is not None and refusal.problem is Problem.DUPLICATE
    assert refusal.same_as == first


@pytest.mark.parametrize(
    "names",
    [
        ["Ann", "Anne", "Ann-Marie"],
        ["花子", "太郎", "山田　花子"],  # an ideographic space is a space
        ["Zoë", "Zoe", "Zoé"],  # accents make different names
        ["Ann", "أحمد", "דוד"],  # right-to-left scripts are welcome
    ],
)
def test_names_that_read_differently_are_kept(names: list[str]) -> None:
    assert first_refusal(names) is None


def test_a_name_is_kept_in_one_form() -> None:
    assert normal_form(E_ACUTE_DECOMPOSED) == E_ACUTE_COMPOSED
    assert name_refusal(E_ACUTE_DECOMPOSED) is None


visible_names = st.text(
    st.characters(
        codec="utf-8",
        categories=["L", "M", "N", "P", "S", "Zs"],
    ),
    min_size=1,
    max_size=20,
).filter(lambda name: name_refusal(name) is None)


@given(name=visible_names, hidden=st.sampled_from(HIDDEN), at=st.integers(0, 20))
def test_a_hidden_character_anywhere_is_refused(
    name: str, hidden: str, at: int
) -> None:
    refusal = name_refusal(name[:at] + hidden + name[at:])
    assert refusal is not None
    assert refusal.problem in (Problem.HIDDEN, Problem.BLANK)


@given(
    name=visible_names,
    variant=st.sampled_from(
        [
            str.upper,
            str.lower,
            str.swapcase,
            lambda name: unicodedata.normalize("NFD", name),
            lambda name: f" {name} ",
        ]
    ),
)
def test_every_spelling_of_a_kept_name_is_refused_beside_it(
    name: str, variant: object
) -> None:
    assert callable(variant)
    other = variant(name)
    if reading(other) != reading(name):
        # Some letters change in a way reading() does not undo (e.g. "ß".upper()
        # is "SS" but "ẞ".lower() is "ß"); such a spelling is a name of its own.
        return
    refusal = first_refusal([name, other])
    assert refusal is not None and refusal.problem is Problem.DUPLICATE


@given(names=st.lists(st.text(max_size=6), min_size=1, max_size=6))
def test_a_seating_kept_is_in_normal_form_with_distinct_readings(
    names: list[str],
) -> None:
    if first_refusal(names) is not None:
        return
    kept = [normal_form(name) for name in names]
    assert all(unicodedata.is_normalized("NFC", name) for name in kept)
    assert not any(is_hidden(c) for name in kept for c in name)
    assert len({reading(name) for name in kept}) == len(kept)
    assert all(name.strip() for name in kept)


def log_with_players(*names: str) -> str:
    return json.dumps({**EXAMPLE, "players": list(names), "events": []})


def test_a_log_keeps_its_names_in_normal_form_wherever_it_writes_them() -> None:
    text = json.dumps(EXAMPLE).replace('"Ann"', json.dumps(E_ACUTE_DECOMPOSED))
    assert E_ACUTE_DECOMPOSED in json.loads(text)["events"][0].values()
    log = loads(text)
    assert log.players[0] == E_ACUTE_COMPOSED
    assert E_ACUTE_DECOMPOSED not in json.dumps(log.to_dict(), ensure_ascii=False)
    assert log.events[0]["caster"] == E_ACUTE_COMPOSED


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Ann", "Ann" + ZERO_WIDTH_SPACE], "hidden character (zero width space)"),
        (["Ann", "Ann\u200d"], "hidden character (zero width joiner)"),
        (["Ann", "nnA\u202e"], "hidden character (right-to-left override)"),
        (["Ann", " "], "blank"),
        (["Ann", "ann"], 'the names "Ann" and "ann" read the same'),
        ([E_ACUTE_COMPOSED, E_ACUTE_DECOMPOSED], f'"{E_ACUTE_COMPOSED}" is used twice'),
    ],
)
def test_a_log_naming_players_badly_is_refused_as_event_0(
    names: list[str], words: str
) -> None:
    with pytest.raises(FormatError, match="^event 0: ") as refused:
        loads(log_with_players(*names))
    assert words in str(refused.value)


def test_import_refuses_a_look_alike_name_in_one_line_and_changes_nothing(
    tmp_path: Path,
) -> None:
    Store(tmp_path, fsync=False).create_game(GameLog("cursed", ["Ann", "Ben"]))
    before = data_files(tmp_path)
    text = log_with_players("Ann", "Ann" + ZERO_WIDTH_SPACE, "Ben")
    imported = companion("import", "--data", str(tmp_path), "-", stdin=text)
    assert (imported.returncode, imported.stdout) == (2, "")
    assert imported.stderr == (
        'error: event 0: the name "Ann" holds a hidden character '
        "(zero width space): type the name without it\n"
    )
    assert data_files(tmp_path) == before


def test_import_keeps_a_name_in_normal_form_and_the_game_replays(
    tmp_path: Path,
) -> None:
    text = json.dumps(EXAMPLE).replace('"Ann"', json.dumps(E_ACUTE_DECOMPOSED))
    imported = companion("import", "--data", str(tmp_path), "-", stdin=text)
    assert imported.returncode == 0, imported.stderr
    game_id = imported.stdout.strip()
    exported = companion("export", "--data", str(tmp_path), game_id)
    assert exported.returncode == 0, exported.stderr
    log = json.loads(exported.stdout)
    assert log["players"][0] == E_ACUTE_COMPOSED
    assert E_ACUTE_DECOMPOSED not in exported.stdout
    listed = companion("games", "--data", str(tmp_path))
    assert E_ACUTE_COMPOSED in listed.stdout
    original = companion("replay", "-", stdin=json.dumps(EXAMPLE))
    renamed = companion("replay", "-", stdin=exported.stdout)
    assert renamed.stdout == original.stdout.replace('"Ann"', f'"{E_ACUTE_COMPOSED}"')


def test_the_store_refuses_a_look_alike_name_given_directly(tmp_path: Path) -> None:
    store = Store(tmp_path, fsync=False)
    with pytest.raises(FormatError, match="read the same"):
        store.create_game(GameLog("cursed", ["Ann", "ANN"]))
    game_id = store.create_game(GameLog("cursed", [E_ACUTE_DECOMPOSED, "Ben"]))
    assert store.load(game_id).log.players == [E_ACUTE_COMPOSED, "Ben"]
