"""The new-game form: game, players in seating order, start player, editions."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import flet as ft

from companion.errors import CompanionError, FormatError
from companion.games import SLUGS
from companion.log import GameLog
from companion.replay import start
from screens import ui
from screens.shell import TABLE, App

EDITIONS = Path(__file__).resolve().parent.parent / "data" / "editions.json"
RANDOM = "\x00random"  # never a valid name, so it cannot clash with a player
TRICK_GAMES_WITH_LEADER_ONLY = ("cursed-tricks", "trick-runaway", "wolf-x-trick")
RUNAWAY_NUMBERS = ("life", "black_life")
RUNAWAY_TRACKS = ("escape_track", "damage_track")
CURSE_CARDS = tuple(f"C{n}" for n in range(1, 7))
FIXED_CARDS = tuple(f"F{n}" for n in range(1, 7))


def editions() -> dict[str, Any]:
    return json.loads(EDITIONS.read_text(encoding="utf-8"))


def numbers(value: str) -> list[int]:
    """A track typed as "0, -2, -3" (spaces or commas between numbers)."""
    return [int(part) for part in value.replace(",", " ").split()]


class NewGame:
    def __init__(self, app: App) -> None:
        self.app = app
        self.game = "cursed-tricks"
        self.players: list[str] = []
        self.typed = ""
        self.starter: str | None = RANDOM
        self.piles = False  # Wolf x Trick: count the piles at the end instead
        self.fields: dict[str, str] = {}
        self.deck = "original"
        self.removed: str | None = None
        self.moons: set[int] = set()
        self.two_oclock = "F2"
        self.load_edition()

    # the edition numbers, remembered per game (per player count for Runaway)

    def remembered(self) -> dict[str, Any]:
        found = self.app.call(lambda: self.app.store.table_options(self.game))
        return dict(found or {})

    def runaway_count(self) -> str:
        return "5" if len(self.players) == 5 else "4"

    def load_edition(self) -> None:
        base = editions().get(self.game, {})
        mine = self.remembered()
        self.confirmed = bool(mine)
        if self.game == "trick-runaway":
            count = self.runaway_count()
            chosen = {**base[count], **mine.get(count, {})}
            self.fields = {k: str(chosen[k]) for k in RUNAWAY_NUMBERS}
            self.fields.update(
                {k: ", ".join(str(n) for n in chosen[k]) for k in RUNAWAY_TRACKS}
            )
        elif self.game == "wolf-x-trick":
            self.moons = set(mine.get("full_moon_ranks", base["full_moon_ranks"]))
        elif self.game == "black-hearts":
            self.two_oclock = mine.get("two_oclock", base["two_oclock"])
            points = {**base["curse_points"], **mine.get("curse_points", {})}
            self.fields = {card: str(points.get(card, 0)) for card in CURSE_CARDS}

    def edition_options(self) -> dict[str, Any]:
        """The options as typed; raises FormatError on a number that is not one."""
        try:
            if self.game == "trick-runaway":
                found: dict[str, Any] = {
                    k: int(self.fields[k]) for k in RUNAWAY_NUMBERS
                }
                found.update({k: numbers(self.fields[k]) for k in RUNAWAY_TRACKS})
                return found
            if self.game == "black-hearts":
                points = {card: int(self.fields[card]) for card in CURSE_CARDS}
                return {"two_oclock": self.two_oclock, "curse_points": points}
        except ValueError:
            raise FormatError(self.app.t("new.not-a-number")) from None
        if self.game == "wolf-x-trick":
            return {"full_moon_ranks": sorted(self.moons)}
        return {}

    def options(self) -> dict[str, Any]:
        found = self.edition_options()
        if self.game == "cursed-tricks":
            found["deck"] = self.deck
            if self.removed and len(self.players) == 3:
                found["removed_suit"] = self.removed
        return found

    def remember(self, edition: dict[str, Any]) -> None:
        if not edition:
            return
        if self.game == "trick-runaway":
            kept = self.remembered()
            kept[self.runaway_count()] = edition
            edition = kept
        self.app.store.remember_options(self.game, edition)

    # actions

    def refresh(self) -> None:
        self.app.render()

    def pick_game(self, slug: str) -> None:
        self.game = slug
        self.load_edition()
        self.refresh()

    def add(self, name: str | None = None) -> None:
        name = (self.typed if name is None else name).strip()
        if not name:
            self.app.fail(self.app.t("new.empty-name"))
        else:
            self.players.append(name)
            self.typed = ""
            self.app.message = None
            if self.game == "trick-runaway":
                self.load_edition()
        self.refresh()

    def move(self, at: int, step: int) -> None:
        to = at + step
        if 0 <= to < len(self.players):
            self.players[at], self.players[to] = self.players[to], self.players[at]
        self.refresh()

    def remove(self, at: int) -> None:
        name = self.players.pop(at)
        if self.starter == name:
            self.starter = RANDOM
        if self.game == "trick-runaway":
            self.load_edition()
        self.refresh()

    def choose_starter(self, name: str) -> None:
        self.starter = name
        self.refresh()

    def set_field(self, key: str, value: str) -> None:
        self.fields[key] = value

    def toggle_moon(self, number: int) -> None:
        self.moons ^= {number}
        self.refresh()

    def set_attr(self, name: str, value: object) -> None:
        setattr(self, name, value)
        self.refresh()

    def begin(self) -> None:
        app = self.app
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
            if self.game in TRICK_GAMES_WITH_LEADER_ONLY and not (
                self.game == "wolf-x-trick" and self.piles
            ):
                app.store.append(game_id, {"type": "round", "leader": leader})
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
        if self.game != "cursed":
            parts += self.starter_part()
        parts += self.options_part()
        if self.app.message:
            parts.append(ui.note(self.app.message, "error", error=True))
        parts.append(
            ui.tap(t("new.start"), self.begin, "start-game", primary=True, width=240)
        )
        return ft.Column(parts, spacing=10)

    def players_part(self) -> list[ft.Control]:
        t = self.app.t
        rows: list[ft.Control] = [ui.heading(t("new.players"), 16)]
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
        field = ui.tagged(
            "name-field",
            ft.TextField(
                value=self.typed,
                label=t("new.name"),
                on_change=lambda e: setattr(self, "typed", e.control.value),
                on_submit=lambda _: self.add(),
                width=200,
            ),
        )
        rows.append(
            ft.Row([field, ui.tap(t("new.add"), self.add, "add-player")], spacing=6)
        )
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
        return rows

    def starter_part(self) -> list[ft.Control]:
        t = self.app.t
        buttons = [
            ui.tap(
                t("new.random"),
                lambda: self.choose_starter(RANDOM),
                "start-random",
                primary=self.starter == RANDOM,
            )
        ]
        buttons += ui.choices(
            [(name, name) for name in dict.fromkeys(self.players)],
            self.choose_starter,
            "start",
            lambda name: name == self.starter,
        )
        return [ui.heading(t("new.starter"), 16), ui.wrap(buttons)]

    def options_part(self) -> list[ft.Control]:
        t = self.app.t
        game = self.game
        rows: list[ft.Control] = []
        if game == "cursed-tricks":
            rows.append(
                ui.wrap(
                    [
                        ui.tap(
                            t(f"deck.{deck}"),
                            lambda deck=deck: self.set_attr("deck", deck),
                            f"deck-{deck}",
                            primary=self.deck == deck,
                        )
                        for deck in ("original", "standard")
                    ]
                )
            )
            if len(self.players) == 3:
                suits = "PGRY" if self.deck == "original" else "SHDC"
                rows.append(ft.Text(t("new.removed-suit")))
                rows.append(
                    ui.wrap(
                        [
                            ui.tap(
                                suit,
                                lambda suit=suit: self.set_attr("removed", suit),
                                f"removed-{suit}",
                                primary=(self.removed or suits[-1]) == suit,
                            )
                            for suit in suits
                        ]
                    )
                )
        elif game == "trick-runaway":
            rows.append(ft.Text(t("new.runaway-edition", count=self.runaway_count())))
            rows.append(
                ui.wrap(
                    [self.number_field(k, t(f"opt.{k}")) for k in RUNAWAY_NUMBERS]
                    + [self.number_field(k, t(f"opt.{k}"), 200) for k in RUNAWAY_TRACKS]
                )
            )
        elif game == "wolf-x-trick":
            rows.append(ft.Text(t("new.full-moons")))
            rows.append(
                ui.wrap(
                    [
                        ui.tap(
                            str(n),
                            lambda n=n: self.toggle_moon(n),
                            f"moon-{n}",
                            primary=n in self.moons,
                        )
                        for n in range(1, 12)
                    ]
                )
            )
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
        elif game == "black-hearts":
            rows.append(ft.Text(t("new.two-oclock")))
            rows.append(
                ui.wrap(
                    [
                        ui.tap(
                            card,
                            lambda card=card: self.set_attr("two_oclock", card),
                            f"two-{card}",
                            primary=self.two_oclock == card,
                        )
                        for card in FIXED_CARDS
                    ]
                )
            )
            rows.append(ft.Text(t("new.curse-points")))
            rows.append(ui.wrap([self.number_field(c, c, 80) for c in CURSE_CARDS]))
        if not rows:
            return []
        head: list[ft.Control] = [ui.heading(t("new.options"), 16)]
        if game in ("trick-runaway", "wolf-x-trick", "black-hearts"):
            head.append(
                ft.Text(
                    t("new.remembered" if self.confirmed else "new.confirm-once"),
                    size=12,
                    italic=True,
                )
            )
        return head + rows

    def number_field(self, key: str, label: str, width: int = 120) -> ft.Control:
        return ui.tagged(
            f"opt-{key}",
            ft.TextField(
                value=self.fields.get(key, ""),
                label=label,
                width=width,
                on_change=lambda e: self.set_field(key, e.control.value),
            ),
        )
