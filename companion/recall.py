"""Questions players have asked before, and the entries that answered them.

A question put in other words than the reference's is still often put in the
words of a question asked before ("both put down a 6", "who's got it"). The
search keeps every question it has been taught, read the way it reads a new
one, and a new question like an old one votes for the old one's answers.

The questions live in ``data/rules/asked/<set>.<lang>.json``: each set was
written by players who had not seen the search, measured as written, and only
then taught. This module only compares readings; reading a question is the
search's job (``companion.rules``), so it knows nothing of words or languages.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ASKED = Path(__file__).resolve().parent.parent / "data" / "rules" / "asked"

# A question's reading: each index term it holds, with how far it is trusted.
Reading = Mapping[str, float]

# Each further like question counts half the one before: a handful of askings
# of one entry outweighs a single near one, and a crowd does not swamp it.
FOLLOWING_SHARE = 0.5
VOTERS = 6


@dataclass(frozen=True)
class Asked:
    """One question asked at a table, and every entry that answers it."""

    question: str
    game: str | None
    answers: tuple[str, ...]
    set: str


def set_names(lang: str) -> list[str]:
    """The sets of questions taught in ``lang``, in name order."""
    return sorted(p.name.split(".")[0] for p in ASKED.glob(f"*.{lang}.json"))


def load_set(name: str, lang: str) -> list[Asked]:
    raw = json.loads((ASKED / f"{name}.{lang}.json").read_text(encoding="utf-8"))
    return [
        Asked(row["question"], row["game"], tuple(row["answers"]), name) for row in raw
    ]


def load(lang: str) -> list[Asked]:
    """Every question taught in ``lang``, set by set."""
    return [asked for name in set_names(lang) for asked in load_set(name, lang)]


class Recall:
    """The questions taught, ready to be compared with a new one."""

    def __init__(
        self,
        taught: Sequence[tuple[Asked, Reading]],
        idf: Mapping[str, float],
    ) -> None:
        self.taught = tuple(taught)
        self._idf = idf
        # Which taught questions hold each term, and each one's whole weight.
        self._holding: dict[str, list[int]] = defaultdict(list)
        self._mass: list[float] = []
        for position, (_, reading) in enumerate(self.taught):
            weights = self._weigh(reading)
            for term in weights:
                self._holding[term].append(position)
            self._mass.append(sum(weights.values()))

    def _weigh(self, reading: Reading) -> dict[str, float]:
        return {t: trust * self._idf.get(t, 0.0) for t, trust in reading.items()}

    def without(self, questions: Collection[str]) -> Recall:
        """The same recall, with ``questions`` never taught: to measure them."""
        kept = [(a, r) for a, r in self.taught if a.question not in questions]
        return Recall(kept, self._idf)

    def votes(self, reading: Reading) -> dict[str, float]:
        """How strongly questions asked before point at each entry ("game/id").

        A taught question's likeness is the mean of two shares of the new
        question's weight it holds: of the new question's own (how much of
        what was asked it covers) and of both together (how little else it
        brings). An entry takes the likeness of its likest questions, each
        further one counting for less.
        """
        asked = self._weigh(reading)
        mass = sum(asked.values())
        if not mass:
            return {}
        shared: dict[int, float] = defaultdict(float)
        for term, weight in asked.items():
            for position in self._holding.get(term, ()):
                shared[position] += weight
        likeness: dict[str, list[float]] = defaultdict(list)
        for position, common in shared.items():
            covered = common / mass
            cosine = common / math.sqrt(mass * self._mass[position])
            for answer in self.taught[position][0].answers:
                likeness[answer].append((covered + cosine) / 2)
        return {
            answer: sum(
                value * FOLLOWING_SHARE**rank
                for rank, value in enumerate(sorted(values, reverse=True)[:VOTERS])
            )
            for answer, values in likeness.items()
        }
