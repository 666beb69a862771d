"""History and statistics, recounted from the stored logs.

Nothing here is stored: every figure comes from replaying the games the
store keeps, so a corrected trick corrects the statistics too.

The figure a game is judged by is its summary's ``totals``; what they
measure (points, life, fortunes left, curse points) is part of each game's
description (``GameSpec.measure``). Wins are read from the winners the replay
names, never from the figures: in Wolf x Trick the highest total does not
win. For the same reason a player's "best" game is chosen by the game's own
ranking (``GameSpec.best_of``): the game won or nearest to a win in Wolf x
Trick, the lowest total in Black Hearts, the most life survived with in
Trick Runaway, the most fortunes left in a CURSED! win. Only finished games
count: an unfinished or abandoned one has no outcome.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import LogError, StoreError
from companion.games import all_games, describe
from companion.games.base import EVENT_STEP, PILE_STEP, ROUND_STEP, Best, Event
from companion.replay import Replay, start
from companion.store import GameInfo, Store

# Read from the games' descriptions, for screens that list every game.
LOWER_IS_BETTER = frozenset(game.slug for game in all_games() if game.lower_is_better)

# What a game's totals measure, for a screen's labels.
MEASURES: dict[str, str] = {game.slug: game.measure for game in all_games()}


# one game: its table and its chart


@dataclass(frozen=True)
class RoundTable:
    """A game's round-by-round scores (``rows``, oldest first) and its totals."""

    players: list[str]
    rows: list[dict[str, Any]]
    totals: dict[str, Any]


def round_table(result: Replay) -> RoundTable:
    summary = result.summary()
    players = list(result.log.players)
    rows = [dict(entry.get("scores", {})) for entry in summary["rounds"]]
    return RoundTable(players, rows, dict(summary["totals"]))


@dataclass(frozen=True)
class Step:
    """One point of a chart: every player's figure after round/pile/event ``number``.

    ``number`` 0 is the start of the game.
    """

    number: int
    values: dict[str, int]


@dataclass(frozen=True)
class Series:
    game: str
    measure: str
    kind: str  # ROUND_STEP, PILE_STEP or EVENT_STEP
    players: list[str]
    steps: list[Step]

    def line(self, name: str) -> list[int]:
        return [step.values[name] for step in self.steps]


def chart_series(result: Replay) -> Series:
    """The game's figure per player, from the start, round by round.

    Cursed Tricks and Black Hearts add up their round scores; Trick Runaway
    shows life at each round's end; Wolf x Trick its points pile by pile;
    CURSED! the fortunes left after each spell or rule change (its log has no
    rounds). Only completed rounds count, as in the summary.
    """
    log = result.log
    game = describe(log.game)
    players = list(log.players)
    fresh = start(log)
    first = Step(0, _whole(fresh.engine.totals(fresh.state)))
    kind = game.chart_step
    if kind == ROUND_STEP:
        steps = [first, *_round_steps(result, first.values)]
    else:
        steps = [first, *_event_steps(fresh, result.log.events, kind)]
    return Series(log.game, game.measure, kind, players, steps)


def _whole(totals: dict[str, Any]) -> dict[str, int]:
    return {name: int(value) for name, value in totals.items()}


def _round_steps(result: Replay, start_values: dict[str, int]) -> list[Step]:
    summed = describe(result.log.game).summed_rounds
    running = dict(start_values)
    steps: list[Step] = []
    for number, entry in enumerate(result.summary()["rounds"], start=1):
        scores = _whole(entry.get("scores", {}))
        if summed:
            running = {name: running[name] + scores[name] for name in running}
        else:
            running = {name: scores[name] for name in running}
        steps.append(Step(number, running))
    return steps


def _event_steps(fresh: Replay, events: list[Event], kind: str) -> list[Step]:
    """Replays the events again from the header, taking the totals as they go.

    The replay holds the final state only, so the states in between are
    rebuilt here; the log replayed once already, so no event can fail.
    """
    wanted = describe(fresh.log.game).chart_events
    engine, state = fresh.engine, fresh.state
    steps: list[Step] = []
    for number, event in enumerate(events, start=1):
        engine.apply(state, event)
        if event.get("type") in wanted:
            label = len(steps) + 1 if kind == PILE_STEP else number
            steps.append(Step(label, _whole(engine.totals(state))))
    return steps


