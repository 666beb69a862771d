"""The rules reference: short entries per game, and an offline search over them.

Entries live in ``data/rules/<lang>/<slug>.json``. Search is meant for words a
player types mid-game, so it forgives word forms, small typos, and Japanese
written without spaces (matched by character pairs).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TextIO

from companion.games import SLUGS

LANGUAGES = ("en", "ja")
RULES = Path(__file__).resolve().parent.parent / "data" / "rules"

# Game names count a little, so "black hearts tie" leans to that game's entries.
GAME_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "cursed-tricks": "Cursed Tricks",
        "trick-runaway": "Trick Runaway",
        "cursed": "CURSED!",
        "wolf-x-trick": "Wolf x Trick",
        "black-hearts": "Black Hearts",
    },
    "ja": {
        "cursed-tricks": "カースドトリック 呪いのトリック",
        "trick-runaway": "トリックランナウェイ",
        "cursed": "カースド",
        "wolf-x-trick": "オオカミ×トリック",
        "black-hearts": "ブラックハーツ",
    },
}

TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 3.0
BODY_WEIGHT = 1.0
GAME_WEIGHT = 0.5
FUZZY_FACTOR = 0.7
# A keyword or title whose every word appears, in order, in the query.
PHRASE_BONUS = 2.5
# Q&A entries repeat their topic's words; on a near tie the topic comes first.
TOPIC_PREFERENCE = 1.03


@dataclass(frozen=True)
class Entry:
    game: str
    id: str
    title: str
    body: str
    keywords: tuple[str, ...] = ()


class UnknownLanguage(ValueError):
    pass


def _check_lang(lang: str) -> None:
    if lang not in LANGUAGES:
        raise UnknownLanguage(
            f'no rules in "{lang}" (languages: {", ".join(LANGUAGES)})'
        )


def load(lang: str = "en") -> list[Entry]:
    """Every entry of every game in ``lang``, game by game in file order."""
    return list(_load(lang))


@cache
def _load(lang: str) -> tuple[Entry, ...]:
    _check_lang(lang)
    entries: list[Entry] = []
    for slug in SLUGS:
        path = RULES / lang / f"{slug}.json"
        for raw in json.loads(path.read_text(encoding="utf-8")):
            entries.append(
                Entry(
                    game=slug,
                    id=raw["id"],
                    title=raw["title"],
                    body=raw["body"],
                    keywords=tuple(raw.get("keywords", ())),
                )
            )
    return tuple(entries)


@cache
def _by_key(lang: str) -> dict[tuple[str, str], Entry]:
    return {(e.game, e.id): e for e in _load(lang)}


def entry(game: str, topic_id: str, lang: str = "en") -> Entry:
    """The entry a reason's topic points at; KeyError if the reference lacks it."""
    found = _by_key(lang).get((game, topic_id))
    if found is None:
        raise KeyError(f"{game} has no rules entry {topic_id!r} in {lang}")
    return found


# --- Tokenising --------------------------------------------------------------

_STOPWORDS = frozenset(
    {
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "do", "does", "did",
        "what", "whats", "when", "if", "and", "or", "of", "to", "in", "on", "for", "my",
        "i", "me", "we", "our", "it", "its", "this", "that", "how", "can", "who",
        "whom", "which", "with", "at", "by", "from", "there", "then", "than", "as",
        "so",
        "should", "would", "will", "shall", "im", "get", "gets", "got", "happen",
        "happens", "happened", "about", "rule", "rules",
    }
)
_IRREGULAR = {
    "broken": "break", "broke": "break", "took": "take", "taken": "take",
    "won": "win", "winning": "win", "led": "lead", "dead": "die", "died": "die",
    "lost": "lose", "loses": "lose", "chose": "choose", "chosen": "choose",
    "fewer": "few", "least": "few", "colour": "color", "colours": "color",
    "neutralise": "neutralize", "devastated": "ruin", "devastate": "ruin",
    "ruined": "ruin", "doubly": "double", "twice": "double",
}
_WORD = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u30fc々〆]")
# A unit of Japanese text: a number or one CJK/kana character.
_JA_UNIT = re.compile(r"[0-9]+|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff々〆ー]")
_JA_RUN = re.compile(
    r"(?:[0-9]+|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff々〆ー])+"
)
_KANJI_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_KANJI_NUMBER = re.compile(r"[〇一二三四五六七八九十]+(?=[時点枚人回番])")


