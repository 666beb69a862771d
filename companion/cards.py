"""Cards as small values: a suit code and a number, written ``R7``, ``G14``."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from companion.errors import CardError

_CODE = re.compile(r"([A-Z])(\d{1,2})")


class Card(NamedTuple):
    """A card: its suit's code and its number. A tuple, so hashing it is cheap."""

    suit: str
    number: int

    @classmethod
    def parse(cls, code: object) -> Card:
        if not isinstance(code, str):
            raise CardError(f"{code!r} is not a card code (like R7)")
        return _parse(code)

    def __str__(self) -> str:
        return f"{self.suit}{self.number}"


@lru_cache(maxsize=1024)
def _parse(code: str) -> Card:
    match = _CODE.fullmatch(code.strip().upper())
    if match is None:
        raise CardError(f'"{code}" is not a card code (like R7)')
    return Card(match.group(1), int(match.group(2)))


Deck = Counter[Card]


def deck_of(suits: Iterable[str], numbers: Iterable[int]) -> Deck:
    """One card of every number in every suit."""
    numbers = list(numbers)
    return Counter(Card(suit, n) for suit in suits for n in numbers)


def deck_from_lists(numbers_by_suit: dict[str, Iterable[int]]) -> Deck:
    """A deck given suit by suit; a number listed twice is two copies."""
    return Counter(
        Card(suit, n) for suit, numbers in numbers_by_suit.items() for n in numbers
    )
