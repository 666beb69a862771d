"""Players' statistics: games, wins, win rate, each game's best by its own
rule, and the rivals met most.

Every figure is counted from the stored logs by :mod:`companion.stats`;
figures keep identifiers the browser tests read back.
"""

from __future__ import annotations

import flet as ft

from companion import stats
from companion.games import SLUGS, all_games
from companion.i18n import counted
from screens import ui
from screens.figures import EMPTY, shown
from screens.past import game_choices
from screens.shell import HISTORY, App


def rate_text(rate: float) -> str:
    return f"{round(rate * 100)}%"


def average_text(value: float | None) -> str:
    return EMPTY if value is None else f"{value:.1f}"


class Stats:
    """Per player: games, wins, win rate, per game average and best, rivals."""

    def __init__(self, app: App, game: str | None = None) -> None:
        self.app = app
        self.game = game

    def pick_game(self, game: str | None) -> None:
        self.game = game
        self.app.render()

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        found = app.call(lambda: stats.statistics(app.store, self.game))
        records = found.players if found else []
        parts: list[ft.Control] = [
            ui.tap(
                t("history.back"), app.back, "history-back", icon=ft.Icons.ARROW_BACK
            ),
            ui.heading(t("stats.title"), 22),
            game_choices(app, self.game, self.pick_game),
            ft.Text(self.legend(), size=12),
        ]
        if found and found.broken:
            parts.append(
                ui.note(
                    counted("history.broken", len(found.broken), self.app.lang),
                    error=True,
                )
            )
        if not records:
            parts.append(ui.note(t("stats.none"), "stats-empty"))
        parts += [self.player(record) for record in records]
        return ft.Column(parts, spacing=12)

    def legend(self) -> str:
        t = self.app.t
        measures = []
        for game in all_games():
            words = f"{t(f'game.{game.slug}')}: {t(f'stats.measure.{game.measure}')}"
            best = t(f"stats.best-rule.{game.best_rule}")
            measures.append(f"{words} ({t('stats.best')}: {best})")
        return f"{t('stats.counted')} {' / '.join(measures)}"

    def player(self, record: stats.PlayerFigures) -> ft.Control:
        t, name = self.app.t, record.name
        overall = ui.wrap(
            [
                self.count(t("stats.games"), f"stats-{name}-games", record.played),
                self.count(t("stats.wins"), f"stats-{name}-wins", record.wins),
                self.count(
                    t("stats.rate"), f"stats-{name}-rate", rate_text(record.win_rate)
                ),
            ],
            spacing=18,
        )
        details = self.wide_table(record) if self.app.wide else self.narrow_rows(record)
        games = ui.tap(
            t("stats.player-games"),
            lambda: self.app.show(HISTORY, game=self.game, player=name),
            f"stats-{name}-list",
            icon=ft.Icons.LIST,
        )
        return ui.panel(
            ft.Row(
                [ui.heading(name, 18), games],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                wrap=True,
            ),
            overall,
            *details,
            *self.rivals(record),
            identifier=f"stats-{name}",
        )

    def rivals(self, record: stats.PlayerFigures) -> list[ft.Control]:
        """The players met most, and how the games with each of them ended."""
        t = self.app.t
        met = record.most_met()
        if not met:
            return []
        lines: list[ft.Control] = [
            ft.Divider(height=8),
            ft.Text(t("stats.rivals"), weight=ft.FontWeight.W_500),
        ]
        lines += [
            ui.figure(
                f"stats-{record.name}-rival-{rival.name}",
                t(
                    "stats.rival",
                    name=rival.name,
                    player=record.name,
                    met=counted("count.game", rival.met, self.app.lang),
                    won=rival.won,
                    lost=rival.lost,
                ),
                size=13,
            )
            for rival in met
        ]
        return lines

    def wide_table(self, record: stats.PlayerFigures) -> list[ft.Control]:
        t = self.app.t
        keys = ("games", "wins", "rate", "average", "best")
        columns = [ft.DataColumn(ft.Text(t("stats.game")))] + [
            ft.DataColumn(ft.Text(t(f"stats.{key}")), numeric=True) for key in keys
        ]
        rows = [
            ft.DataRow(
                [ft.DataCell(ft.Text(t(f"game.{slug}")))]
                + [
                    ft.DataCell(ui.figure(f"stats-{record.name}-{slug}-{key}", value))
                    for key, value in cells.items()
                ]
            )
            for slug, cells in self.cells(record)
        ]
        grid = ft.DataTable(
            columns=columns,
            rows=rows,
            column_spacing=14,
            horizontal_margin=6,
            heading_row_height=36,
            data_row_min_height=34,
            data_row_max_height=40,
        )
        return [ft.Row([grid], scroll=ft.ScrollMode.AUTO)]

    def narrow_rows(self, record: stats.PlayerFigures) -> list[ft.Control]:
        """A phone has no room for six columns: one block per game instead."""
        t = self.app.t
        blocks: list[ft.Control] = []
        for slug, cells in self.cells(record):
            blocks.append(ft.Divider(height=8))
            blocks.append(ft.Text(t(f"game.{slug}"), weight=ft.FontWeight.W_500))
            blocks.append(
                ui.wrap(
                    [
                        self.count(
                            t(f"stats.{key}"),
                            f"stats-{record.name}-{slug}-{key}",
                            value,
                            size=15,
                        )
                        for key, value in cells.items()
                    ],
                    spacing=16,
                )
            )
        return blocks

    @staticmethod
    def cells(record: stats.PlayerFigures) -> list[tuple[str, dict[str, object]]]:
        """Per game the player finished: the figures shown, by text key."""
        return [
            (
                slug,
                {
                    "games": figures.played,
                    "wins": figures.wins,
                    "rate": rate_text(figures.win_rate),
                    "average": average_text(figures.average),
                    "best": shown(figures.best),
                },
            )
            for slug in SLUGS
            if (figures := record.by_game.get(slug)) is not None
        ]

    @staticmethod
    def count(label: str, identifier: str, value: object, size: int = 20) -> ft.Control:
        return ft.Column(
            [
                ft.Text(label, size=12),
                ui.figure(identifier, value, size=size, weight=ft.FontWeight.BOLD),
            ],
            spacing=0,
        )
