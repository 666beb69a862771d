"""CURSED!'s fortunes grid: every player's five fortunes, one compact row each.

A column per fortune, named once at the top, so that a phone shows the whole
table beside the spell being entered. Each tile names its state in words
(colour only helps), in colours that read in the light and the dark theme.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.games.cursed import FORTUNES, STATES
from screens import ui
from screens.figures import shown


@dataclass(frozen=True)
class Tile:
    """How a fortune in one state is drawn."""

    colour: str
    label: str  # the text colour on it
    border: str | None = None  # drawn when the tile alone would melt into the page


def tiles(dark: bool) -> dict[str, Tile]:
    """Each state's tile, in the order of STATES: blessed, neutral, cursed, ruined.

    Ruined is black; on the dark page it keeps a light rim so it never vanishes.
    """
    rim = ui.palette(dark).on_surface
    colours = ("#2E7D32", "#546E7A", "#BF360C", "#000000")
    found = {
        state: Tile(colour, ui.readable_on(colour))
        for state, colour in zip(STATES, colours, strict=True)
    }
    found["ruined"] = Tile(found["ruined"].colour, found["ruined"].label, rim)
    return found


NAME_WIDTH = 76  # the players' column; the fortunes share the rest
TILE_HEIGHT = 36


def fortunes_grid(
    t: Callable[..., str],
    players: list[str],
    summary: dict[str, Any],
    dark: bool,
) -> list[ft.Control]:
    """The header row and one panel per player, with the tests' identifiers:
    ``fortune-<player>-<fortune>``, ``score-``, ``out-``, ``altar-``, ``state-``."""
    header = ft.Row(
        [
            ft.Container(width=NAME_WIDTH),
            *[
                ft.Container(
                    ft.Text(
                        t(f"fortune.{fortune}"),
                        size=ui.SMALLEST,
                        weight=ft.FontWeight.W_600,
                        text_align=ft.TextAlign.CENTER,
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                    expand=1,
                )
                for fortune in FORTUNES
            ],
        ],
        spacing=3,
        key="fortunes-head",
    )
    look = tiles(dark)
    rows: list[ft.Control] = [header]
    for name in players:
        view = summary["players"][name]
        rows.append(player_row(t, name, view, summary["totals"][name], look))
    return rows


def player_row(
    t: Callable[..., str],
    name: str,
    view: dict[str, Any],
    total: object,
    look: dict[str, Tile],
) -> ft.Control:
    out = bool(view["eliminated"])
    who = ft.Column(
        [
            ft.Text(
                name,
                size=14,
                weight=ft.FontWeight.BOLD,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            ft.Row(
                [
                    ui.figure(
                        f"score-{name}",
                        total,
                        size=14,
                        weight=ft.FontWeight.BOLD,
                        color=ft.Colors.PRIMARY,
                    ),
                    # what the number counts, so that it is not a bare figure
                    ft.Text(t("cursed.left"), size=ui.SMALLEST),
                    ui.figure(
                        f"out-{name}",
                        t("cursed.out") if out else "",
                        size=ui.SMALLEST,
                        color=ft.Colors.ERROR,
                        weight=ft.FontWeight.BOLD,
                    ),
                ],
                spacing=6,
            ),
        ],
        spacing=0,
        width=NAME_WIDTH,
    )
    cells = [
        tile(t, name, fortune, view["fortunes"][fortune], look)
        for fortune in FORTUNES
    ]
    altar = ft.Row(
        [
            ft.Text(t("cursed.altar"), size=ui.SMALLEST),
            ft.Container(
                ui.figure(
                    f"altar-{name}",
                    shown(view.get("altar")),
                    size=ui.SMALLEST,
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
                expand=True,
            ),
        ],
        spacing=6,
    )
    return ui.panel(
        ft.Row(
            [who, *cells],
            spacing=3,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        altar,
        identifier=f"state-{name}",
        padding=6,
    )


def tile(
    t: Callable[..., str], name: str, fortune: str, state: str, look: dict[str, Tile]
) -> ft.Control:
    drawn = look[state]
    return ft.Container(
        ui.figure(
            f"fortune-{name}-{fortune}",
            t(f"state.{state}"),
            size=ui.SMALLEST,
            color=drawn.label,
            weight=ft.FontWeight.BOLD,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
            text_align=ft.TextAlign.CENTER,
        ),
        bgcolor=drawn.colour,
        border=ft.Border.all(2, drawn.border) if drawn.border else None,
        border_radius=6,
        height=TILE_HEIGHT,
        alignment=ft.Alignment.CENTER,
        padding=ft.Padding.symmetric(horizontal=1),
        expand=1,
    )
