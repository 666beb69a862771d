"""Home: every unfinished game to resume (which is which at a glance); start
one; past games; rules."""

from __future__ import annotations

import flet as ft

from companion.games import describe
from companion.i18n import counted
from companion.store import GameInfo
from screens import ui
from screens.past import when
from screens.shell import HISTORY, NEW_GAME, RULES, TABLE, App


def where_it_stands(app: App, info: GameInfo) -> str:
    """The round the game is in (or how far it went, in its own unit), and when
    it was last played."""
    spec = describe(info.game)
    log = app.store.load(info.id).log
    if spec.has_rounds:
        rounds = sum(event.get("type") == "round" for event in log.events)
        stands = app.t("home.round", n=rounds) if rounds else app.t("home.not-started")
    else:
        done = sum(event.get("type") == spec.unit for event in log.events)
        stands = counted(f"count.{spec.unit}", done, app.lang)
    return f"{stands} · {app.t('history.last-played', when=when(info.updated))}"


class Home:
    def __init__(self, app: App) -> None:
        self.app = app

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        parts: list[ft.Control] = [ui.heading(t("app.title"), 24)]
        waiting = app.call(app.store.unfinished) or []
        # The three ways on stay at the top, however many games wait below.
        parts.append(
            ui.wrap(
                [
                    ui.tap(
                        t("home.new"),
                        lambda: app.show(NEW_GAME),
                        "new-game",
                        primary=not waiting,
                        icon=ft.Icons.ADD,
                    ),
                    ui.tap(
                        t("home.past"),
                        lambda: app.show(HISTORY),
                        "past-games",
                        icon=ft.Icons.HISTORY,
                    ),
                    ui.tap(
                        t("home.rules"),
                        lambda: app.show(RULES),
                        "rules",
                        icon=ft.Icons.MENU_BOOK,
                    ),
                ]
            )
        )
        if waiting:
            # newest first, as the store lists them
            games = [self.waiting(info, at == 0) for at, info in enumerate(waiting)]
            parts.append(ui.panel(ui.heading(t("home.resume-title"), 16), *games))
        for warning in app.call(app.store.warnings) or []:
            parts.append(ui.note(warning, error=True))
        if app.message:
            parts.append(ui.note(app.message, "error", error=True))
        return ft.Column(parts, spacing=12)

    def waiting(self, info: GameInfo, first: bool) -> ft.Control:
        """One unfinished game: its name, players, round and when last played."""
        app = self.app
        stands = app.call(lambda: where_it_stands(app, info)) or ""
        # the newest keeps the plain "resume" id the table's tests know it by
        identifier = "resume" if first else f"resume-{info.id}"
        return ft.Column(
            [
                ft.Divider(height=6),
                ft.Text(app.t(f"game.{info.game}"), weight=ft.FontWeight.BOLD),
                ft.Text(", ".join(info.players)),
                ui.figure(f"waiting-{info.id}", stands, size=12),
                ui.tap(
                    app.t("home.resume"),
                    lambda: app.show(TABLE, game_id=info.id),
                    identifier,
                    primary=first,
                    icon=ft.Icons.PLAY_ARROW,
                ),
            ],
            spacing=2,
        )
