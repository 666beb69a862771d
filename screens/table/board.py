"""The scoreboard: a one-line strip for the phone, the full board with every
figure, and the table of round scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion.games.base import GameSpec
from companion.i18n import ui_keys
from screens import ui
from screens.figures import player_figures, shown

# Summary values that are words rather than figures, shown in the table's language.
WORD_VALUES = ("white", "black", "death")

Translate = Callable[..., str]
# the rounds table's scroll key: the game's end brings it into view
ROUNDS = "rounds"


def strip(
    spec: GameSpec,
    players: Sequence[str],
    summary: dict[str, Any],
    turn: str | None,
    t: Translate,
) -> ft.Control:
    """Each player's name and total on one line, after the name of what the
    totals measure; the player to play is bold, the one who leads marked."""
    leader = summary.get("leader")
    items: list[ft.Control] = [
        ft.Text(t(f"stats.measure.{spec.measure}"), size=ui.SMALLEST)
    ]
    for name in players:
        mark = "▶" if name == leader else ""
        items.append(
            ui.tagged(
                f"state-{name}",
                ft.Row(
                    [
                        ft.Text(
                            f"{mark}{name}",
                            size=12,
                            weight=ft.FontWeight.BOLD if name == turn else None,
                            color=ft.Colors.PRIMARY if name == turn else None,
                            tooltip=t("table.leads") if mark else None,
                        ),
                        ui.figure(
                            f"score-{name}",
                            shown(summary["totals"][name]),
                            size=13,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY,
                        ),
                    ],
                    spacing=3,
                    tight=True,
                ),
            )
        )
    return ft.Row(items, spacing=10, wrap=True, run_spacing=0, key="strip")


def player_panel(
    spec: GameSpec,
    summary: dict[str, Any],
    options: dict[str, Any],
    name: str,
    *,
    t: Translate,
    tagged_score: bool,
) -> ft.Control:
    """One player's every figure, each under its ``<field>-<player>`` id."""
    view = summary["players"][name]
    total = shown(summary["totals"][name])
    score_style: dict[str, Any] = {
        "size": 18,
        "weight": ft.FontWeight.BOLD,
        "color": ft.Colors.PRIMARY,
    }
    head = ft.Row(
        [
            ft.Text(name, size=16, weight=ft.FontWeight.BOLD),
            ft.Text(t(f"stats.measure.{spec.measure}"), size=ui.SMALLEST),
            ui.figure(f"score-{name}", total, **score_style)
            if tagged_score
            else ft.Text(total, **score_style),
        ],
        spacing=10,
    )
    if summary["leader"] == name:
        head.controls.append(
            ft.Icon(ft.Icons.PLAY_CIRCLE, size=18, tooltip=t("table.leads"))
        )
    pairs = [
        ft.Row(
            [
                ft.Text(t(f"field.{field}"), size=ui.SMALLEST),
                ui.figure(
                    f"{field}-{name}",
                    t(f"value.{value}") if value in WORD_VALUES else value,
                    size=13,
                    weight=ft.FontWeight.W_600,
                ),
            ],
            spacing=3,
            # A long figure (every card a player took) wraps under its label
            # rather than running off the panel.
            wrap=True,
            run_spacing=0,
        )
        for field, value in player_figures(spec.slug, view, options)
    ]
    box = ui.panel(
        head,
        ft.Row(pairs, wrap=True, spacing=6, run_spacing=4),
        identifier=None if not tagged_score else f"state-{name}",
    )
    box.key = f"panel-{name}"
    return box


def full_board(
    spec: GameSpec,
    players: Sequence[str],
    summary: dict[str, Any],
    options: dict[str, Any],
    *,
    t: Translate,
    wide: bool,
) -> list[ft.Control]:
    """Every player's panel and the round scores."""
    parts: list[ft.Control] = [ui.heading(t("board.title"), 18)]
    parts += [
        player_panel(spec, summary, options, name, t=t, tagged_score=wide)
        for name in players
    ]
    if summary["rounds"]:
        parts.append(rounds_table(spec, players, summary, t))
    return ui.keyed("board", parts)


def round_scores(
    spec: GameSpec,
    players: Sequence[str],
    summary: dict[str, Any],
    index: int,
    t: Translate,
) -> ft.Control:
    """One round's figures, whole, as the round ends, titled by what they are."""
    scores = summary["rounds"][index].get("scores", {})
    title = f"round.ended.{spec.measure}"
    if title not in ui_keys("en"):
        title = "round.ended"
    return ui.panel(
        ui.heading(t(title, n=index + 1), 16),
        ui.wrap(
            [ft.Text(f"{name}: {shown(scores.get(name))}") for name in players],
            spacing=14,
        ),
        identifier="round-end",
        highlight=True,
    )


def rounds_table(
    spec: GameSpec, players: Sequence[str], summary: dict[str, Any], t: Translate
) -> ft.Control:
    columns = [ft.DataColumn(ft.Text(t("board.round")))] + [
        ft.DataColumn(ft.Text(name)) for name in players
    ]
    rows = [
        ft.DataRow(
            [ft.DataCell(ft.Text(str(at + 1)))]
            + [
                ft.DataCell(
                    ui.figure(
                        f"round-{at + 1}-{name}",
                        shown(entry.get("scores", {}).get(name)),
                    )
                )
                for name in players
            ]
        )
        for at, entry in enumerate(summary["rounds"])
    ]
    # the totals row: a sum of the rounds, or where a figure like life stands
    last_row = t("board.total")
    if not spec.summed_rounds:
        last_row = t(f"stats.measure.{spec.measure}")
    rows.append(
        ft.DataRow(
            [ft.DataCell(ft.Text(last_row, weight=ft.FontWeight.BOLD))]
            + [
                ft.DataCell(
                    ft.Text(shown(summary["totals"][name]), weight=ft.FontWeight.BOLD)
                )
                for name in players
            ]
        )
    )
    return ft.Row(
        [
            ft.DataTable(
                columns=columns, rows=rows, column_spacing=16, horizontal_margin=8
            )
        ],
        scroll=ft.ScrollMode.AUTO,
        key=ft.ScrollKey(ROUNDS),
    )
