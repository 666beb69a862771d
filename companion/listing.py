"""The past-games list a page at a time, as quick with years of games as with few.

Every way the list is filtered (the trash or not, one game or all, one
player or all) keeps its games in order, newest first, updated one game at
a time as the summaries change (see :mod:`companion.summaries`); a page is
then a slice of that order, whatever the number of games.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from companion.store import GameInfo, Store
from companion.summaries import GameSummary, Newest, view_of

PAGE_SIZE = 25

# (the trash, one game or None, one folded name or None)
Filter = tuple[bool, str | None, str | None]
# The store's own order (GameInfo.sort_key): ascending, so the newest game is last
Place = tuple[int, str, str]


@dataclass(frozen=True)
class Page:
    """One page of the list: its games newest first, and how many there are."""

    games: list[GameInfo]
    total: int
    offset: int

    @property
    def more(self) -> bool:
        return self.offset + len(self.games) < self.total


def _filters(info: GameInfo) -> list[Filter]:
    names = [None, *{name.casefold() for name in info.players}]
    return [(info.deleted, game, name) for game in (None, info.game) for name in names]


class Listing:
    """Every filter's games in order, and the names seen, newest first."""

    def __init__(self) -> None:
        self.orders: dict[Filter, list[Place]] = {}
        self.lines: dict[str, GameInfo] = {}
        self.names: dict[str, Newest] = {}

    def add(self, summary: GameSummary) -> None:
        info = summary.info
        self.lines[info.id] = info
        place = info.sort_key
        for key in _filters(info):
            bisect.insort(self.orders.setdefault(key, []), place)
        if not info.deleted:
            for name in info.players:
                self.names.setdefault(name.casefold(), Newest()).add(info, name)

    def remove(self, summary: GameSummary) -> None:
        info = summary.info
        self.lines.pop(info.id, None)
        place = info.sort_key
        for key in _filters(info):
            order = self.orders.get(key, [])
            at = bisect.bisect_left(order, place)
            if at < len(order) and order[at] == place:
                del order[at]
            if not order:
                self.orders.pop(key, None)
        if not info.deleted:
            for name in info.players:
                newest = self.names.get(name.casefold())
                if newest is not None:
                    newest.remove(info)
                    if not newest:
                        del self.names[name.casefold()]

    def page(
        self, trash: bool, game: str | None, player: str | None, offset: int, count: int
    ) -> Page:
        order = self.orders.get((trash, game, player and player.casefold()), [])
        if offset >= len(order):  # past the end (games went): the last page
            offset = (len(order) - 1) // count * count if order else 0
        offset = max(0, offset)
        end = len(order) - offset
        places = order[max(0, end - count) : end]
        return Page(
            [self.lines[place[-1]] for place in reversed(places)],
            len(order),
            offset,
        )

    def players(self) -> list[str]:
        """Every name in a kept game, most recently seen first, once each.

        Names last seen in the same game come in their seating order.
        """

        def recent(newest: Newest) -> tuple[tuple[str, str], int]:
            seats = self.lines[newest.latest[1]].players
            return newest.latest, -seats.index(newest.spelling)

        ranked = sorted(self.names.values(), key=recent, reverse=True)
        return [newest.spelling for newest in ranked]


def past_games(
    store: Store,
    *,
    game: str | None = None,
    player: str | None = None,
    trash: bool = False,
    offset: int = 0,
    count: int = PAGE_SIZE,
) -> Page:
    """A page of the stored games, newest first, optionally filtered.

    An ``offset`` past the last game gives the last page (see Page.offset).
    ``player`` matches regardless of case; ``trash`` lists the deleted games
    instead of the others.
    """
    return view_of(store, Listing).page(trash, game, player, offset, count)


def known_players(store: Store) -> list[str]:
    """Every name in a kept game, most recently seen first (one spelling each)."""
    return view_of(store, Listing).players()


__all__ = ["PAGE_SIZE", "Listing", "Page", "known_players", "past_games"]
