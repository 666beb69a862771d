"""Past games: the list, one game's tables and chart, and the players' stats.

Every figure is recounted from the stored logs by :mod:`companion.stats`;
figures keep identifiers the browser tests read back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import flet as ft
import flet_charts as fch

from companion import stats
from companion.games import SLUGS, all_games
from companion.i18n import reason_text, word
from companion.log import dumps
from companion.replay import Replay
from companion.store import GameInfo, StoredGame
from screens import ui
from screens.figures import EMPTY, shown
from screens.reasons import reason_opener
from screens.shell import GAME, STATS, TABLE, App

# One colour per seat, told apart in light and dark themes alike.
LINE_COLOURS = (
    ft.Colors.DEEP_PURPLE_400,
    ft.Colors.TEAL_600,
    ft.Colors.ORANGE_700,
    ft.Colors.PINK_400,
    ft.Colors.BLUE_600,
    ft.Colors.LIME_800,
)
AXIS_LABELS = 10  # at most this many numbers under the chart
CHART_HEIGHT = 260


def when(info: GameInfo) -> str:
    return info.started[:16].replace("T", " ")


def rate_text(rate: float) -> str:
    return f"{round(rate * 100)}%"


def average_text(value: float | None) -> str:
    return EMPTY if value is None else f"{value:.1f}"


def outcome_text(app: App, finished: bool, winners: list[str]) -> str:
    if not finished:
        return app.t("history.not-over")
    if not winners:
        return app.t("history.no-winner")
    return app.t("history.winners", names=", ".join(winners))


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


class History:
    """The saved games, newest first, filtered by game and by player."""

    def __init__(
        self, app: App, game: str | None = None, player: str | None = None
    ) -> None:
        self.app = app
        self.game = game
        self.player = player

    def pick_game(self, game: str | None) -> None:
        self.game = game
        self.app.render()

    def pick_player(self, player: str | None) -> None:
        self.player = player
        self.app.render()

    def open(self, game_id: str) -> None:
        self.app.show(GAME, game_id=game_id)

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        store = app.store
        names = app.call(store.known_players) or []
        games = app.call(lambda: store.list_games(self.game, self.player)) or []
        parts: list[ft.Control] = [
            ft.Row(
                [
                    ui.heading(t("history.title"), 22),
                    ui.tap(
                        t("history.stats"),
                        lambda: app.show(STATS, game=self.game),
                        "open-stats",
                        icon=ft.Icons.LEADERBOARD,
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
        if not games:
            parts.append(ui.note(t("history.none"), "history-empty"))
        parts += [self.line(info) for info in games]
        return ft.Column(parts, spacing=12)

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
                    ft.Text(when(info), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
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
            on_click=lambda _: self.open(info.id),
        )
        return ui.tagged(f"game-{info.id}", box)


class GameDetail:
    """One game: round table, chart, outcome; resume, replay reasons, export."""

    def __init__(self, app: App, game_id: str) -> None:
        self.app = app
        self.game_id = game_id
        self.show_events = False
        # Services live as long as something holds them.
        self.services: list[Any] = []
        with app.lock:
            self.stored: StoredGame = app.store.load(game_id)
            self.result: Replay = app.store.replay(game_id)

    @property
    def slug(self) -> str:
        return self.result.log.game

    def toggle_events(self) -> None:
        self.show_events = not self.show_events
        self.app.render()

    def resume(self) -> None:
        self.app.show(TABLE, game_id=self.game_id)

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        info, summary = self.stored.info, self.result.summary()
        finished = bool(summary["finished"])
        actions: list[ft.Control] = []
        if not finished:
            actions.append(
                ui.tap(
                    t("history.resume"),
                    self.resume,
                    "detail-resume",
                    primary=True,
                    icon=ft.Icons.PLAY_ARROW,
                )
            )
        actions += [
            ui.tap(
                t("history.hide-events" if self.show_events else "history.show-events"),
                self.toggle_events,
                "detail-events-toggle",
                icon=ft.Icons.LIST,
            ),
            ui.tap(
                t("history.export-log"),
                lambda: self.export("log"),
                "export-log",
                icon=ft.Icons.DATA_OBJECT,
            ),
            ui.tap(
                t("history.export-csv"),
                lambda: self.export("csv"),
                "export-csv",
                icon=ft.Icons.TABLE_CHART,
            ),
        ]
        parts: list[ft.Control] = [
            ui.tap(
                t("history.back"),
                self.app.back,
                "history-back",
                icon=ft.Icons.ARROW_BACK,
            ),
            ft.Row(
                [
                    ui.heading(t(f"game.{self.slug}"), 22),
                    ui.figure(
                        "detail-state", t(f"history.state.{info.state}"), size=14
                    ),
                ],
                spacing=12,
                wrap=True,
            ),
            ft.Text(f"{', '.join(info.players)} · {when(info)}"),
            ui.figure(
                "detail-winners",
                outcome_text(app, finished, list(summary["winners"])),
                size=18,
                weight=ft.FontWeight.BOLD,
            ),
        ]
        if finished:
            parts.append(ft.Text(t("history.read-only"), size=12, italic=True))
        parts.append(ui.wrap(actions))
        table, chart = self.table_part(), self.chart_part()
        if app.wide:
            parts.append(
                ft.Row(
                    [ft.Container(table, expand=1), ft.Container(chart, expand=1)],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    spacing=16,
                )
            )
        else:
            parts += [table, chart]
        if self.show_events:
            parts.append(self.events_part())
        return ft.Column(parts, spacing=12)

    # the round table

    def table_part(self) -> ft.Control:
        t = self.app.t
        table = stats.round_table(self.result)
        measure = t(f"stats.measure.{self.result.engine.spec.measure}")
        columns = [ft.DataColumn(ft.Text(t("history.round")))] + [
            ft.DataColumn(ft.Text(name, weight=ft.FontWeight.BOLD))
            for name in table.players
        ]
        rows = [
            ft.DataRow(
                [ft.DataCell(ft.Text(str(number)))]
                + [
                    ft.DataCell(
                        ui.figure(
                            f"hist-round-{number}-{name}", shown(scores.get(name))
                        )
                    )
                    for name in table.players
                ]
            )
            for number, scores in enumerate(table.rows, start=1)
        ]
        rows.append(
            ft.DataRow(
                [ft.DataCell(ft.Text(measure, weight=ft.FontWeight.BOLD))]
                + [
                    ft.DataCell(
                        ui.figure(
                            f"hist-total-{name}",
                            shown(table.totals.get(name)),
                            weight=ft.FontWeight.BOLD,
                        )
                    )
                    for name in table.players
                ]
            )
        )
        grid = ft.DataTable(
            columns=columns,
            rows=rows,
            column_spacing=14,
            horizontal_margin=8,
            heading_row_height=40,
            data_row_min_height=36,
            data_row_max_height=40,
        )
        # CURSED! has no rounds: its table is only where the game stands.
        has_rounds = self.result.engine.spec.has_rounds
        title = t("history.rounds" if has_rounds else "history.standing")
        parts: list[ft.Control] = [ui.heading(title, 16)]
        if not table.rows and has_rounds:
            parts.append(ft.Text(t("history.no-rounds"), size=12))
        parts.append(ft.Row([grid], scroll=ft.ScrollMode.AUTO))
        return ui.panel(*parts, identifier="history-table")

    # the chart

    def chart_part(self) -> ft.Control:
        t = self.app.t
        series = stats.chart_series(self.result)
        lines = [
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(x, value, tooltip=f"{name} {value}")
                    for x, value in enumerate(series.line(name))
                ],
                color=LINE_COLOURS[seat % len(LINE_COLOURS)],
                stroke_width=3,
                point=len(series.steps) <= 20,
            )
            for seat, name in enumerate(series.players)
        ]
        values = [value for name in series.players for value in series.line(name)]
        low, high = min(values), max(values)
        step = nice_step(high - low)
        chart = fch.LineChart(
            data_series=lines,
            min_x=0,
            max_x=max(1, len(series.steps) - 1),
            min_y=math.floor(low / step) * step,
            max_y=math.ceil(high / step) * step if high > low else low + step,
            left_axis=fch.ChartAxis(label_size=36, label_spacing=step),
            bottom_axis=fch.ChartAxis(
                labels=self.axis_labels(series),
                label_spacing=axis_every(series),
                label_size=28,
                title=ft.Text(t(f"history.axis.{series.kind}"), size=12),
                title_size=20,
            ),
            horizontal_grid_lines=fch.ChartGridLines(
                interval=step, color=ft.Colors.OUTLINE_VARIANT, width=0.5
            ),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            height=CHART_HEIGHT,
            expand=True,
        )
        legend = ui.wrap(
            [
                ft.Row(
                    [
                        ft.Container(
                            width=14,
                            height=14,
                            border_radius=7,
                            bgcolor=LINE_COLOURS[seat % len(LINE_COLOURS)],
                        ),
                        ft.Text(name),
                        ui.figure(
                            f"chart-last-{name}",
                            series.steps[-1].values[name],
                            weight=ft.FontWeight.BOLD,
                        ),
                    ],
                    spacing=4,
                    tight=True,
                )
                for seat, name in enumerate(series.players)
            ],
            spacing=14,
        )
        title = f"{t('history.chart')} · {t(f'stats.measure.{series.measure}')}"
        return ui.panel(
            ui.heading(title, 16),
            ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)),
            legend,
            identifier="history-chart",
        )

    def axis_labels(self, series: stats.Series) -> list[fch.ChartAxisLabel]:
        every = axis_every(series)
        start = self.app.t("history.start") if series.kind == stats.ROUND_STEP else "0"
        return [
            fch.ChartAxisLabel(
                value=x, label=ft.Text(start if x == 0 else str(step.number), size=12)
            )
            for x, step in enumerate(series.steps)
            if x % every == 0
        ]

    # every event and its reasons: the read-only view of the game

    def events_part(self) -> ft.Control:
        t, lang = self.app.t, self.app.lang
        lines: list[ft.Control] = []
        for step in self.result.steps:
            label = event_label(step.event, lang)
            lines.append(
                ft.Text(
                    f"{t('history.event', n=step.number)} · {label}",
                    weight=ft.FontWeight.BOLD,
                )
            )
            lines += [
                ui.reason_line(
                    reason_text(reason, lang),
                    reason_opener(self.app, reason, self.slug),
                    f"event-{step.number}-reason-{at}",
                    size=13,
                )
                for at, reason in enumerate(step.outcome.reasons)
            ]
            lines += [
                ui.reason_line(
                    reason_text(warning, lang),
                    reason_opener(self.app, warning, self.slug),
                    f"event-{step.number}-warning-{at}",
                    warning=True,
                    size=13,
                )
                for at, warning in enumerate(step.outcome.warnings)
            ]
        return ui.panel(*lines, identifier="detail-events")

    # export

    def export(self, kind: str) -> None:
        csv = kind == "csv"
        text = stats.round_scores_csv(self.result) if csv else dumps(self.stored.log)
        name = f"{self.slug}-{self.game_id}.{'csv' if csv else 'json'}"
        t = self.app.t
        page = self.app.page
        actions: list[ft.Control] = [
            ui.tap(
                t("history.copy"),
                lambda: self.copy(text),
                "export-copy",
                icon=ft.Icons.COPY,
            ),
        ]
        if page.web:
            actions.append(
                ui.tap(
                    t("history.download"),
                    lambda: self.download(name, text),
                    "export-download",
                    icon=ft.Icons.DOWNLOAD,
                )
            )
        actions.append(
            ui.tap(t("history.close"), page.pop_dialog, "export-close", primary=True)
        )
        self.copied = ft.Text("", size=12)
        dialog = ft.AlertDialog(
            title=ft.Text(name, size=16),
            content=ft.Column(
                [
                    ui.tagged(
                        "export-text",
                        ft.TextField(
                            value=text,
                            multiline=True,
                            read_only=True,
                            min_lines=8,
                            max_lines=14,
                            text_size=12,
                        ),
                    ),
                    self.copied,
                ],
                tight=True,
                width=520,
            ),
            actions=[
                ft.Row(
                    actions,
                    wrap=True,
                    spacing=6,
                    run_spacing=6,
                    alignment=ft.MainAxisAlignment.END,
                )
            ],
        )
        page.show_dialog(dialog)

    def copy(self, text: str) -> None:
        clipboard = ft.Clipboard()
        self.services.append(clipboard)

        async def put() -> None:
            await clipboard.set(text)
            self.copied.value = self.app.t("history.copied")
            self.copied.update()

        self.app.page.run_task(put)

    def download(self, name: str, text: str) -> None:
        picker = ft.FilePicker()
        self.services.append(picker)

        async def save() -> None:
            await picker.save_file(file_name=name, src_bytes=text.encode("utf-8"))

        self.app.page.run_task(save)


def event_label(event: dict[str, Any], lang: str) -> str:
    """An event in a line: a trick's cards, otherwise its fields."""

    def value(item: object) -> str:
        if isinstance(item, dict):
            return ", ".join(f"{key} {value(inner)}" for key, inner in item.items())
        return word(item, lang) if isinstance(item, str) else shown(item)

    extra = [
        f"{key}: {value(item)}"
        for key, item in event.items()
        if key not in ("type", "cards")
    ]
    if event.get("type") == "trick":
        cards = " ".join(str(code) for code in event.get("cards", []))
        return " ".join([cards, *extra])
    return " · ".join([str(event.get("type")), *extra])


