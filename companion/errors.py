"""One error type per kind of mistake, each saying what is wrong in a player's words."""

from __future__ import annotations


class CompanionError(Exception):
    """Anything the companion refuses, with a message fit to show a player."""


class LogError(CompanionError):
    """A game log that cannot be replayed.

    ``event`` is the 1-based number of the offending event; 0 stands for the
    log's header (format, game, players, options). Engines raise without a
    number and the replay fills it in.
    """

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.event = event

    def at(self, event: int) -> LogError:
        if self.event is None:
            self.event = event
        return self

    def __str__(self) -> str:
        if self.event is None:
            return self.message
        return f"event {self.event}: {self.message}"


class FormatError(LogError):
    """The log is not shaped as the format says (not JSON, missing field, ...)."""


class CardError(LogError):
    """A card that is not in the game, or played more often than the deck holds."""


class RuleError(LogError):
    """An event the game's rules do not allow at that point."""


class ChoiceNeeded(RuleError):
    """The rules need the table to choose before the event can be applied.

    ``field`` is the event key that carries the choice, ``player`` who chooses
    and ``options`` the values allowed.
    """

    def __init__(
        self, message: str, field: str, player: str, options: list[str]
    ) -> None:
        super().__init__(message)
        self.field = field
        self.player = player
        self.options = options


class StoreError(CompanionError):
    """The store cannot do what was asked (unknown game id, unreadable file, ...)."""
