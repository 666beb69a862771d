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


class StaleGameError(StoreError):
    """A write meant for an older revision of a game than the one now stored."""

    def __init__(self, game_id: str, expected: int, stored: int) -> None:
        super().__init__(
            "This game changed on another screen; it now shows the latest."
        )
        self.game_id = game_id
        self.expected = expected
        self.stored = stored


def one_line(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape.

    A newline in a player's name must not forge a line of output, and no
    escape sequence may reach the terminal.
    """
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() else f"\\u{ord(char):04x}" for char in text
    )
