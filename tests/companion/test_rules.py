"""The rules reference: complete in both languages, and found by players' words."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import recall, rules
from companion.cli import main
from companion.games import NAMES_FILE, SLUGS, names_table
from companion.recall import Asked

ROOT = Path(__file__).resolve().parents[2]


def rulebooks_folder() -> Path:
    """The rulebooks: $COMPANION_RULEBOOKS, else ``shared/seeds`` beside the
    checkout or beside a folder above it (wherever the checkout was made)."""
    given = os.environ.get("COMPANION_RULEBOOKS")
    if given:
        return Path(given)
    for folder in ROOT.parents:
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return ROOT.parent / "shared" / "seeds"


SEEDS = rulebooks_folder()

# Every topic the rules engines may cite, per game.
TOPICS = {
    "cursed-tricks": [
        "setup", "follow-suit", "trick-winner", "curse-breaking", "taking-curses",
        "round-end", "scoring", "game-end",
    ],
    "trick-runaway": [
        "setup", "follow-suit", "counting-cards", "curses", "damage",
        "next-leader", "out-of-round", "round-end", "game-end",
    ],
    "cursed": [
        "setup", "fortunes", "spells", "double-curse", "ruined", "sacrifices",
        "elimination", "game-end",
    ],
    "wolf-x-trick": [
        "setup", "follow-suit", "trick-winner", "piles", "full-moons",
        "pile-scoring", "tie-elimination", "winner",
    ],
    "black-hearts": [
        "setup", "gift", "two-oclock", "trick-winner", "curse-points",
        "all-curses", "game-end",
    ],
}

# (what a player types, the game, the entries that answer it)
ENGLISH = [
    ("what if the 1 and 14 are both played", "cursed-tricks",
     {"trick-winner", "q-one-and-fourteen"}),
    ("second suit", "trick-runaway", {"follow-suit"}),
    ("exhaustion", "trick-runaway", {"round-end"}),
    ("exaustion", "trick-runaway", {"round-end"}),
    ("two o clock", "black-hearts", {"two-oclock"}),
    ("who starts with two o'clock", "black-hearts", {"two-oclock"}),
    ("double curse", "cursed", {"double-curse"}),
    ("doubel curse", "cursed", {"double-curse"}),
    ("curses broken", "cursed-tricks", {"curse-breaking"}),
    ("who breaks a curse with the lowest card", "cursed-tricks", {"curse-breaking"}),
    ("winning card replaces a lower curse", "cursed-tricks", {"taking-curses"}),
    ("third curse ends the round", "cursed-tricks", {"round-end"}),
    ("how many points for two curses", "cursed-tricks", {"scoring"}),
    ("scoring with no tricks won 10 points", "cursed-tricks", {"scoring"}),
    ("which colour is removed with 3 players", "cursed-tricks",
     {"q-three-player-suit"}),
    ("clubs led no second suit", "trick-runaway", {"q-clubs-led"}),
    ("rank below zero", "trick-runaway", {"q-rank-below-zero"}),
    ("instant death space", "trick-runaway", {"damage", "q-death-space"}),
    ("damage modifier printed number", "trick-runaway", {"damage"}),
    (
        "seventh curse completely eliminated",
        "trick-runaway",
        {"curses", "q-no-space-left"},
    ),
    ("who leads after damage", "trick-runaway", {"next-leader"}),
    ("my cubes are level which track drops", "trick-runaway", {"q-cubes-level"}),
    ("flip life card black side", "trick-runaway", {"round-end", "out-of-round"}),
    ("discards count", "trick-runaway", {"counting-cards", "q-discard"}),
    ("neutralize spell", "cursed", {"spells", "q-neutralize"}),
    ("ruined fortune can't move", "cursed", {"ruined"}),
    ("devastated", "cursed", {"ruined"}),
    ("altar of tyche sacrifice", "cursed", {"sacrifices"}),
    ("sacrifise", "cursed", {"sacrifices"}),
    ("all five fortunes cursed", "cursed", {"elimination"}),
    ("last player standing", "cursed", {"game-end"}),
    ("super full moon", "wolf-x-trick", {"full-moons"}),
    ("pile with no full moon", "wolf-x-trick", {"pile-scoring"}),
    ("tied players eliminated", "wolf-x-trick", {"tie-elimination"}),
    ("second highest wins", "wolf-x-trick", {"winner"}),
    ("keep piles separate", "wolf-x-trick", {"piles"}),
    ("everyone tied draw", "wolf-x-trick", {"q-all-tied", "tie-elimination"}),
    ("gift card", "black-hearts", {"gift"}),
    ("took all six curse cards", "black-hearts", {"all-curses"}),
    ("13 curse points", "black-hearts", {"curse-points"}),
    ("same number tie latest card wins", "black-hearts",
     {"q-tie-highest", "trick-winner"}),
    ("how many random cards with five players", "black-hearts", {"setup"}),
    ("is there a 2 player variant for cursed tricks", "cursed-tricks", {"setup"}),
    ("can we play cursed tricks with two players", "cursed-tricks", {"setup"}),
    # Two players who did something: not how many play.
    ("trick runaway 2 players are eliminated in the same round", "trick-runaway",
     {"round-end"}),
    ("okami trick two tied", "wolf-x-trick", {"tie-elimination", "q-all-tied"}),
    ("dragon game how many cards", "trick-runaway", {"setup"}),
]

JAPANESE = [
    ("1と14が両方出たら", "cursed-tricks", {"trick-winner", "q-one-and-fourteen"}),
    ("第2スート", "trick-runaway", {"follow-suit"}),
    ("2つ目のスートに従う", "trick-runaway", {"follow-suit"}),
    ("力尽き", "trick-runaway", {"round-end"}),
    ("疲労で脱落", "trick-runaway", {"round-end", "q-one-out-hands-empty"}),
    ("2時", "black-hearts", {"two-oclock"}),
    ("二時のカード", "black-hearts", {"two-oclock"}),
    ("２時", "black-hearts", {"two-oclock"}),
    ("二重の呪い", "cursed", {"double-curse"}),
    ("呪いを解く", "cursed-tricks", {"curse-breaking"}),
    ("呪いが解ける", "cursed-tricks", {"curse-breaking"}),
    ("呪いの入れ替え", "cursed-tricks", {"taking-curses"}),
    ("3枚目の呪いでラウンド終了", "cursed-tricks", {"round-end"}),
    ("呪いが1枚のときの得点", "cursed-tricks", {"scoring", "q-one-curse"}),
    ("4ラウンドで終わり", "cursed-tricks", {"game-end"}),
    ("3人のとき抜く色", "cursed-tricks", {"q-three-player-suit"}),
    ("クラブがリードされた", "trick-runaway", {"q-clubs-led"}),
    ("即死", "trick-runaway", {"damage", "q-death-space"}),
    ("ダメージの計算", "trick-runaway", {"damage"}),
    ("7回目の呪い", "trick-runaway", {"curses", "q-no-space-left"}),
    ("ダメージを受けた人の左", "trick-runaway", {"next-leader"}),
    ("ライフカードを裏返す", "trick-runaway", {"round-end"}),
    ("捨て札", "trick-runaway", {"counting-cards"}),
    ("ランクが0未満", "trick-runaway", {"q-rank-below-zero"}),
    ("中和", "cursed", {"spells", "q-neutralize"}),
    ("破滅した運勢", "cursed", {"ruined"}),
    ("テュケーの祭壇", "cursed", {"sacrifices"}),
    ("運勢が全部呪い", "cursed", {"elimination"}),
    ("最後の1人", "cursed", {"game-end"}),
    ("超満月", "wolf-x-trick", {"full-moons"}),
    ("満月がない山", "wolf-x-trick", {"pile-scoring"}),
    ("同点の人は脱落", "wolf-x-trick", {"tie-elimination"}),
    ("2番目に多い人が勝ち", "wolf-x-trick", {"winner"}),
    ("山を混ぜない", "wolf-x-trick", {"piles"}),
    ("ギフトカード", "black-hearts", {"gift"}),
    ("呪いカードを6枚すべて取った", "black-hearts", {"all-curses"}),
    ("呪いポイント13点", "black-hearts", {"curse-points"}),
    ("同じ数字ならあとに出した人", "black-hearts", {"q-tie-highest", "trick-winner"}),
    ("ドラゴンのゲーム 何枚配る", "trick-runaway", {"setup"}),
]


def _raw(lang: str, slug: str) -> list[dict[str, object]]:
    path = ROOT / "data" / "rules" / lang / f"{slug}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_enough_questions_in_each_language() -> None:
    assert len(ENGLISH) >= 25
    assert len(JAPANESE) >= 25


# The reference's own words, typos and word forms, without the questions taught.
NOTHING_TAUGHT = recall.Recall((), {})


@pytest.mark.parametrize(("query", "game", "answers"), ENGLISH, ids=lambda v: str(v))
def test_english_question_finds_its_entry_first(
    query: str, game: str, answers: set[str]
) -> None:
    best = rules.search(query, "en", taught=NOTHING_TAUGHT)[0]
    assert (best.game, best.id) in {(game, a) for a in answers}


@pytest.mark.parametrize(("query", "game", "answers"), JAPANESE, ids=lambda v: str(v))
def test_japanese_question_finds_its_entry_first(
    query: str, game: str, answers: set[str]
) -> None:
    best = rules.search(query, "ja", taught=NOTHING_TAUGHT)[0]
    assert (best.game, best.id) in {(game, a) for a in answers}


@pytest.mark.parametrize("lang", rules.LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_topic_an_engine_cites_has_an_entry(lang: str, slug: str) -> None:
    ids = {str(e["id"]) for e in _raw(lang, slug)}
    assert set(TOPICS[slug]) <= ids


@pytest.mark.parametrize("slug", SLUGS)
def test_both_languages_have_exactly_the_same_entries(slug: str) -> None:
    english = [e["id"] for e in _raw("en", slug)]
    japanese = [e["id"] for e in _raw("ja", slug)]
    assert english == japanese
    assert len(set(english)) == len(english), "an id is used twice"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_answers_the_spec_rulings(slug: str) -> None:
    questions = [e for e in _raw("en", slug) if str(e["id"]).startswith("q-")]
    # Enough for the rulings and what players ask; few enough to read through.
    assert 6 <= len(questions) <= 25


@pytest.mark.parametrize("lang", rules.LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_entries_are_well_formed(lang: str, slug: str) -> None:
    for raw in _raw(lang, slug):
        assert {"id", "title", "answer", "body", "keywords"} <= set(raw), raw
        known = {"id", "title", "answer", "body", "keywords", "app", "source", "ruling"}
        assert set(raw) <= known | {"about", "case"}, raw
        # What it rests on: the rulebook's passage, or the app's ruling.
        assert raw.get("source") or raw.get("ruling"), (lang, slug, raw["id"])
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", str(raw["id"]))
        assert str(raw["title"]).strip() and str(raw["body"]).strip(), raw["id"]
        keywords = raw["keywords"]
        assert isinstance(keywords, list) and keywords, raw["id"]
        assert all(isinstance(k, str) and k.strip() for k in keywords)


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_every_qa_names_its_topics_and_its_case(lang: str) -> None:
    for e in rules.load(lang):
        if not e.id.startswith("q-"):
            assert not e.about and not e.case, (e.game, e.id)
            continue
        assert e.about and e.case, (e.game, e.id)
        for topic in e.about:
            assert not rules.entry(e.game, topic, lang).id.startswith("q-")
        # Each alternative must say something once read.
        for group in e.case:
            assert all(alt.strip() for alt in group.split("|")), (e.game, e.id)


@pytest.mark.parametrize(
    ("query", "game", "lang", "first", "then"),
    [
        ("what if the 1 and 14 are both played", "cursed-tricks", "en",
         "q-one-and-fourteen", "trick-winner"),
        ("clubs led what do I follow", "trick-runaway", "en",
         "q-clubs-led", "follow-suit"),
        ("the hands ran out and only one player is out", "trick-runaway", "en",
         "q-one-out-hands-empty", "round-end"),
        ("two players took damage, who leads?", "trick-runaway", "en",
         "q-several-damaged-leader", "next-leader"),
        ("クラブがリードされたら何を出す", "trick-runaway", "ja",
         "q-clubs-led", "follow-suit"),
        ("手札がなくなったけど脱落は1人だけ", "trick-runaway", "ja",
         "q-one-out-hands-empty", "round-end"),
    ],
)
def test_a_question_naming_a_case_gets_its_qa_before_the_topic(
    query: str, game: str, lang: str, first: str, then: str
) -> None:
    found = [e.id for e in rules.search(query, lang, game, 10)]
    assert found[0] == first, found
    assert then in found


def test_a_topic_question_keeps_its_topic_first() -> None:
    # Naming the topic alone ("who leads next") is not naming a case of it.
    assert rules.search("who leads after damage", "en", "trick-runaway")[0].id == (
        "next-leader"
    )


@pytest.mark.parametrize(
    ("game", "topic", "words"),
    [
        ("cursed-tricks", "curse-breaking", ("lead", "1", "14")),
        ("trick-runaway", "follow-suit", ("clubs",)),
        ("trick-runaway", "round-end", ("least life",)),
        ("black-hearts", "setup", ("Two o'clock only", "8/13/18")),
    ],
)
def test_a_one_line_answer_names_its_exceptions(
    game: str, topic: str, words: tuple[str, ...]
) -> None:
    answer = rules.entry(game, topic).answer
    assert all(word in answer for word in words), answer


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_a_source_names_its_rulebook(lang: str) -> None:
    book = {"en": "{} rulebook, ", "ja": "{}のルールブック「"}[lang]
    for e in rules.load(lang):
        if e.source:
            title = rules.game_names(lang)[e.game][0]
            assert e.source.startswith(book.format(title)), (e.game, e.id)


def test_japanese_entries_are_written_in_japanese() -> None:
    for e in rules.load("ja"):
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", e.title + e.body), e.id


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.mark.skipif(
    not SEEDS.exists(), reason="the rulebooks are not here (set COMPANION_RULEBOOKS)"
)
def test_no_rulebook_sentence_is_copied() -> None:
    width = 70
    books = [_flat(p.read_text(encoding="utf-8")) for p in SEEDS.glob("*.txt")]
    windows = {b[i : i + width] for b in books for i in range(len(b) - width + 1)}
    for lang in rules.LANGUAGES:
        for e in rules.load(lang):
            texts = (e.title, e.answer, e.body, e.app, e.source, e.ruling)
            for text in (*texts, " ".join(e.keywords)):
                flat = _flat(text)
                for i in range(len(flat) - width + 1):
                    assert flat[i : i + width] not in windows, (e.game, e.id)


def test_load_gives_entries_of_every_game() -> None:
    entries = rules.load("en")
    assert all(isinstance(e, rules.Entry) for e in entries)
    assert {e.game for e in entries} == set(SLUGS)


def test_entry_looks_up_a_topic_and_refuses_an_unknown_one() -> None:
    found = rules.entry("trick-runaway", "round-end", "ja")
    assert found.game == "trick-runaway" and found.id == "round-end"
    assert "力尽き" in found.title
    with pytest.raises(KeyError):
        rules.entry("cursed", "follow-suit", "en")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(rules.UnknownLanguage):
        rules.load("fr")


def test_search_by_game_keeps_to_that_game() -> None:
    found = rules.search("curse", game="black-hearts")
    assert found and {e.game for e in found} == {"black-hearts"}


def test_search_respects_the_limit_and_finds_nothing_for_noise() -> None:
    assert len(rules.search("curse", limit=3)) == 3
    assert rules.search("") == []
    assert rules.search("the and of") == []
    assert rules.search("qwxzv plmokn") == []


def test_word_forms_meet() -> None:
    assert rules.tokens("curses") == rules.tokens("curse") == rules.tokens("cursed")
    assert rules.tokens("breaking") == rules.tokens("broken")
    assert rules.tokens("piles") == rules.tokens("pile")


def test_japanese_numbers_are_read_alike() -> None:
    assert rules.tokens("二時") == rules.tokens("2時") == rules.tokens("２時")
    assert rules.tokens("十三点") == rules.tokens("13点")
    assert rules.tokens("カード") == rules.tokens("かーど")


def test_english_numbers_and_word_forms_meet() -> None:
    assert rules.tokens("six curse cards") == rules.tokens("6 curse cards")
    assert rules.tokens("the 2nd suit") == rules.tokens("the second suit")
    assert rules.tokens("took") == rules.tokens("take")
    assert rules.tokens("blessing") == rules.tokens("blesses") == rules.tokens("bless")
    # "Blessed" is the state a fortune is in, not the spell that blesses it.
    assert rules.tokens("blessed") != rules.tokens("bless")
    assert rules.tokens("higher") == rules.tokens("highest")


def test_a_typo_of_an_irregular_word_is_forgiven() -> None:
    best = rules.search("devestated", game="cursed")[0]
    assert best.id == "ruined"


def test_kana_spellings_read_as_the_reference_writes_them() -> None:
    assert rules.tokens("のろいをはずす") == rules.tokens("呪いを外す")
    assert rules.tokens("はずして") == rules.tokens("外して")
    assert rules.tokens("いけにえ") == rules.tokens("生贄")
    assert rules.tokens("なんまい") == rules.tokens("何枚")
    # Not inside another word: the か of 誰かと is not 勝つ, nor ひとり 取り.
    assert rules.tokens("誰かと") != rules.tokens("誰勝と")
    assert rules.tokens("ひとり") == rules.tokens("1人")


def test_the_reference_is_written_as_the_spellings_read() -> None:
    # The index reads the reference as written, for speed: no spelling of
    # the table may change it, or a player's kana would miss its words.
    known: set[str] = set()
    for e in rules.load("ja"):
        for text in (e.title, e.answer, e.body, e.app, *e.keywords):
            flat = unicodedata.normalize("NFKC", text).lower()
            assert rules._spelled(text) == flat, (e.game, e.id)
            known |= rules._terms(text)
    path = ROOT / "data" / "rules" / "ja" / "spellings.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    for kana, kanji in table.items():
        if not kana.startswith("_"):
            assert rules._terms(kanji) & known, kana


def test_japanese_grammar_weighs_less_than_the_topic() -> None:
    best = rules.search("運勢って何がある", "ja")[0]
    assert (best.game, best.id) == ("cursed", "fortunes")


@pytest.mark.parametrize(
    ("query", "lang", "game"),
    [
        ("full moon", "en", "wolf-x-trick"),
        ("what happens to my fortune", "en", "cursed"),
        ("two o'clock", "en", "black-hearts"),
        ("escape track", "en", "trick-runaway"),
        ("満月", "ja", "wolf-x-trick"),
        ("運勢", "ja", "cursed"),
        ("2時", "ja", "black-hearts"),
    ],
)
def test_a_question_naming_no_game_goes_to_the_game_of_its_words(
    query: str, lang: str, game: str
) -> None:
    assert rules.read_game(query)[0] is None
    found = rules.search(query, lang, limit=3)
    assert found and {e.game for e in found} == {game}


@settings(max_examples=40, deadline=None)
@given(
    query=st.text(max_size=40),
    lang=st.sampled_from(rules.LANGUAGES),
    game=st.one_of(st.none(), st.sampled_from(SLUGS)),
    limit=st.integers(min_value=1, max_value=8),
)
def test_any_query_gives_at_most_limit_entries_of_the_game(
    query: str, lang: str, game: str | None, limit: int
) -> None:
    found = rules.search(query, lang, game, limit)
    assert len(found) <= limit
    assert len(set(found)) == len(found)
    if game is not None:
        assert all(e.game == game for e in found)


def test_cli_prints_the_best_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "second", "suit"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert 1 <= len(lines) <= 5
    game, title, answer = lines[0].split("\t")
    assert (game, title) == ("trick-runaway", "Following suit: the second suit")
    assert answer == rules.entry("trick-runaway", "follow-suit").answer


def test_cli_in_japanese_for_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "ja", "--game", "cursed", "二重の呪い"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cursed\t二重の呪い\t")
    assert all(line.startswith("cursed\t") for line in lines)


def test_cli_says_so_when_nothing_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "qwxzv"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "qwxzv" in captured.err and captured.err.count("\n") == 1


def test_cli_says_so_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "ja", "qwxzv"]) == 1
    assert "「qwxzv」" in capsys.readouterr().err


# --- Answers first, in players' words -------------------------------------------

# Words of the app's recording that belong in an entry's "In the app" line only.
APP_WORDS = re.compile(
    r"\bthe app\b|\blog\b|\bfield\b|_|\bF2\b|\bset event\b|\boptions?\b"
    r"|アプリ|ログ|オプション|イベント|記録",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_every_entry_opens_with_a_short_answer(lang: str) -> None:
    for e in rules.load(lang):
        assert e.answer.strip(), (e.game, e.id)
        # Room for the exceptions a line must name to be true in every case.
        if lang == "en":
            assert len(e.answer.split()) <= 24, (e.game, e.id)
        else:
            assert len(e.answer) <= 50, (e.game, e.id)


# A bare yes or no answers one way of putting the question; asked the other way
# ("is it just a discard then?") it says the opposite. A line states the rule.
BARE_YES_OR_NO = {
    "en": re.compile(r"^(?:yes|no|yeah|nope|hardly)\b", re.IGNORECASE),
    "ja": re.compile(r"^(?:はい|いいえ|いい|だめ|ダメ)[。、！]"),
}


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_no_line_opens_with_a_bare_yes_or_no(lang: str) -> None:
    for e in rules.load(lang):
        assert not BARE_YES_OR_NO[lang].search(e.answer), (e.game, e.id, e.answer)


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_player_text_leaves_the_app_to_its_own_line(lang: str) -> None:
    for e in rules.load(lang):
        for text in (e.title, e.answer, e.body):
            assert not APP_WORDS.search(text), (e.game, e.id, text)


@pytest.mark.parametrize(
    ("game", "topic"),
    [
        ("trick-runaway", "first-lead"),
        ("trick-runaway", "deck"),
        ("trick-runaway", "escape-indicator"),
        ("wolf-x-trick", "first-lead"),
        ("cursed", "q-curse-on-cursed"),
        ("cursed-tricks", "q-standard-deck"),
    ],
)
def test_the_questions_players_ask_have_entries(game: str, topic: str) -> None:
    for lang in rules.LANGUAGES:
        assert rules.entry(game, topic, lang).answer


# The one line carries the fact players ask of it, in both languages.
LINE_FACTS = [
    ("cursed-tricks", "setup", "Start player: anyone", "親(誰でも)が切り"),
    ("cursed-tricks", "curse-breaking", "any colour", "色は問わない"),
    ("cursed-tricks", "q-one-and-fourteen", "only if there is none", "あれば取らない"),
    ("trick-runaway", "damage", "four players start at -2", "4人は初期-2"),
    ("trick-runaway", "q-one-out-hands-empty", "no one was out", "脱落0人でも同じ"),
    ("trick-runaway", "out-of-round", "completely out", "完全脱落"),
    ("cursed", "double-curse", "Plain: blessed to neutral", "ふつうは祝福→中立"),
    ("cursed", "q-bless-cursed", "to Neutral, not to Blessed", "中立に"),
    ("cursed", "q-until-used-sacrifice", "An until-used sacrifice", "使うまで残る"),
    ("black-hearts", "setup", "white Random", "白ランダム"),
    ("trick-runaway", "q-cubes-level", "Cubes level", "同じ高さなら"),
    ("black-hearts", "all-curses", "points still added", "その回の点も加える"),
    ("wolf-x-trick", "piles", "face up in front of you", "表向き"),
    ("wolf-x-trick", "q-all-tied", "single player isn't tied", "1人だけ同点でなければ"),
]


@pytest.mark.parametrize(("game", "topic", "english", "japanese"), LINE_FACTS)
def test_the_line_states_the_fact_asked(
    game: str, topic: str, english: str, japanese: str
) -> None:
    assert english in rules.entry(game, topic, "en").answer
    assert japanese in rules.entry(game, topic, "ja").answer


@pytest.mark.parametrize(
    ("query", "lang", "topic"),
    [
        ("bless spell on a cursed fortune what happens", "en", "q-bless-cursed"),
        # "Blessed" is a fortune's state, "bless" the spell: not a double curse.
        (
            "blessing a cursed fortune, does it jump straight to blessed?",
            "en",
            "q-bless-cursed",
        ),
        ("呪われた運勢を治すには", "ja", "q-bless-cursed"),
        ("does a plain curse on a cursed fortune ruin it", "en", "q-curse-on-cursed"),
    ],
)
def test_a_blessing_and_a_curse_on_a_cursed_fortune_keep_apart(
    query: str, lang: str, topic: str
) -> None:
    found = rules.search(query, lang, "cursed", taught=NOTHING_TAUGHT)
    assert found[0].id == topic


def test_the_deck_entry_names_the_highest_card() -> None:
    assert "20" in rules.entry("trick-runaway", "deck").answer
    assert "12" in rules.entry("cursed-tricks", "q-standard-deck").answer


# --- Game names ------------------------------------------------------------------


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_every_game_has_names_with_its_title_first(lang: str) -> None:
    names = rules.game_names(lang)
    assert tuple(names) == SLUGS == rules.slugs()
    for slug, aliases in names.items():
        assert aliases and aliases[0].strip(), slug
        assert len(set(aliases)) == len(aliases), slug


@pytest.mark.parametrize(
    ("query", "game"),
    [
        ("trick runaway only 1 person out", "trick-runaway"),
        ("runaway who leads", "trick-runaway"),
        ("cursed! how do you win", "cursed"),
        ("when do i lose in CURSED", "cursed"),
        ("cursed game how do i win", "cursed"),
        ("cursed tricks scoring", "cursed-tricks"),
        ("wolf trick who wins the game", "wolf-x-trick"),
        ("Wolf x Trick ties", "wolf-x-trick"),
        ("werewolf scoring", "wolf-x-trick"),
        ("black hearts 13", "black-hearts"),
        ("トリックランナウェイ 次のリード誰", "trick-runaway"),
        ("ランナウェイ ダメージ", "trick-runaway"),
        ("呪術トリック 得点", "cursed-tricks"),
        ("カーストリックス 得点", "cursed-tricks"),
        ("カーストリック 何ラウンド", "cursed-tricks"),
        ("ぶらっくはーつ 13点", "black-hearts"),
        ("カースド 勝ち", "cursed"),
        ("オオカミ 満月", "wolf-x-trick"),
        ("狼 同点", "wolf-x-trick"),
        ("ブラックハーツ 2時", "black-hearts"),
        # Nicknames and common misspellings.
        ("ブラハ 13点", "black-hearts"),
        ("カーストトリック 得点", "cursed-tricks"),
        ("トリラン ダメージ", "trick-runaway"),
        ("ウルフ 満月", "wolf-x-trick"),
        ("black harts 13 points", "black-hearts"),
        # A game described when its name is forgotten.
        ("werewolf moon card game which colours", "wolf-x-trick"),
        ("full moon trick game how many rounds", "wolf-x-trick"),
        ("the fortunes game how do i win", "cursed"),
        ("the two-suit game damage", "trick-runaway"),
        ("running away game who leads", "trick-runaway"),
        ("heart game 13 points", "black-hearts"),
        ("満月のゲーム 同点", "wolf-x-trick"),
        ("運勢のゲーム 勝ち", "cursed"),
        ("逃げるゲーム ダメージ", "trick-runaway"),
        ("ハートのゲーム 13点", "black-hearts"),
        ("the game with the moons, how many rounds", "wolf-x-trick"),
        ("満月のやつ 何ラウンド", "wolf-x-trick"),
        ("運勢のやつ 勝ち", "cursed"),
        ("のろいのトリック 何ラウンド", "cursed-tricks"),
    ],
)
def test_a_game_named_in_the_question_is_read_and_cut_out(
    query: str, game: str
) -> None:
    named, rest = rules.read_game(query)
    assert named == game
    for word in ("runaway", "wolf", "hearts", "ランナウ", "カース", "オオカミ"):
        assert word not in rest.lower()


@pytest.mark.parametrize(
    ("query", "lang", "game", "answer"),
    [
        (
            "the game where you want the 2nd most full moons, do i follow the lead",
            "en",
            "wolf-x-trick",
            "follow-suit",
        ),
        (
            "game where the two oclock card starts, how many cards each",
            "en",
            "black-hearts",
            "setup",
        ),
        # A rule retold: each word common, together one game's entry.
        (
            "trick game where you keep every trick as its own face up pile, "
            "if everybody ends on the same points who wins",
            "en",
            "wolf-x-trick",
            None,
        ),
        (
            "card game where you pass 2 cards left and collect red curse cards - "
            "what if one person takes every curse card",
            "en",
            "black-hearts",
            None,
        ),
        ("祭壇に置くやつのゲームで最初は誰から", "ja", "cursed", "setup"),
        ("帽子のスートがあるゲームで脱落は何人まで", "ja", "trick-runaway", None),
    ],
)
def test_a_game_described_before_the_question_is_that_game(
    query: str, lang: str, game: str, answer: str | None
) -> None:
    found = rules.search(query, lang, taught=NOTHING_TAUGHT)
    assert {e.game for e in found} == {game}
    assert answer is None or found[0].id == answer


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "spell card game where each turn you do outgoing reflexive and sacrifice"
            " - when is the game over",
            "game-end",
        ),
        (
            "CURSED! the one with 5 fortunes and the altar of tyche"
            " - how many players can play",
            "q-player-count",
        ),
    ],
)
def test_a_description_after_the_games_nickname_is_not_the_question(
    query: str, answer: str
) -> None:
    found = rules.search(query, taught=NOTHING_TAUGHT)
    assert (found[0].game, found[0].id) == ("cursed", answer)


@pytest.mark.parametrize(
    ("query", "game", "rest"),
    [
        ("cursd tricks, someone just hit 3 curses", "cursed-tricks", "someone"),
        ("blak hearts who leads", "black-hearts", "who leads"),
        ("trick runawya 5 players", "trick-runaway", "5 players"),
    ],
)
def test_a_games_name_typed_with_a_slip_is_that_game(
    query: str, game: str, rest: str
) -> None:
    named, left = rules.read_game(query)
    assert named == game
    assert left.startswith(rest)


@pytest.mark.parametrize(
    ("query", "game"),
    [
        ("when is the game over in cursed", "cursed"),
        ("how many people can play cursed", "cursed"),
        ("blk hearts who leads", "black-hearts"),
    ],
)
def test_a_short_form_of_a_name_is_that_game(query: str, game: str) -> None:
    # "cursed" alone is a state a fortune or a player is in; "in cursed" is the game.
    assert rules.read_game(query)[0] == game
    assert rules.read_game("who gets cursed")[0] is None


@pytest.mark.parametrize(
    ("query", "game"),
    [
        ("トリランのパスって何枚？左？ブラハと同じ？", "trick-runaway"),
        ("is cursed tricks scored like black hearts?", "cursed-tricks"),
        ("CURSED!, not cursed tricks: who wins", "cursed"),
        ("呪いトリックじゃない方、何人まで？", None),
        (
            "does the trick winner lead next in black hearts?"
            " (in the wolf game it was the person to their left)",
            "black-hearts",
        ),
        ("wolf x trick or black hearts, which has more rounds", None),
    ],
)
def test_a_game_named_to_compare_or_set_aside_is_not_the_one_asked(
    query: str, game: str | None
) -> None:
    assert rules.read_game(query)[0] == game


def test_a_word_a_slip_away_from_a_name_is_not_the_game() -> None:
    assert rules.read_game("the cursed fortune")[0] is None
    assert rules.read_game("black heartless")[0] is None
    # Trick Runaway's curse tracks are not "cursed tricks" typed with two slips.
    assert rules.read_game("do curse tracks reset each round")[0] is None


@pytest.mark.parametrize(
    ("query", "lang", "game", "answer"),
    [
        (
            "in cursed (the one with the altar of tyche) when does the game end",
            "en",
            "cursed",
            "game-end",
        ),
        ("カースド（祭壇のやつ）っていつ終わる", "ja", "cursed", "game-end"),
    ],
)
def test_a_game_told_in_brackets_is_that_game(
    query: str, lang: str, game: str, answer: str
) -> None:
    found = rules.search(query, lang, taught=NOTHING_TAUGHT)
    assert (found[0].game, found[0].id) == (game, answer)


def test_what_follows_a_plain_name_is_the_question() -> None:
    # "with ..." describes a game after "spell card game", not after its name.
    found = rules.search(
        "cursed tricks with a normal 52 card deck, what changes",
        taught=NOTHING_TAUGHT,
    )
    assert (found[0].game, found[0].id) == ("cursed-tricks", "q-standard-deck")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (
            "in Cursed! (the spell card game with the altar of tyche)"
            " what does a neutralizing spell do",
            "neutralizing spell",
        ),
        ("the altar of tyche spell game, when does it end", "when does it end"),
        ("the lead card, who wins in black hearts", "the lead card who wins"),
    ],
)
def test_what_held_the_games_name_is_not_the_question(query: str, words: str) -> None:
    # "spell card game" is the name; what was around it only said which game.
    read = rules._read(query, "en", None)
    asked = {term for group in read.groups for term in group}
    assert asked == {t for g in rules._read(words, "en", None).groups for t in g}


def test_a_description_that_fits_no_one_game_narrows_nothing() -> None:
    for text, lang in [
        ("このげーむで1番強いかーど", "ja"),
        ("the game where everyone loves it, who deals", "en"),
    ]:
        assert rules._described_game(text, lang, rules._index(lang)) == (None, text)


def test_a_colour_names_the_case_not_the_rule() -> None:
    # "red" is in the set-up's list of suits; the question is about following.
    found = rules.search("no red, can i play any card", game="wolf-x-trick")
    assert found[0].id == "follow-suit"
    assert "red" in rules.case_words("en") and "紫" in rules.case_words("ja")


def test_the_sentence_that_asks_outweighs_the_story_before_it() -> None:
    story = "ann led the purple 9, ben played the purple 14 and cy the purple 1."
    found = rules.search(f"{story} who wins the trick", game="cursed-tricks")
    assert found[0].id in {"trick-winner", "q-one-and-fourteen"}

    def lead_trust(query: str) -> float:
        groups = rules._read(query, "en", "cursed-tricks").groups
        return max(group["lead"] for group in groups if "lead" in group)

    # "led" is the story's word: it weighs less once a sentence asks, and
    # in full when the words asked are the very ones the story uses.
    assert lead_trust(f"{story} who wins the trick") < lead_trust(story)
    assert lead_trust(f"{story} who leads next?") == lead_trust(story)


def test_what_players_say_is_not_the_case_is_not_asked_about() -> None:
    question = "final scores 7, 4 and 2, nobody tied. who wins"
    found = rules.search(question, "en", "wolf-x-trick")
    assert found[0].id == "winner"
    asked = rules._read("同点なし、誰が勝ち？", "ja", "wolf-x-trick")
    assert not any("同点" in group for group in asked.groups)


def test_what_is_said_not_to_be_the_case_names_no_qa() -> None:
    several_zero = rules.entry("wolf-x-trick", "q-several-zero")
    said = rules._said("scores 5, 3, 2, 1: no ties and nobody at 0 or below", "en")
    assert not rules.names_case(several_zero, said)


def test_a_games_name_names_no_case() -> None:
    # カースド (CURSED!) holds カース, a word for casting a curse: the name says
    # which game, not that a curse is cast on a fortune already cursed.
    on_cursed = rules.entry("cursed", "q-curse-on-cursed", "ja")
    question = "カースド 呪文カードのやつ、呪われたフォーチュンを中立に戻すには？"
    assert not rules.names_case(on_cursed, rules._said(question, "ja"))
    assert rules.names_case(on_cursed, rules._said("呪われた運勢にカース", "ja"))


def test_asking_when_names_no_kind_of_sacrifice() -> None:
    # Each kind acts at its own time: the topic that tells all three answers.
    for question, lang in [
        ("生贄の効果っていつ使えるの", "ja"),
        ("when can I use a sacrifice", "en"),
    ]:
        assert rules.search(question, lang, "cursed")[0].id == "sacrifices"
    until_used = rules.search("when can i use the redirect sacrifice", "en", "cursed")
    assert until_used[0].id == "q-until-used-sacrifice"


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("呪い2枚あるけどどっち外す？", True),
        ("違う色の呪いでも外せる？", True),
        # Which comes first, not which curse.
        ("解呪と呪い取るのってどっちが先？", False),
        ("エースとキングどっちが強い", False),
    ],
)
def test_which_curse_is_named_only_by_a_choice_of_curses(
    question: str, named: bool
) -> None:
    which = rules.entry("cursed-tricks", "q-which-curse", "ja")
    assert rules.names_case(which, rules._said(question, "ja")) is named


def test_a_signed_number_reads_as_below_zero() -> None:
    found = rules.search("my rank is -2 now, can that happen", game="trick-runaway")
    assert found[0].id == "q-rank-below-zero"


@pytest.mark.parametrize(
    "query", ["who gets cursed", "a cursed player", "cursed fortune", "CURSED TRICK"]
)
def test_a_bare_cursed_is_a_word_not_a_game(query: str) -> None:
    assert rules.read_game(query)[0] != "cursed"


def test_a_game_named_keeps_the_results_to_that_game() -> None:
    found = rules.search("cursed! how do you win")
    assert found and {e.game for e in found} == {"cursed"}
    assert (found[0].game, found[0].id) == ("cursed", "game-end")


def test_a_title_in_capitals_keeps_the_results_to_that_game() -> None:
    # "CURSED" in capitals is the game; "cursed" is a state in every game.
    found = rules.search("CURSED card game when does it end")
    assert found and {e.game for e in found} == {"cursed"}
    assert found[0].id == "game-end"


def test_only_a_game_name_searches_its_words() -> None:
    found = rules.search("wolf")
    assert found and {e.game for e in found} == {"wolf-x-trick"}


def test_two_games_named_narrow_nothing() -> None:
    assert rules.read_game("black hearts or runaway")[0] is None


# --- Players' words --------------------------------------------------------------


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_the_synonyms_are_data_and_point_at_known_words(lang: str) -> None:
    table = rules.synonyms(lang)
    assert table
    known: set[str] = set()
    for e in rules.load(lang):
        known |= set(rules.tokens(" ".join((e.title, e.body, *e.keywords))))
    for said, meant in table.items():
        assert said and meant.strip(), said
        assert set(rules.tokens(meant)) & known, said


@pytest.mark.parametrize(
    ("query", "lang", "game", "topic"),
    [
        ("dmg", "en", "trick-runaway", "damage"),
        ("when do i lose", "en", "cursed", "elimination"),
        ("who starts", "en", "black-hearts", "two-oclock"),
        ("how many rounds", "en", "cursed-tricks", "game-end"),
        ("何ラウンド", "ja", "trick-runaway", "game-end"),
        ("山をまとめる", "ja", "wolf-x-trick", "piles"),
        ("まんげつ", "ja", "wolf-x-trick", "full-moons"),
        # A verb in another form than the table's (まとめる).
        ("山をまとめて", "ja", "wolf-x-trick", "piles"),
        # How many, answered by the number the reference gives (13枚).
        ("何枚配る", "ja", "black-hearts", "setup"),
        # A phrase still matches with another particle (クラブのリード).
        ("クラブがリードされてクラブがない", "ja", "trick-runaway", "q-clubs-led"),
        # What a thing is: the topic tells it, not a case of it.
        ("逃走修正って何", "ja", "trick-runaway", "counting-cards"),
        ("whats the escape modifier", "en", "trick-runaway", "counting-cards"),
    ],
)
def test_players_words_find_the_reference_words(
    query: str, lang: str, game: str, topic: str
) -> None:
    best = rules.search(query, lang, game)[0]
    assert (best.game, best.id) == (game, topic)


# --- Questions asked at the table -------------------------------------------------


def _hits(
    rows: list[Asked], lang: str, top: int, taught: recall.Recall | None = None
) -> float:
    """The share of ``rows`` whose right entry is among the first ``top``."""
    hits = 0
    for row in rows:
        found = rules.search(row.question, lang, row.game, top, taught)
        hits += any(f"{e.game}/{e.id}" in row.answers for e in found)
    return hits / len(rows)


def _untaught(rows: list[Asked], lang: str) -> recall.Recall:
    """Every question taught but ``rows``: the search as it meets them anew."""
    return rules.recall(lang).without({row.question for row in rows})


# Sets written by players who never saw the search, each measured once as
# written before it was tuned on or taught.
HELD_OUT = tuple(
    name for name in recall.set_names("en") if name.startswith("held_out")
)


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_the_questions_are_many_and_spread(lang: str) -> None:
    assert set(recall.set_names(lang)) == {"tuning", *HELD_OUT}
    rows = recall.load(lang)
    assert len(rows) >= 1000
    latest = recall.load_set("held_out_111", lang)
    assert len(latest) >= 45
    # About a third asked with no game chosen (a few written so were answered by
    # no entry, and went to the unanswered questions).
    assert sum(row.game is None for row in latest) * 4 >= len(latest)
    assert sum(row.game is None for row in rows) * 3 >= len(rows)
    games = {answer.split("/")[0] for row in rows for answer in row.answers}
    assert games == set(SLUGS)
    for row in rows:
        for answer in row.answers:
            game, topic = answer.split("/")
            rules.entry(game, topic, lang)
            assert row.game in (None, game)


@pytest.mark.parametrize("lang", rules.LANGUAGES)
@pytest.mark.parametrize("chosen", [True, False], ids=["game-chosen", "all-games"])
def test_tuning_questions_find_their_entry(lang: str, chosen: bool) -> None:
    rows = recall.load_set("tuning", lang)
    rows = [row for row in rows if (row.game is not None) == chosen]
    taught = _untaught(rows, lang)
    assert _hits(rows, lang, 1, taught) >= 0.9
    assert _hits(rows, lang, 3, taught) >= 0.97


@pytest.mark.parametrize("lang", rules.LANGUAGES)
@pytest.mark.parametrize("part", HELD_OUT)
def test_held_out_questions_stay_above_a_floor(part: str, lang: str) -> None:
    # Each set was measured once, as written, before any work on what it
    # missed; from then on it guards what was gained, with a floor under the
    # figure it gives now. It is measured with every other set taught, as a
    # new question meets the search.
    rows = recall.load_set(part, lang)
    taught = _untaught(rows, lang)
    top1, top3 = _hits(rows, lang, 1, taught), _hits(rows, lang, 3, taught)
    print(f"{part} {lang}: top-1 {top1:.0%}, top-3 {top3:.0%}")
    assert top1 >= 0.8
    assert top3 >= 0.9


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_a_question_taught_finds_its_answer(lang: str) -> None:
    rows = recall.load(lang)
    # Over 2,000 questions each way; a taught question asked again is answered
    # as it was labelled (the misses are mostly a Q&A and its topic swapped).
    assert _hits(rows, lang, 1) >= 0.975


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_the_readings_kept_are_current(lang: str) -> None:
    # Reading every question again takes longer than a command may.
    renew = f"python -c 'from companion import rules; rules.write_readings(\"{lang}\")'"
    assert rules.readings_are_current(lang), f"renew them: {renew}"


# --- Showing results ---------------------------------------------------------------


def test_find_gives_scores_best_first() -> None:
    # Within one game: from home, each game's best answer comes first.
    found = rules.find("double curse", game="cursed")
    assert [m.score for m in found] == sorted((m.score for m in found), reverse=True)
    assert found[0].entry == rules.entry("cursed", "double-curse")
    assert "curs" in found[0].terms


def test_highlight_marks_the_matched_words() -> None:
    match = rules.find("double curse", game="cursed")[0]
    pieces = rules.highlight("A double curse hits twice", match.terms)
    assert "".join(p for p, _ in pieces) == "A double curse hits twice"
    marked = {p.strip() for p, hit in pieces if hit}
    assert {"double", "curse"} <= marked or "double curse" in marked


def test_highlight_marks_japanese_pairs() -> None:
    match = rules.find("二重の呪い", "ja", "cursed")[0]
    pieces = rules.highlight(match.entry.title, match.terms)
    assert "".join(p for p, hit in pieces if hit) == "二重の呪い"


def test_cli_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json", "--game", "cursed", "double", "curse"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["game"] == "cursed" and rows[0]["id"] == "double-curse"
    assert set(rows[0]) == {
        "game", "id", "title", "answer", "score", "source", "ruling", "closest",
        "asked",
    }
    assert rows[0]["source"] and rows[0]["ruling"] is None
    assert not rows[0]["closest"] and rows[0]["asked"] is None
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)


# --- Questions that ask two things ---------------------------------------------


@pytest.mark.parametrize(
    ("query", "lang", "expected"),
    [
        ("who wins", "en", ["who wins"]),
        ("is it one round or do we play several", "en",
         ["is it one round or do we play several"]),
        ("do we finish the hand? and what do they score", "en",
         ["do we finish the hand?", "what do they score"]),
        ("what happens to them and who wins", "en",
         ["what happens to them", "who wins"]),
        ("we pass 2 to the left right? before the gift?", "en",
         ["we pass 2 to the left right?", "before the gift?"]),
        ("which blue cards do we use? all 6?", "en",
         ["which blue cards do we use? all 6?"]),
        ("4人だと何枚ずつ配るの？余りは？", "ja",
         ["4人だと何枚ずつ配るの？", "余りは？"]),
        ("2枚渡すのって左？右？", "ja", ["2枚渡すのって左？ 右？"]),
    ],
)
def test_a_question_is_read_in_its_parts(
    query: str, lang: str, expected: list[str]
) -> None:
    assert rules.parts(query, lang) == expected


TWO_PARTS = (
    "how many cards does everyone get?",
    "what does a player with two curses score",
)


def test_each_part_of_a_question_has_its_answer_first() -> None:
    found = rules.find(" and ".join(TWO_PARTS), game="cursed-tricks")
    # In the order asked, each under its part.
    assert [(m.entry.id, m.asked) for m in found[:2]] == [
        ("setup", TWO_PARTS[0]),
        ("scoring", TWO_PARTS[1]),
    ]
    assert not any(m.asked for m in found[2:])
    # A question of one part is answered as before, with no part marked.
    assert not any(m.asked for m in rules.find("who wins", game="wolf-x-trick"))


def test_a_part_is_read_with_the_rest_of_its_question() -> None:
    # "round 2?" alone would be any round-2 rule; with its question it is the
    # lead, which the first answer already gives: no second line.
    found = rules.find(
        "who leads the first round? and who leads round 2?", game="trick-runaway"
    )
    assert found[0].entry.id == "first-lead"
    assert not any(m.asked for m in found[1:])


def test_a_case_named_in_one_part_is_not_the_others() -> None:
    # Five players' leftover cards are the second part's case, not the first's.
    found = rules.find(
        "with five players what life do we start at? and what about the two"
        " cards left over?",
        game="trick-runaway",
        taught=NOTHING_TAUGHT,
    )
    assert [m.entry.id for m in found if m.asked] == ["setup", "q-leftover-cards"]


def test_cli_shows_the_part_each_answer_is_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    command = ["rules", "--json", "--game", "cursed-tricks"]
    assert main([*command, " and ".join(TWO_PARTS)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["asked"] for row in rows[:3]] == [*TWO_PARTS, None]


def test_cli_json_with_no_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json", "qwxzv"]) == 1
    assert json.loads(capsys.readouterr().out) == []


def test_cli_rules_does_not_load_the_store() -> None:
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        "main(['rules', '--json', 'second', 'suit'])\n"
        "heavy = {'companion.store', 'companion.stats', 'companion.replay', 'tinydb'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_names_the_search_reads_are_the_names_the_games_give() -> None:
    kept = json.loads(NAMES_FILE.read_text(encoding="utf-8"))
    renew = "python -c 'import companion.games as g; g.write_names()'"
    assert kept == names_table(), f"renew it: {renew}"


# --- Saying which is a ruling, and when nothing answers ---------------------------


def test_cli_says_which_line_is_a_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    main(["rules", "--game", "black-hearts", "two players tie on the lowest total"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("black-hearts\tThe game ends and two players share")
    assert "The rulebook doesn't say; the app's ruling: " in first
    main(["rules", "--lang", "ja", "--game", "black-hearts", "最少", "同点"])
    assert "ルールブックには書かれていません" in capsys.readouterr().out


def _unanswered(lang: str) -> list[dict[str, str | None]]:
    path = ROOT / "data" / "rules" / "unanswered" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_cli_marks_the_closest_when_no_entry_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--json", "is there a time limit for a turn in CURSED!"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(row["closest"] for row in rows)
    assert main(["rules", "is there a time limit for a turn in CURSED!"]) == 1
    said = capsys.readouterr()
    assert said.err.startswith("No entry answers that.") and said.out


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_questions_nothing_answers_are_mostly_told_so(lang: str) -> None:
    # The threshold keeps right first answers called "no answer" to 1 %; it
    # then catches about one in six of the questions nothing answers (after
    # set 111: 9 of 58 in English, 12 of 75 in Japanese; the newest, asking
    # for strategy or what to do when a player breaks a rule, were not; "I
    # showed my hand by accident" now finds the rule that hands stay hidden,
    # which answers half of it). Those
    # left are hard to tell: they often ask two things, one of which an entry
    # answers, or ask near a rule ("can we play with jokers"). The questions
    # players ask most that the rulebooks leave open (drawing cards in CURSED!,
    # three players in Trick Runaway) have entries that say so.
    rows = _unanswered(lang)
    assert len(rows) >= 30
    told = sum(
        not rules.answers(rules.find(str(r["question"]), lang, r["game"], 3), lang)
        for r in rows
    )
    assert told / len(rows) >= 0.15


@pytest.mark.parametrize("lang", rules.LANGUAGES)
def test_a_right_first_answer_is_seldom_called_no_answer(lang: str) -> None:
    flagged = right = 0
    for part in HELD_OUT:
        rows = recall.load_set(part, lang)
        taught = _untaught(rows, lang)
        for row in rows:
            found = rules.find(row.question, lang, row.game, 3, taught)
            if found and f"{found[0].entry.game}/{found[0].entry.id}" in row.answers:
                right += 1
                flagged += not rules.answers(found, lang)
    assert flagged / right <= 0.01


def test_a_question_of_no_clear_game_shows_each_games_best_first() -> None:
    found = rules.find("呪い", "ja", None, 6)
    first_games = [m.entry.game for m in found[:3]]
    assert len(set(first_games)) == 3
    # Chosen or named, the game keeps every result.
    assert {m.entry.game for m in rules.find("ブラハ 呪い", "ja")} == {"black-hearts"}
