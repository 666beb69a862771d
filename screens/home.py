"""Home: resume the unfinished game first; start one; past games; rules."""

from __future__ import annotations

import flet as ft

from companion.store import GameInfo
from screens import ui
from screens.shell import HISTORY, NEW_GAME, RULES, TABLE, App


def describe(app: App, info: GameInfo) -> str:
    when = info.started[:16].replace("T", " ")
    return f"{app.t(f'game.{info.game}')} · {', '.join(info.players)} · {when}"


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
                        lambda: app.show(TABLE, game_id=latest.id),
                        "resume",
                        primary=True,
                        icon=ft.Icons.PLAY_ARROW,
                    ),
                )
            )
        parts.append(
            ui.tap(
                t("home.new"),
                lambda: app.show(NEW_GAME),
                "new-game",
                primary=not waiting,
                icon=ft.Icons.ADD,
                width=260,
            )
        )
        parts.append(
            ui.tap(
                t("home.past"),
                lambda: app.show(HISTORY),
                "past-games",
                icon=ft.Icons.HISTORY,
                width=260,
            )
        )
        parts.append(
            ui.tap(
                t("home.rules"),
                lambda: app.show(RULES),
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
