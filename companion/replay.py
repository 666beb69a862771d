"""Replaying a log: everything the table sees is derived here, never stored."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from companion.errors import LogError, RuleError
from companion.games import get_engine
from companion.games.base import (
    Engine,
    Event,
    Outcome,
    Prompt,
    Reason,
    State,
    Summary,
)
from companion.log import HEADER, GameLog


@dataclass
class Step:
    number: int
    event: Event
    outcome: Outcome


@dataclass
class Replay:
    log: GameLog
    engine: Engine[Any]
    state: State
    steps: list[Step] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The summary as the JSON the specification gives (see :meth:`standing`)."""
        return self.standing().to_dict()

    def standing(self) -> Summary:
        return self.engine.summary(self.state)

    @property
    def verdict(self) -> list[Reason]:
        """Why the winners won, as the rules decided it once the game ended."""
        return list(self.state.verdict)

    def prompt(self) -> Prompt:
        return self.engine.prompt(self.state)

    def apply(self, event: Event) -> Outcome:
        """Apply one more event; on error nothing changes."""
        number = len(self.log.events) + 1
        trial = copy.deepcopy(self.state)
        outcome = _apply(self.engine, trial, event, number)
        self.state = trial
        self.log.events.append(event)
        self.steps.append(Step(number, event, outcome))
        return outcome

    def preview(self, event: Event) -> Outcome:
        """What one more event would do, without doing it."""
        trial = copy.deepcopy(self.state)
        return _apply(self.engine, trial, event, len(self.log.events) + 1)


def _apply(engine: Engine[Any], state: State, event: Event, number: int) -> Outcome:
    """One event applied, or a LogError numbered with the event.

    Only LogError is a refusal: engines refuse malformed events themselves, so
    any other exception is a bug in the engine and surfaces as one.
    """
    if state.finished:
        raise RuleError("the game is already over", number)
    try:
        return engine.apply(state, event)
    except LogError as error:
        raise error.at(number) from None


def start(log: GameLog) -> Replay:
    """A replay of the log's header alone, ready for events."""
    engine = get_engine(log.game)
    engine.check_players(log.players)
    try:
        options = engine.options(list(log.players), dict(log.options))
    except LogError as error:
        raise error.at(HEADER) from None
    state = engine.start(list(log.players), options)
    return Replay(log.with_events([]), engine, state)


def replay(log: GameLog) -> Replay:
    result = start(log)
    # A failed event aborts the whole replay, so no defensive copy is needed here.
    for number, event in enumerate(log.events, start=1):
        outcome = _apply(result.engine, result.state, event, number)
        result.log.events.append(event)
        result.steps.append(Step(number, event, outcome))
    return result
