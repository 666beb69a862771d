"""The table for the four trick games: tap the cards, see what happened and why."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from itertools import groupby
from typing import Any

import flet as ft

from companion.cards import Card
from companion.errors import ChoiceNeeded, CompanionError
from companion.games.base import (
    GIFT,
    LEADER_BY_RULE,
    MANY_ROUNDS,
    REVERSED,
    TWO_OCLOCK_HOLDER,
    Event,
    GameSpec,
    Prompt,
)
from companion.replay import Replay, replay
from screens import ui
from screens.figures import player_figures, shown
from screens.reasons import last_reasons
from screens.shell import App

# Choices that the log keeps per player ({NAME: choice}) rather than as one value.
PER_PLAYER_CHOICES = {"lower"}
FULL, SUPER = "full", "super"
# Summary values that are words rather than figures, shown in the table's language.
WORD_VALUES = ("white", "black", "death")


def round_start(events: list[Event]) -> int:
    """Index of the first event of the round in progress (after its `round`)."""
    for at in range(len(events) - 1, -1, -1):
        if events[at].get("type") == "round":
            return at + 1
    return 0


class TrickTable:
    def __init__(
        self,
        app: App,
        game_id: str,
        *,
        leader: str | None = None,
        piles: bool = False,
    ) -> None:
        self.app = app
        self.game_id = game_id
        self.suggested = leader
        self.piles = piles
        self.tapped: list[str] = []
        self.pending: Event | None = None
        self.choice: ChoiceNeeded | None = None
        self.editing: int | None = None
        self.base: Replay | None = None  # the log up to the trick being re-entered
        self.gift = ""
        self.reversed = False
        self.pile_player: str | None = None
        self.pile_counts = {FULL: 0, SUPER: 0}
        self.replay: Replay
        self.redoable = 0
        self.card_buttons: dict[str, ft.Control] = {}
        self.memo = ui.Memo()
        self.remembered_parts: dict[tuple[Any, ...], list[ft.Control]] = {}
        self.keyed_replay: Replay | None = None
        self.replay_key = ""
        self.reload()

    # talking to the store

    def reload(self) -> None:
        """Read the game from the store (at start, or when another device wrote)."""
        store = self.app.store
        with self.app.lock:
            fresh = store.replay(self.game_id)
            self.redoable = len(store.load(self.game_id).redo)
        moved = (
            not hasattr(self, "replay") or fresh.log.events != self.replay.log.events
        )
        self.replay = fresh
        if moved:
            # What was being entered here rested on the old log.
            self.pending = self.choice = None
            self.editing = None
            self.base = None
        if self.pending is None and self.editing is None:
            self.tapped = []
            self.restore_taps()

    # Cards tapped in an unfinished trick are kept as a setting, so a restart
    # (or a second device) picks the trick up where the table left it.

    @property
    def taps_key(self) -> str:
        return f"trick-in-progress:{self.game_id}"

    def restore_taps(self) -> None:
        kept = self.app.setting(self.taps_key, None)
        if not isinstance(kept, dict):
            return
        prompt = self.replay.prompt()
        cards = kept.get("cards") or []
        offered = {str(card) for card in prompt.cards}
        if (
            kept.get("events") == len(self.replay.log.events)
            and "trick" in prompt.expects
            and len(cards) < len(prompt.seats)
            and set(cards) <= offered
        ):
            self.tapped = list(cards)

    def save_taps(self) -> None:
        if self.editing is not None:
            return
        kept = (
            {"events": len(self.replay.log.events), "cards": list(self.tapped)}
            if self.tapped
            else None
        )
        self.app.call(lambda: self.app.store.set_setting(self.taps_key, kept))

    @property
    def slug(self) -> str:
        return self.replay.log.game

    @property
    def spec(self) -> GameSpec:
        return self.replay.engine.spec

    def stored(self, action: Callable[[], Replay]) -> bool:
        """Run a store action that changes the game; show the result or the refusal."""
        with self.app.lock:
            if self.app.stale(self.game_id, self.replay):
                self.changed_elsewhere()
                return False
            result = self.app.call(action)
        if result is None:
            return False
        self.app.message = None
        self.replay = result
        with self.app.lock:
            self.redoable = len(self.app.store.load(self.game_id).redo)
        return True

    def record(self, event: Event) -> None:
        store, game_id, number = self.app.store, self.game_id, self.editing
        try:
            with self.app.lock:
                if self.app.stale(game_id, self.replay):
                    self.changed_elsewhere()
                    return
                if number is None:
                    result = store.append(game_id, event)
                else:
                    result = store.replace_event(game_id, number, event)
        except ChoiceNeeded as need:
            target = number if number is not None else len(self.replay.log.events) + 1
            if need.event in (None, target):
                self.pending, self.choice = event, need
                self.app.message = None
                self.app.render()
                return
            # An edit that makes a later trick need a choice: that trick must be
            # re-entered on its own, so this edit is refused with the reason.
            self.refused(event, need)
            return
        except CompanionError as error:
            self.refused(event, error)
            return
        self.replay = result
        with self.app.lock:
            self.redoable = len(store.load(game_id).redo)
        self.app.message = None
        self.clear_entry()
        self.app.render()

    def refused(self, event: Event, error: CompanionError) -> None:
        self.app.fail(error)
        self.pending = self.choice = None
        if event.get("type") == "trick" and self.tapped:
            # Keep the trick open: the last card comes back, the rest can follow.
            self.tapped.pop()
        self.app.render()

    def changed_elsewhere(self) -> None:
        """Another device recorded first: show its game rather than guess."""
        self.clear_entry()
        self.reload()
        self.app.fail(self.app.t("table.changed-elsewhere"))
        self.app.render()

    def clear_entry(self) -> None:
        if self.tapped and self.editing is None:
            self.tapped = []
            self.save_taps()
        self.tapped = []
        self.pending = self.choice = None
        self.editing = None
        self.base = None

    # taps

    def current(self) -> Replay:
        return self.base or self.replay

    def tap_card(self, code: str) -> None:
        seats = self.current().prompt().seats
        if self.pending is not None or len(self.tapped) >= len(seats):
            return
        self.tapped.append(code)
        if len(self.tapped) == len(seats):
            self.record({"type": "trick", "cards": list(self.tapped)})
            return
        # A half-entered trick is not yet part of the game: show the tap first,
        # then keep it for a restart.
        self.app.render()
        self.save_taps()

    def take_back(self) -> None:
        if self.pending is not None:
            self.pending = self.choice = None
        if self.tapped:
            self.tapped.pop()
            self.save_taps()
        self.app.render()

    def choose(self, option: str) -> None:
        if self.pending is None or self.choice is None:
            return
        event = copy.deepcopy(self.pending)
        if self.choice.field in PER_PLAYER_CHOICES:
            event[self.choice.field] = {
                **event.get(self.choice.field, {}),
                self.choice.player: option,
            }
        else:
            event[self.choice.field] = option
        self.record(event)

    def undo(self) -> None:
        self.clear_entry()
        self.stored(lambda: self.app.store.undo(self.game_id))
        self.app.render()

    def redo(self) -> None:
        self.clear_entry()
        self.stored(lambda: self.app.store.redo(self.game_id))
        self.app.render()

    def edit(self, number: int) -> None:
        self.clear_entry()
        self.editing = number
        self.base = replay(
            self.replay.log.with_events(self.replay.log.events[: number - 1])
        )
        self.app.render()

    def cancel_edit(self) -> None:
        self.clear_entry()
        self.app.render()

    def start_round(self, leader: str | None) -> None:
        event: Event = {"type": "round"}
        if leader is not None:
            event["leader"] = leader
        if GIFT in self.spec.round_asks:
            event["gift"] = self.gift.strip() or None
        if REVERSED in self.spec.round_asks:
            event["reversed"] = self.reversed
        self.record(event)

    def set_reversed(self, value: bool) -> None:
        self.reversed = value
        self.app.render()

    def use_piles(self, value: bool) -> None:
        self.piles = value
        self.app.render()

    def pick_pile_player(self, name: str) -> None:
        self.pile_player = name
        self.app.render()

    def count(self, kind: str, step: int) -> None:
        self.pile_counts[kind] = max(0, self.pile_counts[kind] + step)
        self.app.render()

    def add_pile(self) -> None:
        if self.pile_player is None:
            self.app.fail(self.app.t("pile.who"))
            self.app.render()
            return
        event = {"type": "pile", "player": self.pile_player, **self.pile_counts}
        self.pile_counts = {FULL: 0, SUPER: 0}
        self.record(event)

    def end_piles(self) -> None:
        self.record({"type": "end"})

    # the screen

    def build(self) -> ft.Control:
        summary = self.replay.summary()
        entry = ft.Column(self.entry_part(summary), spacing=10, key="entry")
        board = ft.Column(self.board_part(summary), spacing=10, key="board")
        if self.app.wide:
            return ft.Row(
                [
                    ft.Container(entry, expand=3, key="entry-pane"),
                    ft.Container(board, expand=2, key="board-pane"),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=16,
            )
        return ft.Column([self.players_strip(summary), entry, board], spacing=12)

    # the entry pane

    def entry_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = list(
            self.remembered("header", lambda: self.header(summary))
        )
        if self.editing is not None:
            parts.append(
                ui.panel(
                    ft.Text(
                        t("edit.banner", n=self.editing), weight=ft.FontWeight.BOLD
                    ),
                    ui.tap(t("edit.cancel"), self.cancel_edit, "cancel-edit"),
                    identifier="edit-banner",
                )
            )
        prompt = self.current().prompt()
        if self.app.message:
            parts.append(ui.note(self.app.message, "error", error=True))
        over = summary["finished"] and self.editing is None
        if over:
            parts += ui.keyed("over", self.game_over(summary))
        if self.choice is None:
            parts += self.remembered("reasons", self.reasons_part)
        if over:
            pass  # nothing more to enter; undo and editing stay below
        elif "trick" in prompt.expects:
            parts += ui.keyed("trick", self.trick_entry(prompt))
        elif "pile" in prompt.expects and (self.piles or "round" not in prompt.expects):
            parts += ui.keyed("pile", self.pile_entry(prompt))
        elif "round" in prompt.expects:
            parts += ui.keyed("round", self.round_entry(summary, prompt))
        parts += self.remembered("history", lambda: [self.history_part()])
        return parts

    def header(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        return [
            ft.Row(
                [
                    ft.Row(
                        [
                            ui.heading(t(f"game.{self.slug}"), 20),
                            *self.round_label(summary),
                        ],
                        spacing=10,
                        wrap=True,
                        expand=True,
                    ),
                    ui.undo_redo(
                        t("table.undo"),
                        t("table.redo"),
                        self.undo,
                        self.redo,
                        can_undo=bool(self.replay.log.events),
                        can_redo=bool(self.redoable),
                        compact=not self.app.wide,
                    ),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                key="header",
            )
        ]

    def round_label(self, summary: dict[str, Any]) -> list[ft.Control]:
        """Round number, and for Black Hearts what this round's Gift says."""
        t = self.app.t
        if summary["finished"] or self.spec.rounds != MANY_ROUNDS:
            return []
        labels: list[ft.Control] = [
            ft.Text(t("table.round", n=len(summary["rounds"]) + 1))
        ]
        events = self.replay.log.events
        start = round_start(events)
        playing = "trick" in self.replay.prompt().expects
        asks = self.spec.round_asks
        if start and playing:
            event = events[start - 1]
            if REVERSED in asks and event.get("reversed"):
                labels.append(ui.note(t("round.reversed"), "round-reversed"))
            if GIFT in asks and event.get("gift"):
                labels.append(
                    ui.note(t("round.gift-is", text=event["gift"]), "round-gift")
                )
        return labels

    def trick_entry(self, prompt: Prompt) -> list[ft.Control]:
        t = self.app.t
        seats = prompt.seats
        parts: list[ft.Control] = []
        if self.choice is not None:
            return self.choice_part()
        turn = seats[len(self.tapped)]
        parts.append(
            ft.Row(
                [
                    ft.Text(t("table.next"), size=16),
                    ui.figure("next-player", turn, size=22, weight=ft.FontWeight.BOLD),
                ],
                spacing=8,
                key="next",
            )
        )
        if self.tapped:
            played = ", ".join(
                f"{name} {code}" for name, code in zip(seats, self.tapped, strict=False)
            )
            parts.append(
                ft.Row(
                    [
                        ui.note(played, "trick-so-far"),
                        ui.tap(
                            t("table.take-back"),
                            self.take_back,
                            "take-back",
                            icon=ft.Icons.BACKSPACE_OUTLINED,
                        ),
                    ],
                    wrap=True,
                    key="so-far",
                )
            )
        parts.append(self.card_grid(prompt))
        return parts

    def card_grid(self, prompt: Prompt) -> ft.Control:
        colours = self.spec.suit_colours()
        left = Counter(prompt.cards)
        offered = [
            card for card in left if left[card] > self.tapped.count(str(card))
        ]
        rows: list[ft.Control] = []
        for suit, cards in groupby(offered, key=lambda card: card.suit):
            rows.append(
                ui.wrap(
                    [self.card_button(card, colours.get(suit)) for card in cards],
                    spacing=4,
                    key=f"suit-{suit}",
                )
            )
        return ft.Column(rows, spacing=8, key="cards")

    def card_button(self, card: Card, colour: str | None) -> ft.Control:
        """The same control each time, so a redraw has nothing to compare for it."""
        code = str(card)
        if code not in self.card_buttons:
            self.card_buttons[code] = ui.card_button(
                code, self.spec.card_label(card), colour, lambda: self.tap_card(code)
            )
        return self.card_buttons[code]

    def choice_part(self) -> list[ft.Control]:
        assert self.choice is not None
        t = self.app.t
        need = self.choice
        key = f"choice.{self.slug}.{need.field}"
        question = t(key, player=need.player)
        if question == key:
            question = need.message
        buttons = ui.choices(
            [(option, self.option_label(need, option)) for option in need.options],
            self.choose,
            "choice",
        )
        seats = self.current().prompt().seats
        played = ", ".join(
            f"{name} {code}" for name, code in zip(seats, self.tapped, strict=False)
        )
        return [
            ui.panel(
                ft.Text(played, size=12),
                ui.note(question, "choice-question"),
                ui.wrap(buttons),
                ui.tap(self.app.t("table.take-back"), self.take_back, "take-back"),
                highlight=True,
            )
        ]

    def option_label(self, need: ChoiceNeeded, option: str) -> str:
        """A choice in the table's words: a track's name, or the curse card itself."""
        named = self.app.t(f"option.{option}")
        if named != f"option.{option}":
            return named
        view = self.replay.summary()["players"].get(need.player, {})
        held = [str(c) for c in view.get("curses", []) if str(c).startswith(option)]
        return held[0] if len(held) == 1 else option

    def round_entry(self, summary: dict[str, Any], prompt: Prompt) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = []
        if summary["rounds"]:
            parts.append(self.round_scores(summary, len(summary["rounds"]) - 1))
        if GIFT in self.spec.round_asks:
            parts.append(
                ui.tagged(
                    "gift",
                    ft.TextField(
                        value=self.gift,
                        label=t("round.gift"),
                        on_change=lambda e: setattr(self, "gift", e.control.value),
                    ),
                )
            )
        if REVERSED in self.spec.round_asks:
            parts.append(
                ui.wrap(
                    [
                        ui.tap(
                            t("round.normal"),
                            lambda: self.set_reversed(False),
                            "normal",
                            primary=not self.reversed,
                        ),
                        ui.tap(
                            t("round.reversed"),
                            lambda: self.set_reversed(True),
                            "reversed",
                            primary=self.reversed,
                        ),
                    ]
                )
            )
        parts.append(ui.heading(t("round.who-leads"), 16))
        if TWO_OCLOCK_HOLDER in self.spec.round_asks:
            parts.append(ft.Text(t("round.two-oclock-holder"), size=12))
        buttons: list[ft.Control] = []
        if LEADER_BY_RULE in self.spec.round_asks and summary["rounds"]:
            buttons.append(
                ui.tap(
                    t("round.by-rule"),
                    lambda: self.start_round(None),
                    "leader-rule",
                    primary=True,
                )
            )
        buttons += ui.choices(
            [(name, name) for name in self.replay.log.players],
            self.start_round,
            "leader",
            lambda name: name == self.suggested,
        )
        parts.append(ui.wrap(buttons))
        if "pile" in prompt.expects:
            parts.append(
                ui.tap(t("pile.instead"), lambda: self.use_piles(True), "mode-piles")
            )
        return parts

    def pile_entry(self, prompt: Prompt) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = [ui.heading(t("pile.title"), 16)]
        parts.append(
            ui.wrap(
                ui.choices(
                    [(name, name) for name in self.replay.log.players],
                    self.pick_pile_player,
                    "pile-player",
                    lambda name: name == self.pile_player,
                )
            )
        )
        for kind in (FULL, SUPER):
            parts.append(
                ft.Row(
                    [
                        ft.Text(t(f"pile.{kind}"), width=150),
                        ui.tap(
                            "−", lambda kind=kind: self.count(kind, -1), f"{kind}-minus"
                        ),
                        ui.figure(f"{kind}-count", self.pile_counts[kind], size=20),
                        ui.tap(
                            "+", lambda kind=kind: self.count(kind, 1), f"{kind}-plus"
                        ),
                    ],
                    spacing=8,
                )
            )
        buttons = [ui.tap(t("pile.add"), self.add_pile, "add-pile", primary=True)]
        if "end" in prompt.expects:
            buttons.append(ui.tap(t("pile.end"), self.end_piles, "end-piles"))
        if "round" in prompt.expects:
            buttons.append(
                ui.tap(t("pile.by-trick"), lambda: self.use_piles(False), "mode-tricks")
            )
        parts.append(ui.wrap(buttons))
        return parts

    def game_over(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        winners = summary["winners"]
        line = (
            t("over.winners", names=", ".join(winners)) if winners else t("over.none")
        )
        return [
            ui.panel(
                ui.heading(t("over.title"), 20),
                ui.figure("winners", line, size=18, weight=ft.FontWeight.BOLD),
                highlight=True,
            )
        ]

    def remembered(
        self, part: str, draw: Callable[[], list[ft.Control]]
    ) -> list[ft.Control]:
        """A part that only the game's log, the language and the width change.

        A tap inside a trick leaves these as they were: handing Flet the very
        same controls spares comparing them on every tap.
        """
        inputs = (
            part,
            self.log_key,
            self.redoable,
            self.editing,
            self.app.lang,
            self.app.wide,
            self.app.page.width,
        )
        found = self.remembered_parts.get(inputs)
        if found is None:
            if len(self.remembered_parts) > 30:
                self.remembered_parts.clear()
            found = self.remembered_parts[inputs] = draw()
        return found

    @property
    def log_key(self) -> str:
        # Asked by every kept part on every tap: written once per replay shown.
        if self.keyed_replay is not self.replay:
            self.keyed_replay = self.replay
            self.replay_key = json.dumps(self.replay.log.events)
        return self.replay_key

    def reasons_part(self) -> list[ft.Control]:
        if self.editing is not None:
            return []
        return last_reasons(self.app, self.replay)

    def history_part(self) -> ft.Control:
        t = self.app.t
        events = self.replay.log.events
        first = round_start(events)
        rows: list[ft.Control] = []
        tricks = [
            (number, event)
            for number, event in enumerate(events, start=1)
            if number > first and event.get("type") in ("trick", "pile")
        ]
        if tricks:
            rows.append(ft.Text(t("table.this-round"), size=12))
        for number, event in tricks:
            label = " ".join(event.get("cards", [])) or shown(
                [event.get("player"), event.get(FULL), event.get(SUPER)]
            )
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{number}.", width=30),
                        ft.Text(label, expand=True),
                        ui.tap(
                            t("table.edit"),
                            lambda n=number: self.edit(n),
                            f"edit-{number}",
                            icon=ft.Icons.EDIT,
                        ),
                    ],
                    spacing=6,
                )
            )
        return ft.Column(rows, spacing=6, key="history")

    # the scoreboard

    def player_panel(
        self, summary: dict[str, Any], name: str, compact: bool
    ) -> ft.Control:
        view = summary["players"][name]
        figures = player_figures(self.slug, view, self.replay.state.options)
        inputs = (
            name,
            compact,
            self.whose_turn() == name,
            summary["leader"] == name,
            summary["totals"][name],
            tuple(figures),
            self.app.lang,
            self.app.page.width,
        )
        return self.memo.get(
            inputs, lambda: self.draw_panel(summary, name, compact, figures)
        )

    def draw_panel(
        self,
        summary: dict[str, Any],
        name: str,
        compact: bool,
        figures: list[tuple[str, str]],
    ) -> ft.Control:
        t = self.app.t
        turn = self.whose_turn()
        head = ft.Row(
            [
                ft.Text(name, size=16, weight=ft.FontWeight.BOLD),
                ui.figure(
                    f"score-{name}",
                    summary["totals"][name],
                    size=18,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY,
                ),
            ],
            spacing=10,
        )
        if summary["leader"] == name:
            head.controls.append(
                ft.Icon(ft.Icons.PLAY_CIRCLE, size=18, tooltip=t("table.leads"))
            )
        # On a phone the panels sit above the cards: keep them short.
        label_size, value_size = (12, 13) if compact else (12, 14)
        pairs = [
            ft.Row(
                [
                    ft.Text(t(f"field.{field}"), size=label_size),
                    ui.figure(
                        f"{field}-{name}",
                        t(f"value.{value}") if value in WORD_VALUES else value,
                        size=value_size,
                        weight=ft.FontWeight.W_600,
                    ),
                ],
                spacing=3,
                tight=True,
            )
            for field, value in figures
        ]
        box = ui.panel(
            head,
            ft.Row(pairs, wrap=True, spacing=6, run_spacing=0 if compact else 8),
            identifier=f"state-{name}",
            highlight=turn == name,
            padding=6 if compact else 10,
        )
        if compact:
            half = ((self.app.page.width or 390) - 22) / 2
            return ft.Container(box, width=min(half, 240))
        return box

    def whose_turn(self) -> str | None:
        prompt = self.current().prompt()
        if "trick" in prompt.expects and len(self.tapped) < len(prompt.seats):
            return prompt.seats[len(self.tapped)]
        return None

    def players_strip(self, summary: dict[str, Any]) -> ft.Control:
        return ui.wrap(
            [self.player_panel(summary, name, True) for name in self.replay.log.players]
        )

    def board_part(self, summary: dict[str, Any]) -> list[ft.Control]:
        t = self.app.t
        parts: list[ft.Control] = []
        if self.app.wide:
            parts.append(ui.heading(t("board.title"), 18))
            parts += [
                self.player_panel(summary, name, False)
                for name in self.replay.log.players
            ]
        if summary["leader"]:
            parts.append(
                ft.Row(
                    [ft.Text(t("board.leader")), ui.figure("leader", summary["leader"])]
                )
            )
        if summary["rounds"]:
            parts += self.remembered("rounds", lambda: [self.rounds_table(summary)])
        return ui.keyed("board", parts)

    def round_scores(self, summary: dict[str, Any], index: int) -> ft.Control:
        t = self.app.t
        scores = summary["rounds"][index].get("scores", {})
        return ui.panel(
            ui.heading(t("round.ended", n=index + 1), 16),
            ui.wrap(
                [
                    ft.Text(f"{name}: {shown(scores.get(name))}")
                    for name in self.replay.log.players
                ],
                spacing=14,
            ),
            identifier="round-end",
            highlight=True,
        )

    def rounds_table(self, summary: dict[str, Any]) -> ft.Control:
        t = self.app.t
        players = self.replay.log.players
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
        rows.append(
            ft.DataRow(
                [ft.DataCell(ft.Text(t("board.total"), weight=ft.FontWeight.BOLD))]
                + [
                    ft.DataCell(
                        ft.Text(
                            shown(summary["totals"][name]), weight=ft.FontWeight.BOLD
                        )
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
        )