def _stem(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.isdigit() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
        if len(word) > 2 and word[-1] == word[-2]:
            word = word[:-1]
    elif (word.endswith("ed") and len(word) > 4) or word.endswith(
        ("ches", "shes", "sses", "xes")
    ):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _kanji_to_number(match: re.Match[str]) -> str:
    text = match.group(0)
    if "十" not in text:
        return "".join(str(_KANJI_DIGITS[c]) for c in text)
    tens, _, ones = text.partition("十")
    value = (_KANJI_DIGITS.get(tens, 1) if tens else 1) * 10
    return str(value + sum(_KANJI_DIGITS.get(c, 0) for c in ones))


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    # Katakana and hiragana spellings of the same word should meet.
    text = "".join(
        chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text
    )
    text = _KANJI_NUMBER.sub(_kanji_to_number, text)
    # "o'clock", "don't": the apostrophe joins, it does not split.
    return re.sub(r"['’`]", "", text)


def _latin_tokens(text: str) -> list[str]:
    return [
        _stem(w) for w in _WORD.findall(text) if w not in _STOPWORDS
    ]


def _japanese_tokens(run: str) -> list[str]:
    units = _JA_UNIT.findall(run)
    tokens = [u for u in units if u.isdigit()]
    if len(units) == 1:
        return tokens if units[0].isdigit() else units
    return tokens + [a + b for a, b in zip(units, units[1:], strict=False)]


def tokens(text: str) -> list[str]:
    """Search terms of ``text``, in order, for either language."""
    text = _normalise(text)
    if not _CJK.search(text):
        return _latin_tokens(text)
    out: list[str] = []
    at = 0
    for match in _JA_RUN.finditer(text):
        out += _latin_tokens(text[at : match.start()])
        out += _japanese_tokens(match.group(0))
        at = match.end()
    out += _latin_tokens(text[at:])
    return out


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting a swap of neighbours as one edit, capped at limit+1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]


def _typo_limit(token: str) -> int:
    if len(token) < 4 or not token.isascii() or token.isdigit():
        return 0
    return 1 if len(token) < 8 else 2


def _deletions(token: str) -> set[str]:
    return {token[:i] + token[i + 1 :] for i in range(len(token))}


# --- Index -------------------------------------------------------------------


@dataclass
class _Doc:
    entry: Entry
    fields: dict[str, set[str]]
    phrases: list[tuple[tuple[str, ...], float]]


@dataclass
class _Index:
    docs: list[_Doc]
    idf: dict[str, float]
    near: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    fuzzy_cache: dict[str, list[str]] = field(default_factory=dict)

    def similar(self, token: str) -> list[str]:
        """Indexed terms one or two slips away from ``token``, closest first."""
        if token in self.fuzzy_cache:
            return self.fuzzy_cache[token]
        limit = _typo_limit(token)
        found: list[str] = []
        if limit:
            candidates: set[str] = set()
            for variant in _deletions(token) | {token}:
                candidates |= self.near.get(variant, set())
            near = ((_distance(token, c, limit), c) for c in candidates)
            found = [c for d, c in sorted(near) if d <= limit]
        # Queries are typed by hand; a bound keeps a long-running app's memory flat.
        if len(self.fuzzy_cache) > 4096:
            self.fuzzy_cache.clear()
        self.fuzzy_cache[token] = found
        return found


_WEIGHTS = {
    "title": TITLE_WEIGHT,
    "keywords": KEYWORD_WEIGHT,
    "body": BODY_WEIGHT,
    "game": GAME_WEIGHT,
}


def _fields(e: Entry, lang: str) -> dict[str, set[str]]:
    return {
        "title": set(tokens(e.title)),
        "keywords": set(tokens(" ".join(e.keywords))),
        "body": set(tokens(e.body)),
        "game": set(tokens(GAME_NAMES[lang][e.game])),
    }


