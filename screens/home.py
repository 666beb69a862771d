"""Home: every unfinished game to resume (which is which at a glance); start
one; past games; rules; back up every game to one file, and restore one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import flet as ft

from companion.backup import (
    BackupRefused,
    backup_bytes,
    backup_name,
    backup_reminder,
    restore_bytes,
)
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
        # What the last backup or restore came to, shown beside its buttons.
        self.said: tuple[str, bool] | None = None
        self.services: list[Any] = []

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
        parts.append(self.backup())
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

    # backup

    def backup(self) -> ft.Control:
        """Back up all games, restore, and a reminder when the last backup is old."""
        app, t = self.app, self.app.t
        rows: list[ft.Control] = [
            ui.wrap(
                [
                    ui.tap(
                        t("backup.make"),
                        self.make_backup,
                        "backup",
                        icon=ft.Icons.SAVE_ALT,
                    ),
                    ui.tap(
                        t("backup.restore"),
                        self.pick_backup,
                        "restore",
                        icon=ft.Icons.RESTORE,
                    ),
                ]
            )
        ]
        reminder = app.call(lambda: backup_reminder(app.store))
        if reminder is not None:
            due = (
                t("backup.never")
                if reminder.days is None
                else t("backup.old", days=reminder.days)
            )
            rows.append(ui.note(due, "backup-due"))
        if self.said is not None:
            words, error = self.said
            rows.append(ui.note(words, "backup-said", error=error))
        return ft.Column(rows, spacing=6)

    def make_backup(self) -> None:
        app = self.app
        now = datetime.now(UTC)
        data = app.call(lambda: backup_bytes(app.store, now))
        if data is None:
            return
        picker = ft.FilePicker()
        self.services.append(picker)

        async def save() -> None:
            await picker.save_file(file_name=backup_name(now), src_bytes=data)
            self.said = (app.t("backup.made"), False)
            app.render()

        app.page.run_task(save)

    def pick_backup(self) -> None:
        app = self.app
        picker = ft.FilePicker()
        self.services.append(picker)

        async def pick() -> None:
            files = await picker.pick_files(
                dialog_title=app.t("backup.restore"),
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"],
                with_data=True,
            )
            if files and files[0].bytes is not None:
                self.restore(files[0].bytes)

        app.page.run_task(pick)

    def restore(self, data: bytes) -> None:
        app = self.app
        try:
            with app.lock:
                restored = restore_bytes(app.store, data)
        except BackupRefused as refused:
            self.said = (app.t(refused.key), True)
        else:
            app.tell_others()
            self.said = (
                app.t(
                    "backup.restored",
                    added=restored.added,
                    kept=restored.already_kept,
                ),
                False,
            )
        app.render()
