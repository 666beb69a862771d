"""What the past-game screens share: dates, outcomes and the filter buttons."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.errors import LogError
from companion.games import SLUGS
from companion.i18n import names_text
from companion.store import GameInfo
from screens import ui
from screens.shell import App


def when(stamp: str) -> str:
    """An ISO time as the lists show it: date, hours and minutes."""
    return stamp[:16].replace("T", " ")


def started(info: GameInfo) -> str:
    return when(info.started)


def outcome_text(app: App, finished: bool, winners: list[str]) -> str:
    if not finished:
        return app.t("history.not-over")
    return winners_text(app, winners, "history")


def winners_text(app: App, winners: list[str], where: str) -> str:
    """Who won as one sentence, in the words of ``where`` ("history", "over"):
    nobody, one winner, or several who share the win."""
    if not winners:
        return app.t(f"{where}.no-winner")
    if len(winners) == 1:
        return app.t(f"{where}.winner", name=winners[0])
    return app.t(f"{where}.winners", names=names_text(winners, app.lang))


def refusal(app: App, error: LogError) -> str:
    """Why a log was refused: the event at fault (or the header), then why."""
    if not error.event:
        return app.t("import.refused-header", problem=error.message)
    return app.t("import.refused-event", n=error.event, problem=error.message)


def choices(
    app: App,
    label: str,
    values: list[tuple[str | None, str]],
    chosen: str | None,
    pick: Callable[[str | None], None],
    prefix: str,
) -> ft.Control:
    """A row of filter buttons, the chosen one filled; ``None`` stands for all."""
    buttons = [
        ui.tap(
            text,
            lambda value=value: pick(value),
            f"{prefix}-{value or 'all'}",
            primary=value == chosen,
        )
        for value, text in [(None, app.t("history.all")), *values]
    ]
    return ft.Column(
        [ft.Text(label, size=12, weight=ft.FontWeight.W_500), ui.wrap(buttons)],
        spacing=4,
    )


def game_choices(
    app: App, chosen: str | None, pick: Callable[[str | None], None]
) -> ft.Control:
    values: list[tuple[str | None, str]] = [
        (slug, app.t(f"game.{slug}")) for slug in SLUGS
    ]
    return choices(app, app.t("history.game"), values, chosen, pick, "filter-game")