@cache
def _index(lang: str) -> _Index:
    docs: list[_Doc] = []
    df: dict[str, int] = defaultdict(int)
    for e in _load(lang):
        fields = _fields(e, lang)
        phrases = [(tuple(tokens(k)), KEYWORD_WEIGHT) for k in e.keywords]
        phrases.append((tuple(tokens(e.title)), TITLE_WEIGHT))
        docs.append(_Doc(e, fields, [(p, w) for p, w in phrases if len(p) > 1]))
        for term in set().union(*fields.values()):
            df[term] += 1
    n = len(docs)
    idf = {term: math.log(1 + n / count) for term, count in df.items()}
    index = _Index(docs, idf)
    for term in idf:
        if _typo_limit(term):
            index.near[term].add(term)
            for variant in _deletions(term):
                index.near[variant].add(term)
    return index


def _contains(sequence: list[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(
        tuple(sequence[i : i + size]) == phrase
        for i in range(len(sequence) - size + 1)
    )


def _join_split_words(words: list[str], index: _Index) -> list[str]:
    """Mend a word typed in two pieces ("o clock") when one piece is unknown."""
    out: list[str] = []
    for word in words:
        if out:
            joined = out[-1] + word
            if joined in index.idf and (
                out[-1] not in index.idf or word not in index.idf
            ):
                out[-1] = joined
                continue
        out.append(word)
    return out


def _query_terms(index: _Index, query_tokens: Iterable[str]) -> dict[str, float]:
    """Each term to look for, with how much a match of it is trusted."""
    terms: dict[str, float] = {}
    for token in query_tokens:
        if token in index.idf:
            terms[token] = 1.0
            continue
        for other in index.similar(token):
            terms.setdefault(other, FUZZY_FACTOR)
    return terms


def _score(doc: _Doc, terms: dict[str, float], index: _Index,
           query: list[str]) -> float:
    score = 0.0
    for term, trust in terms.items():
        weight = sum(w for name, w in _WEIGHTS.items() if term in doc.fields[name])
        score += weight * trust * index.idf[term]
    if score == 0.0:
        return 0.0
    for phrase, weight in doc.phrases:
        if _contains(query, phrase):
            score += PHRASE_BONUS * weight * len(phrase)
    if not doc.entry.id.startswith("q-"):
        score *= TOPIC_PREFERENCE
    return score


def search(
    query: str, lang: str = "en", game: str | None = None, limit: int = 10
) -> list[Entry]:
    """Entries that answer ``query``, best first (empty when nothing matches)."""
    index = _index(lang)
    query_tokens = _join_split_words(tokens(query), index)
    terms = _query_terms(index, query_tokens)
    if not terms:
        return []
    # Phrases are compared after typos are mended, so "doubel curse" still counts.
    mended = [
        t if t in index.idf else next(iter(index.similar(t)), t) for t in query_tokens
    ]
    scored = [
        (_score(doc, terms, index, mended), position, doc.entry)
        for position, doc in enumerate(index.docs)
        if game is None or doc.entry.game == game
    ]
    scored = [item for item in scored if item[0] > 0]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [e for _, _, e in scored[:limit]]


def _nothing_en(query: str, game: str | None) -> str:
    where = f" in {GAME_NAMES['en'][game]}" if game else ""
    return (
        f'Nothing in the rules{where} matches "{query}": '
        "try other words, e.g. a card, a curse or a score."
    )


def _nothing_ja(query: str, game: str | None) -> str:
    where = f"{GAME_NAMES['ja'][game].split()[0]}の" if game else ""
    return (
        f"「{query}」に合う{where}ルールが見つかりません。"
        "カード・呪い・得点など、別の言葉で探してみてください。"
    )


_NOTHING = {"en": _nothing_en, "ja": _nothing_ja}


def print_matches(
    query: str,
    lang: str,
    game: str | None,
    out: TextIO,
    err: TextIO,
    limit: int = 5,
) -> int:
    """What ``companion rules`` prints: one "<slug>\\t<title>" per match, best first.

    Returns the exit status: 0 with matches, 1 with none.
    """
    found = search(query, lang=lang, game=game, limit=limit)
    if not found:
        err.write(_NOTHING[lang](query, game) + "\n")
        return 1
    for e in found:
        out.write(f"{e.game}\t{e.title}\n")
    return 0
