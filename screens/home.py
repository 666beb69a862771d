"""Home: resume the unfinished game first; start one; past games; rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion import games
from companion.store import GameInfo
from screens import ui
from screens.history import History
from screens.rules import Rules

if TYPE_CHECKING:
    from screens.app import App


def describe(app: App, info: GameInfo) -> str:
    when = info.started[:16].replace("T", " ")
    return f"{app.t(f'game.{info.game}')} · {', '.join(info.players)} · {when}"


def open_game(
    app: App, game_id: str, *, leader: str | None = None, piles: bool = False
) -> None:
    stored = app.call(lambda: app.store.load(game_id))
    if stored is None:
        app.render()
        return
    if not games.describe(stored.log.game).has_tricks:
        from screens.cursed import CursedTable

        screen: ft.Control | object = CursedTable(app, game_id)
    else:
        from screens.table import TrickTable

        screen = TrickTable(app, game_id, leader=leader, piles=piles)
    app.keep_awake(True)
    app.go(screen)  # type: ignore[arg-type]


class Home:
    def __init__(self, app: App) -> None:
        self.app = app

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        parts: list[ft.Control] = [ui.heading(t("app.title"), 24)]
        waiting = app.call(app.store.unfinished) or []
        if waiting:
            latest = waiting[0]
            parts.append(
                ui.panel(
                    ui.heading(t("home.resume-title"), 16),
                    ft.Text(describe(app, latest)),
                    ui.tap(
                        t("home.resume"),
                        lambda: open_game(app, latest.id),
                        "resume",
                        primary=True,
                        icon=ft.Icons.PLAY_ARROW,
                    ),
                )
            )
        parts.append(
            ui.tap(
                t("home.new"),
                lambda: app.go(self.new_game()),
                "new-game",
                primary=not waiting,
                icon=ft.Icons.ADD,
                width=260,
            )
        )
        parts.append(
            ui.tap(
                t("home.past"),
                lambda: app.go(History(app)),
                "past-games",
                icon=ft.Icons.HISTORY,
                width=260,
            )
        )
        parts.append(
            ui.tap(
                t("home.rules"),
                lambda: app.go(Rules(app)),
                "rules",
                icon=ft.Icons.MENU_BOOK,
                width=260,
            )
        )
        for warning in app.call(app.store.warnings) or []:
            parts.append(ui.note(warning, error=True))
        if app.message:
            parts.append(ui.note(app.message, "error", error=True))
        return ft.Column(parts, spacing=12)

    def new_game(self) -> ft.Control:
        from screens.new_game import NewGame

        return NewGame(self.app)  # type: ignore[return-value]

