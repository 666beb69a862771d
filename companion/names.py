"""Player names: a name is what it looks like.

One rule for every way a name comes in (the new-game form, an imported log,
the command line): it is kept in one Unicode form (NFC), so the two ways of
writing "é" are one name; it may not be blank; it may not hold a character
that does not show or that turns the text around (zero-width characters, a
byte order mark, bidirectional overrides and isolates, control characters);
and two names that read the same, ignoring case and the spaces around and
between words, are one player named twice.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

# Characters drawn as nothing although their category says they are letters or
# symbols: the Hangul fillers and the blank Braille pattern.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Format (Cf: zero-width characters, BOM, direction marks, overrides and
# isolates), control (Cc) and line or paragraph separators (Zl, Zp).
_HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Zl", "Zp"})


class Problem(Enum):
    """Why a name is refused; each screen words it in its own language."""

    BLANK = "blank"
    HIDDEN = "hidden"
    DUPLICATE = "duplicate"


@dataclass(frozen=True)
class Refusal:
    problem: Problem
    name: str  # as it reads, with any hidden character left out
    hidden: str = ""  # the first hidden character found, for HIDDEN
    same_as: str = ""  # the name already taken, for DUPLICATE

    @property
    def text(self) -> str:
        """The refusal in English, as the command line and logs give it."""
        if self.problem is Problem.BLANK:
            return "a player's name is blank: each player needs a name"
        if self.problem is Problem.HIDDEN:
            return (
                f'the name "{self.name}" holds a hidden character '
                f"({hidden_character_name(self.hidden)}): type the name without it"
            )
        if self.same_as == self.name:
            return f'the name "{self.name}" is used twice: each player needs their own'
        return (
            f'the names "{self.same_as}" and "{self.name}" read the same: '
            "each player needs a name of their own"
        )


def is_hidden(character: str) -> bool:
    return (
        unicodedata.category(character) in _HIDDEN_CATEGORIES
        or character in _BLANK_LOOKING
    )


def hidden_character_name(character: str) -> str:
    """A hidden character in words ("zero width space"), never as a code."""
    return unicodedata.name(character, "an invisible character").lower()


def normal_form(name: str) -> str:
    """The one form a name is kept in."""
    return unicodedata.normalize("NFC", name)


def reading(name: str) -> str:
    """What a name reads as: two names with the same reading are the same name."""
    folded = unicodedata.normalize("NFC", normal_form(name).casefold())
    return " ".join(folded.split())


def name_refusal(name: str, taken: Iterable[str] = ()) -> Refusal | None:
    """Why ``name`` cannot join players already named ``taken``; None if it can."""
    shown = "".join(c for c in name if not is_hidden(c))
    if not shown.strip():
        return Refusal(Problem.BLANK, name)
    hidden = next((c for c in name if is_hidden(c)), None)
    if hidden is not None:
        return Refusal(Problem.HIDDEN, normal_form(shown), hidden=hidden)
    read = reading(name)
    for other in taken:
        if reading(other) == read:
            return Refusal(Problem.DUPLICATE, normal_form(name), same_as=other)
    return None


def first_refusal(names: Iterable[str]) -> Refusal | None:
    """The first name of a seating that cannot be kept, and why."""
    seated: list[str] = []
    for name in names:
        refusal = name_refusal(name, seated)
        if refusal is not None:
            return refusal
        seated.append(normal_form(name))
    return None