def axis_every(series: stats.Series) -> int:
    """Label every n-th step so that at most AXIS_LABELS numbers fit."""
    return max(1, math.ceil(len(series.steps) / AXIS_LABELS))


def nice_step(span: float) -> int:
    """A round grid step giving about five lines over ``span``."""
    rough = max(span, 1) / 5
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if step >= rough:
            return step
    return int(10 ** math.ceil(math.log10(rough)))


class Stats:
    """Per player: games, wins, win rate, and per game average and best."""

    def __init__(self, app: App, game: str | None = None) -> None:
        self.app = app
        self.game = game

    def pick_game(self, game: str | None) -> None:
        self.game = game
        self.app.render()

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        gathered = app.call(lambda: stats.gather(app.store, self.game))
        records = stats.player_figures(gathered.games) if gathered else []
        parts: list[ft.Control] = [
            ui.tap(
                t("history.back"), app.back, "history-back", icon=ft.Icons.ARROW_BACK
            ),
            ui.heading(t("stats.title"), 22),
            game_choices(app, self.game, self.pick_game),
            ft.Text(self.legend(), size=12),
        ]
        if gathered and gathered.broken:
            parts.append(
                ui.note(t("history.broken", n=len(gathered.broken)), error=True)
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
            if game.lower_is_better:
                words += f" ({t('stats.lower-better')})"
            measures.append(words)
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
        return ui.panel(
            ui.heading(name, 18), overall, *details, identifier=f"stats-{name}"
        )

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
