"""CURSED!: every player's five Fortunes, spells in four taps, altars, sacrifices."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.errors import CompanionError
from companion.games.base import Event
from companion.games.cursed import EFFECTS, FORTUNES, STATES
from companion.i18n import reason_text
from companion.replay import Replay
from screens import ui
from screens.figures import shown
from screens.reasons import last_reasons
from screens.shell import App

# in the order of STATES: blessed, neutral, cursed, ruined
STATE_COLOURS = dict(
    zip(
        STATES,
        (
            ft.Colors.GREEN_600,
            ft.Colors.BLUE_GREY_400,
            ft.Colors.DEEP_ORANGE_600,
            ft.Colors.BLACK,
        ),
        strict=True,
    )
)
# A spell is built in this order, one tap each.
SPELL_STEPS = ("caster", "target", "fortune")


class CursedTable:
    def __init__(self, app: App, game_id: str) -> None:
        self.app = app
        self.game_id = game_id
        self.spell: dict[str, str] = {}
        self.change: dict[str, str] = {}  # a sacrifice's manual change
        self.altar_player: str | None = None
        self.altar_text = ""
        self.redoable = 0
        self.replay: Replay
        self.reload()

    def reload(self) -> None:
        with self.app.lock:
            self.replay = self.app.store.replay(self.game_id)
            self.redoable = len(self.app.store.load(self.game_id).redo)

    def record(self, event: Event | None, action: str = "append") -> None:
        store, game_id = self.app.store, self.game_id

        def run() -> Replay:
            if action == "undo":
                return store.undo(game_id)
            if action == "redo":
                return store.redo(game_id)
            assert event is not None
            return store.append(game_id, event)

        with self.app.lock:
            if self.app.stale(game_id, self.replay):
                self.reload()
                self.spell, self.change = {}, {}
                self.app.fail(self.app.t("table.changed-elsewhere"))
                self.app.render()
                return
            result = self.app.call(run)
        if result is not None:
            self.app.message = None
            self.replay = result
            self.spell, self.change = {}, {}
            with self.app.lock:
                self.redoable = len(store.load(game_id).redo)
        self.app.render()

    # taps

    def pick(self, step: str, value: str) -> None:
        self.spell[step] = value
        self.app.render()

    def reset_spell(self) -> None:
        self.spell = {}
        self.app.render()

    def cast(self, effect: str) -> None:
        self.record({"type": "spell", **self.spell, "effect": effect})

    def pick_change(self, step: str, value: str) -> None:
        self.change[step] = value
        if len(self.change) == 3:
            self.record({"type": "set", **self.change})
            return
        self.app.render()

    def pick_altar(self, name: str) -> None:
        self.altar_player = name
        self.altar_text = ""
        self.app.render()

    def save_altar(self, clear: bool) -> None:
        if self.altar_player is None:
            return
        text = None if clear else self.altar_text.strip() or None
        name, self.altar_player = self.altar_player, None
        self.record({"type": "altar", "player": name, "text": text})

    def effect_preview(self, effect: str) -> tuple[str, bool, bool]:
        """(what the spell would do, whether it is a double curse, allowed)."""
        event = {"type": "spell", **self.spell, "effect": effect}
        try:
            outcome = self.replay.preview(event)
        except CompanionError as error:
            return str(getattr(error, "message", error)), False, False
        lang = self.app.lang
        double = any(r.key.endswith(".double") for r in outcome.reasons)
        t = self.app.t
        moves = [r.params for r in outcome.reasons if "before" in r.params]
        if moves:
            before = moves[0]["before"]
            after = moves[0].get("after", before)
            text = (
                f"{t('state.' + before)} → {t('state.' + after)}"
                if after != before
                else t("spell.unchanged", state=t("state." + before))
            )
        else:
            text = reason_text(outcome.reasons[0], lang) if outcome.reasons else ""
        return text, double, True

    # the screen

    def build(self) -> ft.Control:
        summary = self.replay.summary()
        entry = ui.keyed("entry", self.entry_part(summary))
        more = self.reasons_part()
        if not summary["finished"]:
            more += self.change_part()
        more = ui.keyed("more", more)
        grid = ui.keyed("grid", self.grid_part(summary))
        if self.app.wide:
            return ft.Row(
                [
                    ft.Container(ft.Column(entry + more, spacing=10), expand=1),
                    ft.Container(ft.Column(grid, spacing=10), expand=1),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=16,
            )
        # On a phone the spell comes first, so the four taps need no scrolling.
        return ft.Column(entry + grid + more, spacing=10)

    def standing(self, summary: dict[str, Any]) -> list[str]:
        return [
            name
            for name in self.replay.log.players
            if not summary["players"][name]["eliminated"]
        ]

    def entry_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = [
            ft.Row(
                [
                    ui.heading(t("game.cursed"), 20),
                    ui.undo_redo(
                        t("table.undo"),
                        t("table.redo"),
                        lambda: self.record(None, "undo"),
                        lambda: self.record(None, "redo"),
                        can_undo=bool(self.replay.log.events),
                        can_redo=bool(self.redoable),
                        compact=not self.app.wide,
                    ),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            )
        ]
        if self.app.message:
            parts.append(ui.note(self.app.message, "error", error=True))
        if summary["finished"]:
            winners = summary["winners"]
            parts.append(
                ui.panel(
                    ui.heading(t("over.title"), 20),
                    ui.figure(
                        "winners",
                        t("over.winners", names=", ".join(winners))
                        if winners
                        else t("over.none"),
                        size=18,
                        weight=ft.FontWeight.BOLD,
                    ),
                    highlight=True,
                )
            )
        if not summary["finished"]:
            parts += self.spell_part(summary)
        return parts

    def spell_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        standing = self.standing(summary)
        parts: list[ft.Control] = [ui.heading(t("spell.title"), 16)]
        chosen = " · ".join(
            t(f"fortune.{v}") if k == "fortune" else v for k, v in self.spell.items()
        )
        if chosen:
            parts.append(
                ft.Row(
                    [
                        ui.note(chosen, "spell-so-far"),
                        ui.tap(t("spell.reset"), self.reset_spell, "spell-reset"),
                    ],
                    wrap=True,
                )
            )
        step = next((s for s in SPELL_STEPS if s not in self.spell), None)
        if step is None:
            parts.append(ft.Text(t("spell.effect")))
            buttons = []
            for effect in EFFECTS:
                result, double, allowed = self.effect_preview(effect)
                label = f"{t(f'effect.{effect}')}: {result}"
                if double:
                    label = f"{t('spell.double')} {label}"
                buttons.append(
                    ui.tap(
                        label,
                        lambda effect=effect: self.cast(effect),
                        f"effect-{effect}",
                        primary=allowed,
                        disabled=not allowed,
                        colour=ft.Colors.RED_700 if double else None,
                    )
                )
            parts.append(ft.Column(buttons, spacing=6))
            return parts
        parts.append(ft.Text(t(f"spell.{step}")))
        if step == "fortune":
            options = [(f, t(f"fortune.{f}")) for f in FORTUNES]
        else:
            options = [(name, name) for name in standing]
        parts.append(
            ui.wrap(ui.choices(options, lambda value: self.pick(step, value), step))
        )
        return parts

    def change_part(self) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = [ui.heading(t("set.title"), 16)]
        choices: list[tuple[str, list[tuple[str, str]]]] = [
            ("player", [(n, n) for n in self.replay.log.players]),
            ("fortune", [(f, t(f"fortune.{f}")) for f in FORTUNES]),
            ("state", [(s, t(f"state.{s}")) for s in STATES]),
        ]
        for step, options in choices:
            if step in self.change:
                continue
            parts.append(ft.Text(t(f"set.{step}"), size=12))
            parts.append(
                ui.wrap(
                    [
                        ui.tap(
                            label,
                            lambda v=value, s=step: self.pick_change(s, v),
                            f"set-{step}-{value}",
                        )
                        for value, label in options
                    ]
                )
            )
            break
        if self.change:
            parts.append(ui.tap(t("spell.reset"), self.reset_change, "set-reset"))
        return parts + self.altar_part()

    def altar_part(self) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = [
            ui.heading(t("cursed.altar-title"), 16),
            ui.wrap(
                ui.choices(
                    [(name, name) for name in self.replay.log.players],
                    self.pick_altar,
                    "altar-player",
                    lambda name: name == self.altar_player,
                )
            ),
        ]
        if self.altar_player is not None:
            field = ft.TextField(
                value=self.altar_text,
                label=t("cursed.altar-new", player=self.altar_player),
                width=240,
                on_change=lambda e: setattr(self, "altar_text", e.control.value),
                on_submit=lambda _: self.save_altar(False),
            )
            parts.append(
                ui.wrap(
                    [
                        ui.tagged("altar-field", field),
                        ui.tap(
                            t("cursed.altar-save"),
                            lambda: self.save_altar(False),
                            "altar-save",
                            primary=True,
                        ),
                        ui.tap(
                            t("cursed.altar-clear"),
                            lambda: self.save_altar(True),
                            "altar-clear",
                        ),
                    ]
                )
            )
        return parts

    def reset_change(self) -> None:
        self.change = {}
        self.app.render()

    def reasons_part(self) -> list[ft.Control]:
        return last_reasons(self.app, self.replay)

    def grid_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        rows: list[ft.Control] = []
        for name in self.replay.log.players:
            view = summary["players"][name]
            cells = [
                self.cell(name, fortune, view["fortunes"][fortune])
                for fortune in FORTUNES
            ]
            altar = view.get("altar")
            lines: list[ft.Control] = [
                ft.Row(
                    [
                        ft.Text(name, size=16, weight=ft.FontWeight.BOLD),
                        ui.figure(
                            f"score-{name}",
                            summary["totals"][name],
                            size=16,
                            color=ft.Colors.PRIMARY,
                        ),
                        ui.figure(
                            f"out-{name}",
                            t("cursed.out") if view["eliminated"] else "",
                            color=ft.Colors.ERROR,
                            weight=ft.FontWeight.BOLD,
                        ),
                    ],
                    spacing=10,
                ),
                ft.Row(cells, spacing=4, wrap=True),
                ft.Row(
                    [
                        ft.Text(t("cursed.altar"), size=12),
                        ui.figure(f"altar-{name}", shown(altar), size=12),
                    ],
                    spacing=6,
                ),
            ]
            box = ui.panel(*lines, identifier=f"state-{name}")
            rows.append(ft.Container(box, opacity=0.6) if view["eliminated"] else box)
        return rows

    def cell(self, name: str, fortune: str, state: str) -> ft.Control:
        t = self.app.t
        return ft.Container(
            ft.Column(
                [
                    ft.Text(t(f"fortune.{fortune}"), size=10, color=ft.Colors.WHITE),
                    ui.figure(
                        f"fortune-{name}-{fortune}",
                        t(f"state.{state}"),
                        size=12,
                        color=ft.Colors.WHITE,
                        weight=ft.FontWeight.BOLD,
                    ),
                ],
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            bgcolor=STATE_COLOURS[state],
            border_radius=6,
            padding=ft.Padding.symmetric(horizontal=2, vertical=4),
            width=62,
        )
