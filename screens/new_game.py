"""The new-game form: game, players in seating order, start player, editions."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

import flet as ft

from companion.errors import CompanionError, FormatError
from companion.games import SLUGS, describe
from companion.games.base import (
    CARD,
    CARD_POINTS,
    CHOICE,
    GIFT,
    LEADER,
    NUMBER,
    NUMBER_SET,
    NUMBERS,
    REVERSED,
    SUIT,
    TWO_OCLOCK_HOLDER,
    Event,
    GameSpec,
    OptionSpec,
)
from companion.log import GameLog
from companion.names import Problem, name_refusal, normal_form
from companion.replay import start
from screens import ui
from screens.shell import TABLE, App

RANDOM = "\x00random"  # never a valid name, so it cannot clash with a player
TYPED = (NUMBER, NUMBERS)  # options typed into fields that share one row
# Longer names would not fit a player's column at the table.
NAME_MOST = 20
# What lies around the form's own scrolling box on a phone: the page's top
# row and padding above it, Start and the gaps below it.
ABOVE_FORM = 140
# How long after the field is given the focus a blur is taken for the page
# being laid out again under it (Flutter's web semantics can move the focused
# input when a scrolling box around it is rebuilt), not for a player's tap.
REFOCUS_S = 1.0
BLUR_SETTLE_S = 0.3


def numbers(value: str) -> list[int]:
    """A track typed as "0, -2, -3" (spaces or commas between numbers)."""
    return [int(part) for part in value.replace(",", " ").split()]


class NewGame:
    def __init__(self, app: App) -> None:
        self.app = app
        self.game = SLUGS[0]
        self.players: list[str] = []
        self.typed = ""
        self.name_problem: str | None = None  # shown under the name field
        self.starter: str | None = RANDOM
        self.name_field: ft.TextField | None = None  # the one on screen
        self.refocus_until = float("-inf")  # see REFOCUS_S
        # the first round's gift card and strength, where a round start asks
        self.gift = ""
        self.reversed = False
        self.piles = False  # counted at the end instead of trick by trick
        self.fields: dict[str, str] = {}  # typed options, by field
        self.picked: dict[str, Any] = {}  # options chosen by tapping, by name
        self.load_edition()

    @property
    def spec(self) -> GameSpec:
        return describe(self.game)

    # the edition numbers, remembered per game (per player count when the
    # game's defaults depend on it)

    def remembered(self) -> dict[str, Any]:
        found = self.app.call(lambda: self.app.store.table_options(self.game))
        return dict(found or {})

    def edition_counts(self) -> list[int]:
        """The player counts whose editions differ (empty: one edition for all)."""
        counts = {n for o in self.spec.confirmed_options for n in o.by_count}
        return sorted(counts)

    def edition_count(self) -> str:
        counts = self.edition_counts() or [len(self.players)]
        count = len(self.players)
        return str(count if count in counts else counts[0])

    def load_edition(self) -> None:
        mine = self.remembered()
        self.confirmed = bool(mine)
        per_count = bool(self.edition_counts())
        if per_count:
            mine = mine.get(self.edition_count(), {})
        for option in self.spec.confirmed_options:
            base = option.default_for(int(self.edition_count()))
            value = mine.get(option.name, base)
            if option.kind == NUMBER:
                self.fields[option.name] = str(value)
            elif option.kind == NUMBERS:
                self.fields[option.name] = ", ".join(str(n) for n in value)
            elif option.kind == CARD_POINTS:
                points = {**base, **value}
                self.fields.update(
                    {card: str(points.get(card, 0)) for card in option.allowed}
                )
            elif option.kind == NUMBER_SET:
                self.picked[option.name] = set(value)
            else:
                self.picked[option.name] = value

    def edition_options(self) -> dict[str, Any]:
        """The options as typed; raises FormatError on a number that is not one."""
        found: dict[str, Any] = {}
        try:
            for option in self.spec.confirmed_options:
                found[option.name] = self.typed_option(option)
        except ValueError:
            raise FormatError(self.app.t("new.not-a-number")) from None
        return found

    def typed_option(self, option: OptionSpec) -> Any:
        if option.kind == NUMBER:
            return int(self.fields[option.name])
        if option.kind == NUMBERS:
            return numbers(self.fields[option.name])
        if option.kind == CARD_POINTS:
            return {card: int(self.fields[card]) for card in option.allowed}
        if option.kind == NUMBER_SET:
            return sorted(self.picked[option.name])
        return self.picked[option.name]

    def shown(self, option: OptionSpec) -> bool:
        """Whether the form offers the option for the players listed so far."""
        if not option.tag:
            return False
        return not option.counts or len(self.players) in option.counts

    def choice(self, option: OptionSpec) -> Any:
        """An option chosen per game: as tapped, else its default.

        A suit option's default is the last suit on offer (the rules' choice).
        """
        if option.kind == SUIT:
            return self.picked.get(option.name) or self.offered(option)[-1]
        return self.picked.get(option.name, option.default)

    def offered(self, option: OptionSpec) -> tuple[Any, ...]:
        if option.allowed_by is None:
            return option.allowed
        return option.offered_for(
            {option.allowed_by: self.choice(self.spec.option(option.allowed_by))}
        )

    def options(self) -> dict[str, Any]:
        found = self.edition_options()
        for option in self.spec.options:
            if option.confirmed or not option.tag:
                continue
            if option.kind == CHOICE:
                found[option.name] = self.choice(option)
            elif self.picked.get(option.name) and self.shown(option):
                # a suit left to its default is the rules' choice: not written
                found[option.name] = self.picked[option.name]
        return found

    def remember(self, edition: dict[str, Any]) -> None:
        if not edition:
            return
        if self.edition_counts():
            kept = self.remembered()
            kept[self.edition_count()] = edition
            edition = kept
        self.app.store.remember_options(self.game, edition)

    # actions

    def refresh(self) -> None:
        self.app.render()

    def pick_game(self, slug: str) -> None:
        self.game = slug
        self.load_edition()
        self.refresh()

    def name_refused(self, name: str) -> str | None:
        """Why ``name`` cannot join the players, in the table's words."""
        t = self.app.t
        refusal = name_refusal(name, self.players)
        if refusal is not None and refusal.problem is Problem.BLANK:
            return t("new.empty-name")
        if len(name) > NAME_MOST:
            return t("new.long-name", most=NAME_MOST)
        if refusal is None:
            return None
        if refusal.problem is Problem.HIDDEN:
            return t("new.hidden-name", name=refusal.name)
        return t("new.duplicate-name", name=refusal.same_as)

    def add(self, name: str | None = None, *, submitted: bool = False) -> None:
        """Add ``name``, else the name typed; ``submitted`` when Enter added it."""
        typed = name is None
        name = (self.typed if name is None else name).strip()
        self.name_problem = self.name_refused(name)
        if self.name_problem is None:
            self.players.append(normal_form(name))
            if typed:
                self.typed = ""
            self.app.message = None
            if self.edition_counts():
                self.load_edition()
        self.refresh()
        if submitted or typed:
            self.focus_name()

    def focus_name(self) -> None:
        """Enter, or a tap on Add, takes the focus from the field: give it
        back, so the next name can be typed at once."""
        if self.name_field is not None:
            self.refocus_until = float("inf")  # until it is given and settled
            self.app.page.run_task(self.give_focus, self.name_field)

    async def give_focus(self, field: ft.TextField) -> None:
        try:
            await field.focus()
        except (RuntimeError, TimeoutError):
            return  # the form was left, or the device went away
        finally:
            self.refocus_until = time.monotonic() + REFOCUS_S

    async def name_blurred(self, _event: ft.ControlEvent) -> None:
        """The field lost the focus just after it was given back: unless the
        player tapped something else, the page was laid out again under it,
        so give it back once more."""
        blurred_at = time.monotonic()
        if blurred_at >= self.refocus_until:
            return  # the tap that took it, or long after
        # A finger's tap blurs the field when it lands and is handled when it
        # lifts; another field's focus comes just after the blur: let either
        # arrive.
        await asyncio.sleep(BLUR_SETTLE_S)
        tapped = ui.guard_of(self.app.page).tapped_at >= blurred_at
        if tapped or self.app.screen is not self or self.name_field is None:
            return
        if time.monotonic() >= self.refocus_until:
            return
        self.refocus_until = float("-inf")
        with contextlib.suppress(RuntimeError, TimeoutError):
            await self.name_field.focus()

    def other_field_focused(self, _event: ft.ControlEvent) -> None:
        self.refocus_until = float("-inf")

    def submitted(self, event: ft.ControlEvent) -> None:
        """Enter in the name field: the name as the field held it then.

        The field sends its text with Enter; a change sent just before may
        still be on its way, and the name must not be lost to that race.
        """
        if isinstance(event.data, str):
            self.typed = event.data
        self.add(submitted=True)

    def count_refused(self) -> str | None:
        """Why the players listed cannot play the chosen game, in plain words."""
        counts, count = self.spec.player_counts, len(self.players)
        low, high = counts.start, counts.stop - 1
        game = self.app.t(f"game.{self.game}")
        if not count:
            return self.app.t("new.no-players", game=game, low=low, high=high)
        if count < low:
            return self.app.t("new.too-few", game=game, low=low, missing=low - count)
        if count > high:
            return self.app.t("new.too-many", game=game, high=high, extra=count - high)
        return None

    def move(self, at: int, step: int) -> None:
        to = at + step
        if 0 <= to < len(self.players):
            self.players[at], self.players[to] = self.players[to], self.players[at]
        self.refresh()

    def remove(self, at: int) -> None:
        name = self.players.pop(at)
        self.name_problem = None
        if self.starter == name:
            self.starter = RANDOM
        if self.edition_counts():
            self.load_edition()
        self.refresh()

    def choose_starter(self, name: str) -> None:
        self.starter = name
        self.refresh()

    def set_field(self, key: str, value: str) -> None:
        self.fields[key] = value

    def toggle(self, name: str, number: int) -> None:
        self.picked[name] ^= {number}
        self.refresh()

    def pick(self, name: str, value: object) -> None:
        self.picked[name] = value
        self.refresh()

    def set_attr(self, name: str, value: object) -> None:
        setattr(self, name, value)
        self.refresh()

    @property
    def holder_asked(self) -> bool:
        """Whether the start player is whoever holds a card, never drawn by lot."""
        return TWO_OCLOCK_HOLDER in self.spec.round_asks

    def first_round(self, leader: str) -> Event:
        """The first round's event, with what the game's round start asks."""
        event: Event = {"type": "round", "leader": leader}
        if GIFT in self.spec.round_asks:
            event["gift"] = self.gift.strip() or None
        if REVERSED in self.spec.round_asks:
            event["reversed"] = self.reversed
        return event

    def begin(self) -> None:
        app = self.app
        problem = self.count_refused()
        if problem is None and self.holder_asked and self.starter not in self.players:
            problem = app.t("round.two-oclock-holder")
        if problem is not None:
            app.fail(problem)
            self.refresh()
            return
        try:
            edition = self.edition_options()
            options = self.options()
            log = GameLog.from_dict(
                {
                    "format": "companion-log/1",
                    "game": self.game,
                    "players": list(self.players) or [],
                    "options": options,
                    "events": [],
                }
            )
            start(log)
        except CompanionError as error:
            app.fail(error)
            self.refresh()
            return
        leader = self.starter
        if leader == RANDOM or leader not in self.players:
            leader = random.choice(self.players)

        def create() -> str:
            game_id = app.store.create_game(log)
            self.remember(edition)
            spec = self.spec
            if spec.leader_at_start and not (spec.counted_at_end and self.piles):
                app.store.append(game_id, self.first_round(leader))
            return game_id

        game_id = app.call(create)
        if game_id is None:
            self.refresh()
            return
        app.show(TABLE, game_id=game_id, leader=leader, piles=self.piles)

    # the form

    def build(self) -> ft.Control:
        t = self.app.t
        parts: list[ft.Control] = [ui.heading(t("new.title"), 22)]
        parts.append(ui.heading(t("new.game"), 16))
        parts.append(
            ui.wrap(
                ui.choices(
                    [(slug, t(f"game.{slug}")) for slug in SLUGS],
                    self.pick_game,
                    "game",
                    lambda slug: slug == self.game,
                )
            )
        )
        parts += self.players_part()
        if LEADER in self.spec.round_asks:
            parts += self.starter_part()
        parts += self.first_round_part()
        parts += self.options_part()
        if self.app.message:
            parts.append(ui.note(self.app.message, "error", error=True))
        start = ui.tap(
            t("new.start"), self.begin, "start-game", primary=True, width=240
        )
        if self.app.wide:
            return ft.Column([*parts, start], spacing=10)
        # On a phone the form scrolls inside its own box and Start stays in
        # view under it, however many players and options there are.
        height = max(200, (self.app.page.height or 740) - ABOVE_FORM)
        return ft.Column(
            [
                ft.Column(parts, spacing=10, scroll=ft.ScrollMode.AUTO, height=height),
                start,
            ],
            spacing=8,
        )

    def players_part(self) -> list[ft.Control]:
        """The name field and Add first, the names below them: a name added
        grows the list under the field, so Add stays where the thumb is."""
        t = self.app.t
        self.name_field = ft.TextField(
            value=self.typed,
            label=t("new.name"),
            on_change=lambda e: setattr(self, "typed", e.control.value),
            on_submit=self.submitted,
            on_blur=self.name_blurred,
            width=200,
        )
        rows: list[ft.Control] = [
            ui.heading(t("new.players"), 16),
            ft.Row(
                [
                    ui.tagged("name-field", self.name_field),
                    # A hurried second tap adds nothing, but it too takes the
                    # focus from the field.
                    ui.tap(
                        t("new.add"),
                        self.add,
                        "add-player",
                        on_refused=self.focus_name,
                    ),
                ],
                spacing=6,
                key="name-row",
            ),
        ]
        if self.name_problem:
            rows.append(ui.note(self.name_problem, "name-error", error=True))
        known = self.app.call(self.app.store.known_players) or []
        spare = [name for name in known if name not in self.players]
        if spare:
            rows.append(ft.Text(t("new.known"), size=12))
            rows.append(
                ui.wrap(
                    [
                        ui.tap(name, lambda name=name: self.add(name), f"known-{name}")
                        for name in spare
                    ]
                )
            )
        if self.players:
            rows.append(ft.Text(t("new.seating-hint"), size=12, italic=True))
        for at, name in enumerate(self.players):
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{at + 1}. {name}", size=16, expand=True),
                        ui.icon_tap(
                            ft.Icons.ARROW_UPWARD,
                            t("new.up"),
                            lambda at=at: self.move(at, -1),
                            f"up-{name}",
                        ),
                        ui.icon_tap(
                            ft.Icons.ARROW_DOWNWARD,
                            t("new.down"),
                            lambda at=at: self.move(at, 1),
                            f"down-{name}",
                        ),
                        ui.icon_tap(
                            ft.Icons.CLOSE,
                            t("new.remove"),
                            lambda at=at: self.remove(at),
                            f"remove-{name}",
                        ),
                    ],
                    spacing=4,
                )
            )
        return rows

    def starter_part(self) -> list[ft.Control]:
        t = self.app.t
        head: list[ft.Control] = [ui.heading(t("new.starter"), 16)]
        buttons: list[ft.Control] = []
        if self.holder_asked:
            # The deal decides who starts: the table taps who holds the card.
            head.append(ft.Text(t("round.two-oclock-holder")))
        else:
            buttons.append(
                ui.tap(
                    t("new.random"),
                    lambda: self.choose_starter(RANDOM),
                    "start-random",
                    primary=self.starter == RANDOM,
                )
            )
        buttons += ui.choices(
            [(name, name) for name in dict.fromkeys(self.players)],
            self.choose_starter,
            "start",
            lambda name: name == self.starter,
        )
        return [*head, ui.wrap(buttons)]

    def first_round_part(self) -> list[ft.Control]:
        """The first round's gift card and strength, where a round asks them."""
        t, asks = self.app.t, self.spec.round_asks
        if not self.spec.leader_at_start or not {GIFT, REVERSED} & set(asks):
            return []
        parts: list[ft.Control] = [ui.heading(t("new.first-round"), 16)]
        if GIFT in asks:
            parts.append(
                ui.tagged(
                    "gift",
                    ft.TextField(
                        value=self.gift,
                        label=t("round.gift"),
                        on_change=lambda e: setattr(self, "gift", e.control.value),
                        on_focus=self.other_field_focused,
                    ),
                )
            )
        if REVERSED in asks:
            parts.append(
                ui.wrap(
                    [
                        ui.tap(
                            t("round.normal"),
                            lambda: self.set_attr("reversed", False),
                            "normal",
                            primary=not self.reversed,
                        ),
                        ui.tap(
                            t("round.reversed"),
                            lambda: self.set_attr("reversed", True),
                            "reversed",
                            primary=self.reversed,
                        ),
                    ]
                )
            )
        return parts

    def options_part(self) -> list[ft.Control]:
        t = self.app.t
        spec = self.spec
        rows: list[ft.Control] = []
        typed: list[ft.Control] = []  # typed fields waiting for their shared row

        def close_typed_row() -> None:
            if typed:
                rows.append(ui.wrap(list(typed)))
                typed.clear()

        for option in spec.options:
            if not self.shown(option):
                continue
            if option.heading or option.kind not in TYPED:
                close_typed_row()
            if option.heading:
                rows.append(ft.Text(t(option.heading, count=self.edition_count())))
            if option.kind in TYPED:
                width = 120 if option.kind == NUMBER else 200
                label = t(f"opt.{option.name}")
                typed.append(self.number_field(option.name, label, width))
            else:
                rows.append(ui.wrap(self.option_entries(option)))
        close_typed_row()
        if spec.counted_at_end:
            rows.append(
                ui.wrap(
                    [
                        ui.tap(
                            t("new.mode-tricks"),
                            lambda: self.set_attr("piles", False),
                            "mode-tricks",
                            primary=not self.piles,
                        ),
                        ui.tap(
                            t("new.mode-piles"),
                            lambda: self.set_attr("piles", True),
                            "mode-piles",
                            primary=self.piles,
                        ),
                    ]
                )
            )
        if not rows:
            return []
        head: list[ft.Control] = [ui.heading(t("new.options"), 16)]
        if spec.confirmed_options:
            head.append(
                ft.Text(
                    t("new.remembered" if self.confirmed else "new.confirm-once"),
                    size=12,
                    italic=True,
                )
            )
        return head + rows

    def option_entries(self, option: OptionSpec) -> list[ft.Control]:
        """The buttons or fields of one option that is not simply typed."""
        name, tag = option.name, option.tag
        if option.kind == CARD_POINTS:
            return [
                self.number_field(card, self.spec.code_label(card), 80)
                for card in option.allowed
            ]
        if option.kind == NUMBER_SET:
            chosen = self.picked[name]
            return [
                ui.tap(
                    str(n),
                    lambda n=n: self.toggle(name, n),
                    f"{tag}-{n}",
                    primary=n in chosen,
                )
                for n in option.allowed
            ]
        current = self.choice(option)
        def label(value: Any) -> str:
            if option.kind == CHOICE:
                return self.app.t(f"{tag}.{value}")
            if option.kind == CARD:
                return self.spec.code_label(value)
            return str(value)

        return [
            ui.tap(
                label(value),
                lambda value=value: self.pick(name, value),
                f"{tag}-{value}",
                primary=current == value,
            )
            for value in self.offered(option)
        ]

    def number_field(self, key: str, label: str, width: int = 120) -> ft.Control:
        return ui.tagged(
            f"opt-{key}",
            ft.TextField(
                value=self.fields.get(key, ""),
                label=label,
                width=width,
                on_change=lambda e: self.set_field(key, e.control.value),
                on_focus=self.other_field_focused,
            ),
        )
