"""CURSED!: every player's five Fortunes, spells in four taps, altars, sacrifices.

The screen is a view over the game's :class:`GameSession`: every write (a
spell, a sacrifice's change, an altar, undo, redo) goes through it, and what
it answers (a refusal, or that another device wrote first) is shown next to
the part that was tapped. The spell and the sacrifice/altar entries are two
tabs of one place at the top, so neither pushes the other out of reach.
"""

from __future__ import annotations

import threading
from typing import Any

import flet as ft

from companion.errors import CompanionError
from companion.games.base import Event
from companion.games.cursed import EFFECTS, FORTUNES, STATES
from companion.i18n import reason_text
from companion.session import (
    CHANGED_FIRST,
    MOVED_ON,
    GameSession,
    Notice,
    shared_session,
)
from screens import ui
from screens.fortunes import fortunes_grid
from screens.game_over import game_over
from screens.reasons import last_reasons, rules_opener
from screens.shell import App, SharedTable

# A spell is built in this order, one tap each.
SPELL_STEPS = ("caster", "target", "fortune")
# The two tabs of the entry.
SPELL, ALTAR = "spell", "altar"
# A double curse's button: white on it reads at 5:1.
DOUBLE_CURSE = "#C62828"


class CursedTable(SharedTable):
    def __init__(self, app: App, game_id: str) -> None:
        self.app = app
        with app.lock:
            # Every device on this game shares the session: one table, one order.
            self.session: GameSession = shared_session(app.store, game_id)
            # The table's revision this device surely shows, and the one last
            # sent to it (see TrickTable).
            self.seen = self.drawn = self.session.revision
        # One caller at a time: a tap here and a redraw for another device.
        self.busy = threading.RLock()
        self.tab = SPELL
        self.spell: dict[str, str] = {}
        self.change: dict[str, str] = {}  # a sacrifice's change of one fortune
        self.altar_player: str | None = None
        self.altar_text = ""
        self.opened = False

    @property
    def notice(self) -> str | None:
        """The answer to the last tap, shown by what was tapped. Kept as the
        App's message, which a move to another screen (and back) clears."""
        return self.app.message

    @notice.setter
    def notice(self, value: str | None) -> None:
        self.app.message = value

    @property
    def players(self) -> list[str]:
        return self.session.players

    def reload(self) -> None:
        """Another device wrote (or Back returned here): show the game as stored."""
        with self.app.lock, self.busy:
            self.session.refresh()
            if self.session.revision != self.seen:
                self.forget_gone()
                if self.seen < self.session.undone_at:
                    self.notice = self.app.t("table.undone-elsewhere")

    def forget_gone(self) -> None:
        """Drop entry steps that name a player who is out since."""
        standing = set(self.standing(self.session.summary()))
        if {self.spell.get("caster"), self.spell.get("target")} - standing - {None}:
            self.spell = {}

    # writes, all through the session

    def act(self, action: Any) -> None:
        with self.app.lock, self.busy:
            before = self.session.revision
            answer: Notice | None = None
            try:
                answer = action()
            except CompanionError as error:  # a bug's message, never silence
                self.notice = str(error)
            else:
                self.notice = self.words(answer) if answer is not None else None
                if answer is None or answer.kind in (MOVED_ON, CHANGED_FIRST):
                    self.spell, self.change = {}, {}
                    self.altar_player = None
            if answer is None or answer.kind != CHANGED_FIRST:
                self.acted()
            after = self.session.revision
        self.app.render()
        if after != before:
            self.app.tell_others()

    def words(self, notice: Notice) -> str:
        """A notice in the table's language: the rules' own words for a refusal."""
        if notice.kind == MOVED_ON:
            return self.app.t("cursed.moved-on")
        if "reason" in notice.params:
            return notice.params["reason"]
        found = self.app.t(notice.key, **notice.params)
        return notice.text if found == notice.key else found

    def record(self, event: Event) -> None:
        self.act(lambda: self.session.record(event, seen=self.tapped_on()))

    def undo(self) -> None:
        self.act(lambda: self.session.undo(seen=self.tapped_on()))

    def redo(self) -> None:
        self.act(lambda: self.session.redo(seen=self.tapped_on()))

    # taps that only build an entry

    def show_tab(self, tab: str) -> None:
        self.tab, self.notice = tab, None
        self.app.render()

    def pick(self, step: str, value: str) -> None:
        self.spell[step] = value
        self.notice = None
        self.app.render()

    def reset_spell(self) -> None:
        self.spell, self.notice = {}, None
        self.app.render()

    def cast(self, effect: str) -> None:
        self.record({"type": "spell", **self.spell, "effect": effect})

    def pick_change(self, step: str, value: str) -> None:
        self.change[step] = value
        self.notice = None
        if len(self.change) == 3:
            self.record({"type": "set", **self.change})
            return
        self.app.render()

    def reset_change(self) -> None:
        self.change, self.notice = {}, None
        self.app.render()

    def pick_altar(self, name: str) -> None:
        self.altar_player = name
        self.altar_text = ""
        self.notice = None
        self.app.render()

    def cancel_altar(self) -> None:
        self.altar_player, self.notice = None, None
        self.app.render()

    def save_altar(self, clear: bool) -> None:
        if self.altar_player is None:
            return
        text = None if clear else self.altar_text.strip() or None
        self.record({"type": "altar", "player": self.altar_player, "text": text})

    def effect_preview(self, effect: str) -> tuple[str, bool, bool]:
        """(what the spell would do, whether it is a double curse, allowed)."""
        event = {"type": "spell", **self.spell, "effect": effect}
        try:
            outcome = self.session.replay.preview(event)
        except CompanionError as error:
            return str(getattr(error, "message", error)), False, False
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
            reasons = outcome.reasons
            text = reason_text(reasons[0], self.app.lang) if reasons else ""
        return text, double, True

    # the screen

    def build(self) -> ft.Control:
        with self.busy:
            self.drawn = self.session.revision
            body = self.draw()
        if not self.opened:
            self.opened = True
            ui.open_at_top(self.app.page, body)
        return body

    def draw(self) -> ft.Control:
        summary = self.session.summary()
        entry = ui.keyed("entry", [self.header(), *self.entry_part(summary)])
        grid = ui.keyed(
            "grid", fortunes_grid(self.app.t, self.players, summary, self.app.dark)
        )
        more = ui.keyed("more", last_reasons(self.app, self.session.replay))
        if self.app.wide:
            return ft.Row(
                [
                    ft.Container(ft.Column(entry + more, spacing=8), expand=1),
                    ft.Container(ft.Column(grid, spacing=6), expand=1),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=16,
            )
        # On a phone the entry comes first, so every tap needs no scrolling.
        return ft.Column(entry + grid + more, spacing=6)

    def header(self) -> ft.Control:
        t, session = self.app.t, self.session
        return ft.Row(
            [
                ft.Container(
                    ui.heading(t("game.cursed"), 20),
                    expand=True,
                ),
                ui.icon_tap(
                    ft.Icons.MENU_BOOK,
                    t("rules.title"),
                    rules_opener(self.app, session.slug),
                    "game-rules",
                ),
                ui.undo_redo(
                    t("table.undo"),
                    t("table.redo"),
                    self.undo,
                    self.redo,
                    can_undo=session.can_undo,
                    can_redo=session.can_redo,
                    compact=not self.app.wide,
                ),
            ],
            spacing=4,
        )

    def message(self) -> list[ft.Control]:
        """The answer to the last tap, right under what was tapped."""
        return [ui.note(self.notice, "error", error=True)] if self.notice else []

    def standing(self, summary: dict[str, Any]) -> list[str]:
        return [
            name for name in self.players if not summary["players"][name]["eliminated"]
        ]

    def entry_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        if summary["finished"]:
            replay = self.session.replay
            spec = replay.engine.spec
            return [game_over(self.app, spec, replay), *self.message()]
        tabs = ui.wrap(
            ui.choices(
                [(SPELL, t("cursed.tab-spell")), (ALTAR, t("cursed.tab-altar"))],
                self.show_tab,
                "tab",
                lambda tab: tab == self.tab,
            )
        )
        part = self.spell_part(summary) if self.tab == SPELL else self.altar_tab()
        return [tabs, *part]

    def spell_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        chosen = " · ".join(
            t(f"fortune.{v}") if k == "fortune" else v for k, v in self.spell.items()
        )
        parts: list[ft.Control] = []
        if chosen:
            parts.append(
                ft.Row(
                    [
                        ft.Container(ui.note(chosen, "spell-so-far"), expand=True),
                        ui.tap(t("spell.reset"), self.reset_spell, "spell-reset"),
                    ],
                )
            )
        step = next((s for s in SPELL_STEPS if s not in self.spell), None)
        if step is None:
            parts.append(ft.Text(t("spell.effect"), weight=ft.FontWeight.W_600))
            parts.append(ft.Column(self.effect_buttons(), spacing=6))
            return parts + self.message()
        parts.append(ft.Text(t(f"spell.{step}"), weight=ft.FontWeight.W_600))
        if step == "fortune":
            options = [(f, t(f"fortune.{f}")) for f in FORTUNES]
        else:
            options = [(name, name) for name in self.standing(summary)]
        parts.append(
            ui.wrap(ui.choices(options, lambda value: self.pick(step, value), step))
        )
        return parts + self.message()

    def effect_buttons(self) -> list[ft.Control]:
        t = self.app.t
        buttons: list[ft.Control] = []
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
                    colour=DOUBLE_CURSE if double else None,
                )
            )
        return buttons

    def altar_tab(self) -> list[ft.Control]:
        return self.change_part() + self.altar_part()

    def change_part(self) -> list[ft.Control]:
        """A sacrifice's change: whose fortune, which one, to what; three taps."""
        t = self.app.t
        parts: list[ft.Control] = [ui.heading(t("set.title"), 16)]
        choices: list[tuple[str, list[tuple[str, str]]]] = [
            # once out, a player's fortunes never change again
            ("player", [(n, n) for n in self.standing(self.session.summary())]),
            ("fortune", [(f, t(f"fortune.{f}")) for f in FORTUNES]),
            ("state", [(s, t(f"state.{s}")) for s in STATES]),
        ]
        step, options = next(
            (item for item in choices if item[0] not in self.change), choices[-1]
        )
        question = ft.Text(t(f"set.{step}"), weight=ft.FontWeight.W_600)
        if self.change:
            so_far = " · ".join(
                t(f"fortune.{v}") if k == "fortune" else v
                for k, v in self.change.items()
            )
            parts.append(
                ft.Row(
                    [
                        ft.Container(ui.note(so_far, "set-so-far"), expand=True),
                        ui.tap(t("spell.reset"), self.reset_change, "set-reset"),
                    ]
                )
            )
        parts.append(question)
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
        return parts + (self.message() if self.altar_player is None else [])

    def altar_part(self) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = [
            ui.heading(t("cursed.altar-title"), 16),
            ui.wrap(
                ui.choices(
                    [(name, name) for name in self.players],
                    self.pick_altar,
                    "altar-player",
                    lambda name: name == self.altar_player,
                )
            ),
        ]
        if self.altar_player is None:
            return parts
        field = ft.TextField(
            value=self.altar_text,
            label=t("cursed.altar-new", player=self.altar_player),
            on_change=lambda e: setattr(self, "altar_text", e.control.value),
            on_submit=lambda _: self.save_altar(False),
        )
        parts.append(ui.tagged("altar-field", field))
        parts.append(
            ui.wrap(
                [
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
                    ui.tap(t("cursed.cancel"), self.cancel_altar, "altar-cancel"),
                ]
            )
        )
        return parts + self.message()
