"""Texts in English and Japanese, read from ``data/i18n``.

The screens ask for their words by key; reasons from the rules engines are
English sentences whose Japanese templates are looked up by the reason's key,
as are the few English ones a player reads in other words than the engine's
explanation gives.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from companion.games.base import Reason

LANGUAGES = ("en", "ja")
DEFAULT_LANGUAGE = "en"
DATA = Path(__file__).resolve().parent.parent / "data"
I18N = DATA / "i18n"


@cache
def _table(name: str) -> dict[str, str]:
    path = I18N / f"{name}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def ui_keys(lang: str) -> set[str]:
    return set(_table(f"ui.{lang}"))


def text(key: str, lang: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """A screen's text in ``lang``, falling back to English, then to the key."""
    template = _table(f"ui.{lang}").get(key) or _table("ui.en").get(key) or key
    return template.format(**params) if params else template


def counted(key: str, n: int, lang: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """A count with its noun agreeing: ``key.one`` for one where the language
    has it ("1 game"), ``key`` otherwise ("2 games")."""
    one = f"{key}.one"
    if n == 1 and one in _table(f"ui.{lang}"):
        key = one
    return text(key, lang, n=n, **params)


def names_text(names: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Names as a sentence lists them: "Ann, Cy and Dee"."""
    if len(names) < 2:
        return "".join(names)
    head = text("list.comma", lang).join(names[:-1])
    return text("list.and", lang, names=head, last=names[-1])


def sentences(parts: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Clauses written one after another as sentences, each with its full stop."""
    stop = "。" if lang == "ja" else "."
    shown = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if lang != "ja":
            part = part[0].upper() + part[1:]
        shown.append(part if part[-1] in ".!?。！？" else part + stop)
    return ("" if lang == "ja" else " ").join(shown)


def word(value: str, lang: str) -> str:
    """A single word carried in a reason (a suit, a track, a state) in ``lang``."""
    if lang == "en":
        return value
    return _table(f"words.{lang}").get(value, value)


# Params that carry names or what players typed: shown as they are, never as words.
_AS_TYPED = frozenset(
    {"caster", "damaged", "gift", "holder", "leader", "others", "player", "players",
     "target", "text", "winner", "winners"}
)


# Params that list players, written "Ann, Cy" by the engines: a player reads
# "Ann and Cy".
_NAME_LISTS = frozenset({"others", "players", "winners"})


def reason_text(reason: Reason, lang: str = DEFAULT_LANGUAGE) -> str:
    """A reason as a player reads it in ``lang``: cards by their labels."""
    # English reasons read as their engine wrote them unless a player's
    # wording is kept for them (the engine's stays the developer's explanation)
    template = _table(f"reasons.{lang}").get(reason.key) or reason.template
    params = {
        key: value if key in _AS_TYPED else word(value, lang)
        for key, value in reason.shown_params.items()
    }
    for key in _NAME_LISTS & params.keys():
        params[key] = names_text(params[key].split(", "), lang)
    return template.format(**params)
