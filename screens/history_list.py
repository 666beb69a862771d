"""Past games: the list, filtered by game and player; the trash; importing a log.

Every game opens its detail (route GAME); a deleted game waits in the trash
until it is restored there or the trash is emptied. The list shows a page
at a time (:mod:`companion.listing`), so years of games open at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.errors import CompanionError, LogError
from companion.export import import_file, import_text
from companion.listing import PAGE_SIZE, Page, known_players, past_games
from companion.store import GameInfo
from screens import ui
from screens.past import choices, game_choices, outcome_text, refusal, started
from screens.shell import GAME, STATS, App


class History:
    """The saved games, newest first, filtered by game and by player."""

    def __init__(
        self, app: App, game: str | None = None, player: str | None = None
    ) -> None:
        self.app = app
        self.game = game
        self.player = player
        self.trash = False
        self.offset = 0  # how many newer games come before the page shown
        # Services live as long as something holds them.
        self.services: list[Any] = []

    def pick_game(self, game: str | None) -> None:
        self.game = game
        self.offset = 0
        self.app.render()

    def pick_player(self, player: str | None) -> None:
        self.player = player
        self.offset = 0
        self.app.render()

    def toggle_trash(self) -> None:
        self.trash = not self.trash
        self.offset = 0
        self.app.render()

    def turn(self, pages: int) -> None:
        self.offset = max(0, self.offset + pages * PAGE_SIZE)
        self.app.render()

    def open(self, game_id: str) -> None:
        self.app.show(GAME, game_id=game_id)

    def games(self) -> Page:
        store = self.app.store
        found = self.app.call(
            lambda: past_games(
                store,
                game=self.game,
                player=self.player,
                trash=self.trash,
                offset=self.offset,
            )
        )
        if found is None:
            return Page([], 0, 0)
        # fewer games than before (deleted elsewhere): the page moved back
        self.offset = found.offset
        return found

    def empty_trash(self) -> None:
        store = self.app.store

        def purge() -> None:
            for info in store.list_games(include_deleted=True):
                if info.deleted:
                    store.purge_game(info.id, expected_rev=info.rev)

        self.app.call(purge)
        self.app.render()

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        names = app.call(lambda: known_players(app.store)) or []
        page = self.games()
        games = page.games
        title = t("history.trash" if self.trash else "history.title")
        parts: list[ft.Control] = [
            ft.Row(
                [
                    ui.heading(title, 22),
                    ui.wrap(
                        [
                            ui.tap(
                                t("history.stats"),
                                lambda: app.show(STATS, game=self.game),
                                "open-stats",
                                icon=ft.Icons.LEADERBOARD,
                            ),
                            ui.tap(
                                t("import.open"),
                                self.ask_import,
                                "import-open",
                                icon=ft.Icons.UPLOAD_FILE,
                            ),
                            ui.tap(
                                t("history.games" if self.trash else "history.trash"),
                                self.toggle_trash,
                                "show-trash",
                                icon=ft.Icons.LIST if self.trash else ft.Icons.DELETE,
                            ),
                        ]
                    ),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                wrap=True,
            ),
            game_choices(app, self.game, self.pick_game),
            choices(
                app,
                t("history.player"),
                [(name, name) for name in names],
                self.player,
                self.pick_player,
                "filter-player",
            ),
        ]
        if app.message:
            parts.append(ui.note(app.message, "error", error=True))
        if self.trash and games:
            parts.append(
                ui.tap(
                    t("history.empty-trash"),
                    self.empty_trash,
                    "empty-trash",
                    icon=ft.Icons.DELETE_FOREVER,
                )
            )
        if not games:
            empty = "history.trash-empty" if self.trash else "history.none"
            parts.append(ui.note(t(empty), "history-empty"))
        else:
            parts.append(self.pager(page))
        parts += [self.line(info) for info in games]
        return ft.Column(parts, spacing=12)

    def pager(self, page: Page) -> ft.Control:
        """Where the page is, and the way to the newer and older games.

        Above the list, so that it stays in place whatever the page holds; a
        button with nowhere to go is greyed, never taken away.
        """
        t = self.app.t
        first = page.offset + 1
        return ft.Row(
            [
                ui.tap(
                    t("history.newer"),
                    lambda: self.turn(-1),
                    "history-newer",
                    icon=ft.Icons.CHEVRON_LEFT,
                    disabled=page.offset == 0,
                ),
                ui.figure(
                    "history-page",
                    t(
                        "history.page",
                        first=first,
                        last=page.offset + len(page.games),
                        total=page.total,
                    ),
                    size=13,
                ),
                ui.tap(
                    t("history.older"),
                    lambda: self.turn(1),
                    "history-older",
                    icon=ft.Icons.CHEVRON_RIGHT,
                    disabled=not page.more,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            wrap=True,
        )

    def line(self, info: GameInfo) -> ft.Control:
        t = self.app.t
        head = ft.Row(
            [
                ft.Text(t(f"game.{info.game}"), size=16, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        ft.Container(
                            ft.Text(t(f"history.state.{info.state}"), size=12),
                            padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                            border_radius=8,
                            bgcolor=ft.Colors.SECONDARY_CONTAINER,
                        ),
                        ft.Icon(ft.Icons.CHEVRON_RIGHT, size=20),
                    ],
                    spacing=4,
                    tight=True,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )
        box = ft.Container(
            content=ft.Column(
                [
                    head,
                    ft.Text(", ".join(info.players)),
                    ft.Text(started(info), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text(
                        outcome_text(self.app, info.finished, info.winners),
                        weight=ft.FontWeight.W_500,
                    ),
                ],
                spacing=2,
            ),
            padding=12,
            border_radius=12,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            ink=True,
            on_click=ui.guarded(lambda: self.open(info.id)),
        )
        return ui.tagged(f"game-{info.id}", box)

    # importing a log: pasted, or picked from the device's files

    def ask_import(self) -> None:
        t, page = self.app.t, self.app.page
        self.pasted = ft.TextField(
            multiline=True,
            min_lines=6,
            max_lines=10,
            text_size=12,
            hint_text=t("import.hint"),
            on_change=lambda _: self.edited(),
        )
        self.problem = ft.Text("", color=ft.Colors.ERROR, size=13)
        dialog = ft.AlertDialog(
            title=ft.Text(t("import.title"), size=16),
            content=ft.Column(
                [
                    ft.Text(t("import.explain"), size=12),
                    ui.tagged("import-text", self.pasted),
                    ui.tagged("import-problem", self.problem),
                ],
                tight=True,
                width=520,
            ),
            actions=[
                ft.Row(
                    [
                        ui.tap(
                            t("import.pick"),
                            self.pick_file,
                            "import-pick",
                            icon=ft.Icons.FOLDER_OPEN,
                        ),
                        ui.tap(t("history.close"), page.pop_dialog, "import-close"),
                        ui.tap(
                            t("import.go"),
                            lambda: self.take(lambda: self.paste_import()),
                            "import-go",
                            primary=True,
                        ),
                    ],
                    wrap=True,
                    spacing=6,
                    run_spacing=6,
                    alignment=ft.MainAxisAlignment.END,
                )
            ],
        )
        page.show_dialog(dialog)

    def edited(self) -> None:
        """A changed log is not the one refused: the refusal goes."""
        if self.problem.value:
            self.problem.value = ""
            self.problem.update()

    def paste_import(self) -> str:
        return import_text(self.app.store, self.pasted.value or "")

    def take(self, store_it: Callable[[], str]) -> None:
        """Store the log, or say in the dialog why not (nothing is stored then)."""
        try:
            with self.app.lock:
                game_id = store_it()
        except LogError as error:
            self.problem.value = refusal(self.app, error)
            self.problem.update()
            return
        except CompanionError as error:
            self.problem.value = str(error)
            self.problem.update()
            return
        self.app.tell_others()
        self.app.page.pop_dialog()
        self.open(game_id)

    def pick_file(self) -> None:
        picker = ft.FilePicker()
        self.services.append(picker)

        async def pick() -> None:
            files = await picker.pick_files(
                dialog_title=self.app.t("import.title"),
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"],
                with_data=True,
            )
            if not files or files[0].bytes is None:
                return
            data = files[0].bytes
            self.take(lambda: import_file(self.app.store, data))

        self.app.page.run_task(pick)
