"""The end of a game as every game screen shows it: who won, the rule that
decided it, every player's figure and place, and what a table does next."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.games.base import GameSpec
from companion.i18n import reason_text, sentences
from companion.log import GameLog
from companion.replay import Replay
from screens import ui
from screens.figures import shown
from screens.past import winners_text
from screens.shell import TABLE, App


def verdict_line(app: App, replay: Replay) -> str:
    """The rule that decided the winners, in the engine's own words."""
    said = [reason_text(reason, app.lang) for reason in replay.verdict]
    return sentences(said, app.lang)


def rematch(app: App, log: GameLog) -> None:
    """A new game: the same players in the same seats, the same options."""
    header = GameLog(log.game, list(log.players), dict(log.options))
    game_id = app.call(lambda: app.store.create_game(header))
    if game_id is not None:
        app.show(TABLE, game_id=game_id)
    else:
        app.render()


def game_over(
    app: App,
    spec: GameSpec,
    replay: Replay,
    *,
    round_table: Callable[[], None] | None = None,
) -> ft.Control:
    """The game-over panel, kept short enough to sit in view on a phone."""
    t, summary = app.t, replay.summary()
    winners = list(summary["winners"])
    totals = summary["totals"]
    measure = t(f"stats.measure.{spec.measure}")
    places = [
        ft.Row(
            [
                ft.Text(t("over.place", place=place), size=13, width=44),
                ft.Text(
                    name,
                    size=14,
                    weight=ft.FontWeight.BOLD if name in winners else None,
                    expand=True,
                ),
                ui.figure(
                    f"over-{name}",
                    f"{measure}: {shown(totals[name])}",
                    size=14,
                    weight=ft.FontWeight.BOLD if name in winners else None,
                ),
            ],
            spacing=6,
        )
        for place, name in spec.places(winners, totals)
    ]
    actions = [
        ui.tap(
            t("history.rematch"),
            lambda: rematch(app, replay.log),
            "over-rematch",
            primary=True,
            icon=ft.Icons.REPLAY,
        )
    ]
    if round_table is not None:
        actions.append(
            ui.tap(
                t("over.round-table"),
                round_table,
                "over-round-table",
                icon=ft.Icons.TABLE_CHART,
            )
        )
    return ui.panel(
        ui.heading(t("over.title"), 18),
        ui.figure(
            "winners",
            winners_text(app, winners, "over"),
            size=16,
            weight=ft.FontWeight.BOLD,
        ),
        ui.note(verdict_line(app, replay), "over-reason"),
        ft.Column(places, spacing=0, key="over-standing"),
        ui.wrap(actions),
        identifier="game-over",
        highlight=True,
    )