# many games: per player figures


@dataclass(frozen=True)
class Played:
    """One stored game with its replayed summary."""

    info: GameInfo
    summary: dict[str, Any]


@dataclass
class GameFigures:
    """One player's record at one game."""

    game: str
    played: int = 0
    wins: int = 0
    totals: list[int] = field(default_factory=list)
    # each game that counts towards "best", ranked by the game's own rule
    ranked: list[Best] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def average(self) -> float | None:
        return sum(self.totals) / len(self.totals) if self.totals else None

    @property
    def best(self) -> int | None:
        """The figure of the player's best game by its rule (None: none counts)."""
        return max(self.ranked).value if self.ranked else None


@dataclass
class Rivalry:
    """How often a player met ``name`` at a finished game, and who won it."""

    name: str
    met: int = 0
    won: int = 0  # games the player won with this rival at the table
    lost: int = 0  # games this rival won


@dataclass
class PlayerFigures:
    """One player's record over every game type they finished."""

    name: str
    by_game: dict[str, GameFigures] = field(default_factory=dict)
    # by folded name, everyone met at a finished game
    rivals: dict[str, Rivalry] = field(default_factory=dict)

    def most_met(self, count: int = 3) -> list[Rivalry]:
        """The rivals met most often, then by name."""
        ranked = sorted(
            self.rivals.values(), key=lambda rival: (-rival.met, rival.name.casefold())
        )
        return ranked[:count]

    @property
    def played(self) -> int:
        return sum(figures.played for figures in self.by_game.values())

    @property
    def wins(self) -> int:
        return sum(figures.wins for figures in self.by_game.values())

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


def player_figures(games: Iterable[Played]) -> list[PlayerFigures]:
    """Per player figures over the finished games among ``games``.

    Unfinished and abandoned games have no outcome, so they are left out.
    Names are matched regardless of case (as the store's player filter does);
    a player is listed under the spelling of their most recent game when the
    games come newest first. Players are ordered by games played, then name.
    """
    players: dict[str, PlayerFigures] = {}
    for game in games:
        summary = game.summary
        if not summary["finished"]:
            continue
        winners = {name.casefold() for name in summary["winners"]}
        ranking = describe(game.info.game).best_of
        for name, total in summary["totals"].items():
            record = players.setdefault(name.casefold(), PlayerFigures(name))
            figures = record.by_game.setdefault(
                game.info.game, GameFigures(game.info.game)
            )
            figures.played += 1
            figures.wins += name.casefold() in winners
            figures.totals.append(int(total))
            ranked = ranking(summary, name)
            if ranked is not None:
                figures.ranked.append(ranked)
            for rival in summary["totals"]:
                if rival.casefold() != name.casefold():
                    against = record.rivals.setdefault(rival.casefold(), Rivalry(rival))
                    against.met += 1
                    against.won += name.casefold() in winners
                    against.lost += rival.casefold() in winners
    return sorted(
        players.values(), key=lambda record: (-record.played, record.name.casefold())
    )


@dataclass(frozen=True)
class Gathered:
    """Stored games that replay, and the ids of any that no longer do."""

    games: list[Played]
    broken: list[str]


def gather(
    store: Store, game: str | None = None, player: str | None = None
) -> Gathered:
    """Every stored game (newest first, optionally filtered) with its summary."""
    games: list[Played] = []
    broken: list[str] = []
    for info in store.list_games(game=game, player=player):
        try:
            summary = store.replay(info.id).summary()
        except (LogError, StoreError):
            broken.append(info.id)
            continue
        games.append(Played(info, summary))
    return Gathered(games, broken)


def store_figures(
    store: Store, game: str | None = None, player: str | None = None
) -> list[PlayerFigures]:
    """Per player figures over the store's games (see :func:`player_figures`)."""
    return player_figures(gather(store, game, player).games)


__all__ = [
    "EVENT_STEP",
    "GameFigures",
    "Gathered",
    "LOWER_IS_BETTER",
    "MEASURES",
    "PILE_STEP",
    "Played",
    "PlayerFigures",
    "ROUND_STEP",
    "Rivalry",
    "RoundTable",
    "Series",
    "Step",
    "chart_series",
    "gather",
    "player_figures",
    "round_table",
    "store_figures",
]
