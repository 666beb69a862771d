"""One past game: its rounds, chart and story; resume, abandon, delete,
restore, rematch and export.

Every figure is recounted from the stored log by :mod:`companion.stats`;
figures keep identifiers the browser tests read back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import flet as ft
import flet_charts as fch

from companion import bgstats, stats
from companion.errors import CompanionError
from companion.export import game_csv
from companion.i18n import reason_text
from companion.log import dumps
from companion.replay import Replay, Step
from companion.store import StoredGame
from companion.timeline import Line, lines
from screens import ui
from screens.figures import shown
from screens.game_over import rematch
from screens.past import outcome_text, started, when
from screens.reasons import moment, reason_opener
from screens.shell import TABLE, App

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


class GameDetail:
    """One game: round table, chart, outcome, its story; what to do with it."""

    def __init__(self, app: App, game_id: str) -> None:
        self.app = app
        self.game_id = game_id
        self.show_events = False
        # events whose reasons are shown, by number
        self.opened: set[int] = set()
        # Services live as long as something holds them.
        self.services: list[Any] = []
        self.stored: StoredGame
        self.result: Replay
        self.load()

    def load(self) -> None:
        with self.app.lock:
            self.stored = self.app.store.load(self.game_id)
            self.result = self.app.store.replay(self.game_id)

    def reload(self) -> None:
        """Back from the table, or another device changed the store."""
        try:
            self.load()
        except CompanionError as error:
            # purged elsewhere: the detail stays as it was, with a word why
            self.app.fail(error)

    @property
    def slug(self) -> str:
        return self.result.log.game

    def toggle_events(self) -> None:
        self.show_events = not self.show_events
        self.app.render()

    def events_label(self) -> str:
        """Tricks where the game has them, else its own unit (CURSED!'s spells)."""
        spec, t = self.result.engine.spec, self.app.t
        shown = "hide" if self.show_events else "show"
        if spec.has_tricks:
            return t(f"history.{shown}-events")
        return t(f"history.{shown}-each", unit=t(f"units.{spec.unit}"))

    def resume(self) -> None:
        self.app.show(TABLE, game_id=self.game_id)

    # keeping the list tidy: each write names the revision shown

    def change(self, write: Callable[[int], None]) -> None:
        self.app.call(lambda: write(self.stored.rev))
        self.reload()
        self.app.render()

    def abandon(self) -> None:
        store, game_id = self.app.store, self.game_id
        self.change(lambda rev: store.finish(game_id, abandon=True, expected_rev=rev))

    def delete(self) -> None:
        store, game_id = self.app.store, self.game_id
        self.change(lambda rev: store.delete_game(game_id, expected_rev=rev))

    def restore(self) -> None:
        store, game_id = self.app.store, self.game_id
        self.change(lambda rev: store.restore_game(game_id, expected_rev=rev))

    def purge(self) -> None:
        store, game_id = self.app.store, self.game_id
        self.app.message = None
        self.app.call(lambda: store.purge_game(game_id, expected_rev=self.stored.rev))
        if self.app.message is None:
            self.app.back()
        else:
            self.app.render()

    def rematch(self) -> None:
        rematch(self.app, self.stored.log)

    def tidy_actions(self) -> list[ft.Control]:
        t, info = self.app.t, self.stored.info
        if info.deleted:
            return [
                ui.tap(
                    t("history.restore"),
                    self.restore,
                    "detail-restore",
                    primary=True,
                    icon=ft.Icons.RESTORE_FROM_TRASH,
                ),
                ui.tap(
                    t("history.purge"),
                    self.purge,
                    "detail-purge",
                    icon=ft.Icons.DELETE_FOREVER,
                ),
            ]
        found: list[ft.Control] = []
        if info.finished:
            found.append(
                ui.tap(
                    t("history.rematch"),
                    self.rematch,
                    "detail-rematch",
                    primary=True,
                    icon=ft.Icons.REPLAY,
                )
            )
        elif not info.archived:
            found.append(
                ui.tap(
                    t("history.abandon"),
                    self.abandon,
                    "detail-abandon",
                    icon=ft.Icons.FLAG,
                )
            )
        found.append(
            ui.tap(
                t("history.delete"), self.delete, "detail-delete", icon=ft.Icons.DELETE
            )
        )
        return found

    def build(self) -> ft.Control:
        app, t = self.app, self.app.t
        info, summary = self.stored.info, self.result.summary()
        finished = bool(summary["finished"])
        actions: list[ft.Control] = []
        if not finished and not info.deleted:
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
                self.events_label(),
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
            *self.send_actions(finished and not info.deleted),
            *self.tidy_actions(),
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
            ft.Text(
                f"{', '.join(info.players)} · {started(info)}"
                f" · {t('history.last-played', when=when(info.updated))}"
            ),
            ui.figure(
                "detail-winners",
                outcome_text(app, finished, list(summary["winners"])),
                size=18,
                weight=ft.FontWeight.BOLD,
            ),
        ]
        if app.message:
            parts.append(ui.note(app.message, "error", error=True))
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

    # where players keep their records

    def send_actions(self, finished: bool) -> list[ft.Control]:
        """Send to BG Stats: a link the device opens itself, so no browser blocks it."""
        if not finished:
            return []
        address = bgstats.link(self.stored.info, self.result, self.app.lang)
        button = ft.OutlinedButton(
            content=self.app.t("bgstats.send"),
            icon=ft.Icons.OPEN_IN_NEW,
            url=ft.Url(address, target=ft.UrlTarget.BLANK),
            style=ft.ButtonStyle(
                padding=ft.Padding.symmetric(horizontal=14, vertical=8),
                shape=ft.RoundedRectangleBorder(radius=10),
            ),
            height=ui.TOUCH,
        )
        return [ui.tagged("detail-bgstats", button)]

    # the round table

    def table_part(self) -> ft.Control:
        t = self.app.t
        table = stats.round_table(self.result)
        measure = t(f"stats.measure.{self.result.engine.spec.measure}")
        spec = self.result.engine.spec
        # a game without rounds shows only where it stands: no unit to head
        unit = t(f"unit.{spec.unit}") if spec.has_rounds else ""
        columns = [ft.DataColumn(ft.Text(unit))] + [
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
        """The game's story line by line; a line opens the reasons behind it."""
        rows: list[ft.Control] = []
        story = lines(self.result.steps)
        for line, step in zip(story, self.result.steps, strict=True):
            number = step.number
            opened = number in self.opened
            head = ft.Container(
                content=ft.Row(
                    [
                        ft.Icon(
                            ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE,
                            size=18,
                        ),
                        ft.Text(
                            self.line_text(line, step),
                            weight=ft.FontWeight.BOLD,
                            expand=True,
                        ),
                    ],
                    spacing=6,
                ),
                padding=ft.Padding.symmetric(horizontal=4, vertical=6),
                border_radius=8,
                ink=True,
                on_click=ui.guarded(lambda number=number: self.toggle_line(number)),
            )
            rows.append(ui.tagged(f"event-{number}", head))
            if opened:
                rows += self.reason_lines(step)
        return ui.panel(*rows, identifier="detail-events")

    def toggle_line(self, number: int) -> None:
        self.opened ^= {number}
        self.app.render()

    def line_text(self, line: Line, step: Step) -> str:
        """Where the event stands in the game, and whom it names."""
        t, lang, mark = self.app.t, self.app.lang, line.mark
        event = step.event
        if mark.trick is not None:
            where = t("history.line.trick", round=mark.round, trick=mark.trick)
            if mark.winner:
                return f"{where} · {t('history.line.winner', name=mark.winner)}"
            said = [where]
            if line.cursed:
                said.append(t("history.line.cursed", names=", ".join(line.cursed)))
            if line.damaged:
                said.append(t("history.line.damaged", names=", ".join(line.damaged)))
            return " · ".join(said)
        if mark.type == "round":
            where = t("history.line.round", round=mark.round)
            leader = event.get("leader")
            if isinstance(leader, str):
                return f"{where} · {t('history.line.leads', name=leader)}"
            return where
        if line.pile is not None:
            return t("history.line.pile", pile=line.pile, name=event.get("player"))
        # spells, rule changes, altars, the end of a count: the first reason
        # says it in the game's own words
        what = moment(self.app, self.result.log.events, step.number)
        first = step.outcome.reasons[0] if step.outcome.reasons else None
        return f"{what} · {reason_text(first, lang)}" if first else what

    def reason_lines(self, step: Step) -> list[ft.Control]:
        lang = self.app.lang
        found = [
            ui.reason_line(
                reason_text(reason, lang),
                reason_opener(self.app, reason, self.slug),
                f"event-{step.number}-reason-{at}",
                size=13,
            )
            for at, reason in enumerate(step.outcome.reasons)
        ]
        found += [
            ui.reason_line(
                reason_text(warning, lang),
                reason_opener(self.app, warning, self.slug),
                f"event-{step.number}-warning-{at}",
                warning=True,
                size=13,
            )
            for at, warning in enumerate(step.outcome.warnings)
        ]
        return found

    # export

    def export(self, kind: str) -> None:
        csv = kind == "csv"
        log = self.stored.log
        text = game_csv(log, self.app.lang) if csv else dumps(log)
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
