"""The rules reference: search as you type, filter by game, read one entry.

A reason on a game screen opens the entry it rests on, and a game screen its
game's rules with the search ready (both in ``screens.reasons``);
Back then returns to the screen the player came from.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion import rules
from screens import ui
from screens.shell import App

# Enough to find what was meant; a longer list only pushes the best match away.
RESULTS = 15
# Long bodies read better in a column no wider than a page of a book.
READING_WIDTH = 640


class Rules:
    """Either the search with its results, or one entry when ``shown`` is set.

    ``game`` filters the results (None: every game); ``shown`` is the entry
    open, as (game, topic).
    """

    def __init__(
        self,
        app: App,
        *,
        game: str | None = None,
        shown: tuple[str, str] | None = None,
        back: bool = False,
        query: str = "",
    ) -> None:
        self.app = app
        self.game = game
        self.shown = shown
        self.back = back
        self.query = query
        # Opened straight from a reason, Back leaves the reference altogether;
        # opened from the results, it returns to them.
        self.from_results = False

    # what the player does

    def typed(self, value: str) -> None:
        self.query = value
        # The field on screen already holds ``value``, so the redraw leaves it
        # alone and only the results move.
        self.app.render()

    def pick_game(self, game: str | None) -> None:
        self.game = game
        self.app.render()

    def open(self, entry: rules.Entry) -> None:
        self.shown = (entry.game, entry.id)
        self.from_results = True
        self.app.render()

    def browse(self, game: str) -> None:
        """From an entry to the list of its game's entries."""
        self.game = game
        self.shown = None
        self.from_results = False
        self.app.render()

    def close(self) -> None:
        if self.shown is not None and self.from_results:
            self.shown = None
            self.app.render()
        else:
            self.app.back()

    # drawing

    def build(self) -> ft.Control:
        if self.shown is not None:
            try:
                found = rules.entry(*self.shown, lang=self.app.lang)
            except KeyError:
                # A topic the reference lacks: the game's entries are the next best.
                self.shown = None
            else:
                return self.entry_part(found)
        return self.search_part()

    def back_button(self, key: str) -> ft.Control:
        return ui.tap(
            self.app.t(key), self.close, "rules-back", icon=ft.Icons.ARROW_BACK
        )

    def search_part(self) -> ft.Control:
        t = self.app.t
        head: list[ft.Control] = []
        if self.back:
            head.append(self.back_button("rules.back"))
        head.append(ui.heading(t("rules.title"), 22))
        field = ui.tagged(
            "rules-search",
            ft.TextField(
                value=self.query,
                hint_text=t("rules.hint"),
                prefix_icon=ft.Icons.SEARCH,
                on_change=lambda e: self.typed(e.control.value or ""),
                border_radius=12,
                key="rules-field",
                autofocus=True,
            ),
        )
        return self.page_column(
            [
                ft.Row(head, spacing=12, wrap=True),
                field,
                self.game_chips(),
                ft.Column(self.result_rows(), spacing=6, key="rule-results"),
            ]
        )

    def game_chips(self) -> ft.Control:
        t = self.app.t
        values: list[tuple[str | None, str]] = [(None, t("rules.all"))]
        values += [(slug, t(f"game.{slug}")) for slug in rules.slugs()]
        return ui.wrap(
            [
                ui.tagged(
                    f"rules-game-{value or 'all'}",
                    ft.Chip(
                        label=ft.Text(label),
                        selected=value == self.game,
                        show_checkmark=False,
                        on_select=lambda _, value=value: self.pick_game(value),
                        height=40,
                    ),
                )
                for value, label in values
            ],
            key="rules-games",
        )

    def found(self) -> list[rules.Match]:
        lang = self.app.lang
        if self.query.strip():
            return rules.find(self.query, lang, self.game, RESULTS)
        # Nothing typed yet: the reference reads like a table of contents.
        return [
            rules.Match(e, 0.0, frozenset())
            for e in rules.load(lang)
            if self.game is None or e.game == self.game
        ]

    def result_rows(self) -> list[ft.Control]:
        found = self.found()
        if not found:
            return [
                ui.note(self.app.t("rules.nothing", query=self.query), "rules-none")
            ]
        rows = [self.result_row(m) for m in found]
        if self.query.strip() and not rules.answers(found, self.app.lang):
            # Said first, so that the closest entry is not read as the answer.
            rows.insert(0, ui.note(self.app.t("rules.no-answer"), "rules-no-answer"))
        return rows

    def result_row(self, match: rules.Match) -> ft.Control:
        entry = match.entry
        box = ft.Container(
            content=ft.Row(
                [
                    ft.Column(
                        [
                            *self.asked_mark(match),
                            ft.Text(
                                self.app.t(f"game.{entry.game}"),
                                size=12,
                                color=ft.Colors.PRIMARY,
                            ),
                            marked(
                                entry.title, match.terms, size=15,
                                weight=ft.FontWeight.W_500,
                            ),
                            ui.tagged(
                                f"answer-{entry.game}-{entry.id}",
                                marked(entry.answer, match.terms, size=13),
                            ),
                            *self.ruling_mark(entry),
                        ],
                        spacing=0,
                        expand=True,
                    ),
                    ft.Icon(ft.Icons.CHEVRON_RIGHT, size=20),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            border_radius=10,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            ink=True,
            on_click=ui.guarded(lambda: self.open(entry)),
        )
        identifier = f"rule-{entry.game}-{entry.id}"
        # Keyed by the search too, so a new search's rows are new controls:
        # Flet's diff of a row that moves up or down the list while its words
        # change (fewer highlighted pieces) patches the wrong row and stops the
        # app ("index out of bounds"); rows that never move cannot hit it.
        return ui.tagged(identifier, box, key=f"{identifier}|{self.game}|{self.query}")

    def asked_mark(self, match: rules.Match) -> list[ft.Control]:
        """Above a result, the part of a question of two parts it answers."""
        if not match.asked:
            return []
        entry = match.entry
        text = self.app.t("rules.asked", part=match.asked)
        return [mark(text, f"asked-{entry.game}-{entry.id}")]

    def ruling_mark(self, entry: rules.Entry) -> list[ft.Control]:
        """Under a result, that its line is the app's ruling, not the rulebook's."""
        if not entry.ruling:
            return []
        # An entry resting on the rulebook too is the app's ruling only in part.
        key = "rules.ruling-part" if entry.source else "rules.ruling-label"
        return [mark(self.app.t(key), f"ruling-{entry.game}-{entry.id}")]

    def entry_part(self, entry: rules.Entry) -> ft.Control:
        t = self.app.t
        actions = [
            self.back_button(
                "rules.back-results" if self.from_results else "rules.back"
            )
        ]
        if not self.from_results:
            actions.append(
                ui.tap(
                    t("rules.browse"),
                    lambda: self.browse(entry.game),
                    "rules-browse",
                    icon=ft.Icons.MENU_BOOK,
                )
            )
        body = ft.Column(
            [
                ft.Text(t(f"game.{entry.game}"), size=13, color=ft.Colors.PRIMARY),
                ui.figure(
                    "rule-title", entry.title, size=22, weight=ft.FontWeight.BOLD
                ),
                ui.figure(
                    "rule-answer",
                    entry.answer,
                    size=17,
                    weight=ft.FontWeight.W_600,
                ),
                ui.figure("rule-body", entry.body, size=16, selectable=True),
            ],
            spacing=8,
        )
        if entry.ruling:
            body.controls.insert(
                3,
                ui.figure(
                    "rule-ruling",
                    t("rules.ruling", ruling=entry.ruling),
                    size=15,
                    italic=True,
                ),
            )
        if entry.source:
            body.controls.append(
                ui.figure(
                    "rule-source",
                    f"{t('rules.source')}: {entry.source}",
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        if entry.app:
            body.controls.append(
                ui.figure(
                    "rule-app",
                    f"{t('rules.in-app')}: {entry.app}",
                    size=14,
                    italic=True,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                    selectable=True,
                )
            )
        return self.page_column(
            [ui.wrap(actions), ui.panel(body, identifier="rule-entry")]
        )

    def page_column(self, parts: list[ft.Control]) -> ft.Control:
        """Full width on a phone; on a tablet no wider than reads comfortably."""
        column = ft.Column(
            parts, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        )
        return ft.Container(column, width=READING_WIDTH if self.app.wide else None)


def mark(text: str, identifier: str) -> ft.Control:
    """A quiet note on a result: which part it answers, or that it is a ruling."""
    label = ft.Text(text, size=12, italic=True, color=ft.Colors.ON_SURFACE_VARIANT)
    return ui.tagged(identifier, label)


def marked(text: str, terms: frozenset[str], **style: Any) -> ft.Text:
    """``text`` with the words the search matched in bold on a tint."""
    found = ft.TextStyle(
        weight=ft.FontWeight.BOLD, bgcolor=ft.Colors.TERTIARY_CONTAINER
    )
    return ft.Text(
        spans=[
            ft.TextSpan(piece, style=found if hit else None)
            for piece, hit in rules.highlight(text, terms)
        ],
        **style,
    )
