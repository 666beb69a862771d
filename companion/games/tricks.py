"""What the trick-taking games share: seating, a trick's cards, following suit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from companion.cards import Card, Deck
from companion.errors import CardError, RuleError
from companion.games.base import Event, need_card, need_list

_TIMES = {1: "once", 2: "twice"}


def clockwise(
    players: list[str], start: str, skip: Collection[str] = ()
) -> list[str]:
    """The seating from ``start`` round the table, leaving out ``skip``."""
    at = players.index(start)
    order = players[at:] + players[:at]
    return [name for name in order if name not in skip]


def left_of(players: list[str], name: str, skip: Collection[str] = ()) -> str:
    """The next player clockwise after ``name`` who is not skipped."""
    at = players.index(name)
    for step in range(1, len(players) + 1):
        candidate = players[(at + step) % len(players)]
        if candidate not in skip:
            return candidate
    raise RuleError("nobody is left to lead")


@dataclass(frozen=True)
class Play:
    player: str
    card: Card


@dataclass
class RoundCards:
    """The cards played so far this round, checked against the game's deck."""

    deck: Deck
    played: Counter[Card] = field(default_factory=Counter)

    def unplayed(self) -> tuple[Card, ...]:
        """Every copy not yet played, in suit and number order."""
        return tuple(sorted((self.deck - self.played).elements()))

    def check(self, cards: Iterable[Card]) -> None:
        wanted = Counter(cards)
        for card, n in wanted.items():
            held = self.deck.get(card, 0)
            if held == 0:
                raise CardError(f"{card} is not a card of this game")
            if self.played[card] + n > held:
                if held == 1:
                    raise CardError(f"{card} was already played this round")
                raise CardError(
                    f"{card} was already played {_TIMES.get(held, f'{held} times')} "
                    f"this round (the deck has {held})"
                )

    def take(self, cards: Iterable[Card]) -> None:
        cards = list(cards)
        self.check(cards)
        self.played.update(cards)

    def clear(self) -> None:
        self.played.clear()


def read_trick(event: Event, seats: list[str], round_cards: RoundCards) -> list[Play]:
    """The trick's plays, seat by seat from the leader, checked but not yet taken."""
    codes = need_list(event, "cards", 'a trick lists its cards in "cards"')
    if len(codes) != len(seats):
        raise RuleError(
            f"this trick needs {len(seats)} cards, one each from "
            f"{', '.join(seats)} in that order; it has {len(codes)}"
        )
    cards = [need_card(code) for code in codes]
    round_cards.check(cards)
    return [Play(player, card) for player, card in zip(seats, cards, strict=True)]


def highest_of(plays: Iterable[Play], suit: str) -> Play:
    """The first-played highest card of ``suit``."""
    return max(
        (play for play in plays if play.card.suit == suit),
        key=lambda play: play.card.number,
    )


def lowest_of(plays: Iterable[Play], suit: str) -> Play:
    return min(
        (play for play in plays if play.card.suit == suit),
        key=lambda play: play.card.number,
    )


@dataclass
class FollowWatch:
    """Who has shown out of which suit this round.

    A player who failed to follow a suit and later plays it has broken the
    must-follow rule (or the cards were entered wrongly): worth a warning,
    never a refusal, since the table's cards are the truth.
    """

    voids: dict[str, set[str]] = field(default_factory=dict)

    def showed_out(self, player: str, suits: Iterable[str]) -> None:
        self.voids.setdefault(player, set()).update(suits)

    def broken(self, play: Play) -> bool:
        """True when ``play`` is of a suit its player showed out of earlier."""
        return play.card.suit in self.voids.get(play.player, ())

    def clear(self) -> None:
        self.voids.clear()
