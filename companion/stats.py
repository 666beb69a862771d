"""History and statistics, counted from the stored logs.

Every figure comes from replaying the games the store keeps, so a corrected
trick corrects the statistics too. Over many games the replays are read from
each game's kept summary (:mod:`companion.summaries`), recounted only when
its log changed, and the per player figures are kept up to date one game at
a time (:class:`Tally`).

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

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.games import all_games, describe
from companion.games.base import EVENT_STEP, PILE_STEP, ROUND_STEP, Best, Event
from companion.replay import Replay, start
from companion.store import Store
from companion.summaries import GameSummary, Newest, summaries_of, view_of

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


@dataclass
class GameFigures:
    """One player's record at one game."""

    game: str
    played: int = 0
    wins: int = 0
    total: int = 0  # the figures of every game played, added up
    # each game that counts towards "best", ranked by the game's own rule, with
    # how many games ranked so (a count, so that a game can be taken out again)
    ranked: Counter[Best] = field(default_factory=Counter)

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def average(self) -> float | None:
        return self.total / self.played if self.played else None

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


@dataclass
class _Record:
    """One player's figures at one game, kept up to date game by game."""

    figures: GameFigures
    name: Newest = field(default_factory=Newest)
    # by folded name: [met, won, lost]
    rivals: dict[str, list[int]] = field(default_factory=dict)


class Tally:
    """Every player's figures per game, kept up to date one summary at a time.

    A finished game adds to the figures of everyone at it, and taking it out
    (deleted, reopened, corrected) takes back exactly what it added: opening
    the statistics then costs the same with 5,000 games as with 50. Games
    not over, in the trash or no longer readable add nothing; the last are
    counted apart, so that a screen can say so.
    """

    def __init__(self) -> None:
        # game -> folded name -> record
        self.records: dict[str, dict[str, _Record]] = {}
        # game -> ids of its games whose log no longer replays (not in the trash)
        self.broken: dict[str, set[str]] = {}

    def add(self, summary: GameSummary) -> None:
        self._count(summary, 1)

    def remove(self, summary: GameSummary) -> None:
        self._count(summary, -1)

    def _count(self, summary: GameSummary, sign: int) -> None:
        info = summary.info
        if summary.broken and not info.deleted:
            broken = self.broken.setdefault(info.game, set())
            (broken.add if sign > 0 else broken.discard)(info.id)
        if not summary.counts:
            return
        records = self.records.setdefault(info.game, {})
        winners = {name.casefold() for name in info.winners}
        folded = {name: name.casefold() for name in summary.totals}
        for name, total in summary.totals.items():
            record = records.get(folded[name])
            if record is None:
                record = records[folded[name]] = _Record(GameFigures(info.game))
            figures = record.figures
            won = folded[name] in winners
            figures.played += sign
            figures.wins += sign * won
            figures.total += sign * total
            best = summary.best.get(name)
            if best is not None:
                figures.ranked[best] += sign
                if not figures.ranked[best]:
                    del figures.ranked[best]
            if sign > 0:
                record.name.add(info, name)
            else:
                record.name.remove(info)
            for rival in summary.totals:
                if folded[rival] == folded[name]:
                    continue
                against = record.rivals.setdefault(folded[rival], [0, 0, 0])
                against[0] += sign
                against[1] += sign * won
                against[2] += sign * (folded[rival] in winners)
                if not against[0]:
                    del record.rivals[folded[rival]]
            if not figures.played:
                del records[folded[name]]

    def figures(self, game: str | None = None) -> list[PlayerFigures]:
        """Per player figures over the finished games (of ``game`` only if given).

        A player is listed under the spelling of their most recent game, and
        ordered by games played, then name.
        """
        chosen = [game] if game is not None else list(self.records)
        newest: dict[str, tuple[tuple[str, str], str]] = {}
        for slug in chosen:
            for folded, record in self.records.get(slug, {}).items():
                seen = (record.name.latest, record.name.spelling)
                if folded not in newest or seen > newest[folded]:
                    newest[folded] = seen
        players: dict[str, PlayerFigures] = {}
        for slug in chosen:
            for folded, record in self.records.get(slug, {}).items():
                player = players.get(folded)
                if player is None:
                    player = players[folded] = PlayerFigures(newest[folded][1])
                kept = record.figures
                player.by_game[slug] = GameFigures(
                    slug, kept.played, kept.wins, kept.total, Counter(kept.ranked)
                )
                for rival, (met, won, lost) in record.rivals.items():
                    against = player.rivals.setdefault(rival, Rivalry(newest[rival][1]))
                    against.met += met
                    against.won += won
                    against.lost += lost
        return sorted(
            players.values(),
            key=lambda record: (-record.played, record.name.casefold()),
        )

    def broken_games(self, game: str | None = None) -> list[str]:
        chosen = [game] if game is not None else list(self.broken)
        return sorted(
            game_id for slug in chosen for game_id in self.broken.get(slug, ())
        )


def player_figures(games: Iterable[GameSummary]) -> list[PlayerFigures]:
    """Per player figures over the finished games among ``games`` (see Tally)."""
    tally = Tally()
    for game in games:
        tally.add(game)
    return tally.figures()


@dataclass(frozen=True)
class Gathered:
    """Stored games that replay, and the ids of any that no longer do."""

    games: list[GameSummary]
    broken: list[str]


def gather(
    store: Store, game: str | None = None, player: str | None = None
) -> Gathered:
    """Every stored game (newest first, optionally filtered) with its summary.

    Read from the kept summaries: only a game whose log changed is replayed.
    """
    wanted = player.casefold() if player is not None else None
    found = summaries_of(store).games.values()
    chosen = [
        summary
        for summary in found
        if not summary.info.deleted
        and (game is None or summary.info.game == game)
        and (wanted is None or wanted in {n.casefold() for n in summary.info.players})
    ]
    chosen.sort(key=lambda summary: (summary.info.started, summary.info.id))
    chosen.reverse()
    return Gathered(
        [summary for summary in chosen if not summary.broken],
        [summary.info.id for summary in chosen if summary.broken],
    )


@dataclass(frozen=True)
class Statistics:
    """What the statistics screen opens with."""

    players: list[PlayerFigures]
    broken: list[str]  # ids of games whose log no longer replays


def statistics(store: Store, game: str | None = None) -> Statistics:
    """Every player's figures over the stored finished games (of ``game``).

    Kept up to date game by game (see Tally): nothing is replayed here but
    a game that changed since the last look.
    """
    tally = view_of(store, Tally)
    return Statistics(tally.figures(game), tally.broken_games(game))


def store_figures(
    store: Store, game: str | None = None, player: str | None = None
) -> list[PlayerFigures]:
    """Per player figures over the store's games (see :func:`player_figures`)."""
    if player is None:
        return statistics(store, game).players
    return player_figures(gather(store, game, player).games)


__all__ = [
    "EVENT_STEP",
    "GameFigures",
    "Gathered",
    "LOWER_IS_BETTER",
    "MEASURES",
    "PILE_STEP",
    "PlayerFigures",
    "ROUND_STEP",
    "Rivalry",
    "RoundTable",
    "Series",
    "Statistics",
    "Step",
    "Tally",
    "chart_series",
    "gather",
    "player_figures",
    "round_table",
    "statistics",
    "store_figures",
]
