"""The table app: the routes to every screen, one App per browser session.

This is the whole app as the phone build runs it in the page; the served
table (``screens.served``) adds the sharing screens and the web server.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping
from typing import Any

import flet as ft

from companion.errors import CompanionError
from companion.games import describe
from companion.i18n import LANGUAGES, text
from companion.paths import data_dir, games_open_elsewhere
from companion.store import Store
from screens import ui
from screens.cursed import CursedTable
from screens.history_list import History
from screens.home import Home
from screens.new_game import NewGame
from screens.rules import Rules
from screens.shell import (
    ASSETS,
    GAME,
    HISTORY,
    HOME,
    JAPANESE_FONT,
    NEW_GAME,
    RULES,
    STATS,
    TABLE,
    App,
    Factory,
    Screen,
)
from screens.statistics import Stats
from screens.table import TrickTable

__all__ = ["ASSETS", "main", "start"]

_store: Store | None = None
_lock = threading.RLock()


def table(
    app: App, game_id: str, *, leader: str | None = None, piles: bool = False
) -> Screen:
    """The table for a stored game: CURSED!'s own, or the trick table."""
    with app.lock:
        game = app.store.load(game_id).log.game
    app.keep_awake(True)
    if describe(game).has_tricks:
        return TrickTable(app, game_id, leader=leader, piles=piles)
    return CursedTable(app, game_id)


def loaded_when_shown(module: str, name: str) -> Factory:
    """A screen whose module is imported the first time it is shown.

    Its charts' package takes seconds to import in the phone build's page,
    seconds the first screen would otherwise wait for.
    """

    def screen(app: App, **params: Any) -> Screen:
        factory: Factory = getattr(importlib.import_module(module), name)
        return factory(app, **params)

    return screen


def routes(extra: Mapping[str, Factory] | None = None) -> dict[str, Factory]:
    """Every screen by route, with those only a served table has (``extra``)."""
    found: dict[str, Factory] = {
        HOME: Home,
        NEW_GAME: NewGame,
        TABLE: table,
        HISTORY: History,
        GAME: loaded_when_shown("screens.game_detail", "GameDetail"),
        STATS: Stats,
        RULES: Rules,
    }
    found.update(extra or {})
    return found


def shared_store() -> Store:
    global _store
    with _lock:
        if _store is None:
            folder = data_dir()
            folder.mkdir(parents=True, exist_ok=True)
            _store = Store(folder)
        return _store


def start(
    page: ft.Page, extra: Mapping[str, Factory] | None = None, *, shared: bool = False
) -> App | None:
    """The app on a new page, at home; None when the games cannot be opened."""
    page.title = "Curse Companion"
    page.padding = 8
    page.fonts = {JAPANESE_FONT: "/fonts/ipaexg.ttf"}
    try:
        store = shared_store()
    except (CompanionError, OSError) as error:
        # The store's own words: what happened, what was kept aside, what to do.
        page.add(ui.note(str(error), "store-error", error=True))
        return None
    app = App(page, store, _lock, routes(extra), shared=shared)
    app.follow_others()

    def resized(_: ft.PageResizeEvent) -> None:
        if app.screen is not None:
            app.render()

    page.on_resize = resized
    app.home()
    return app


def main(page: ft.Page) -> None:
    if games_open_elsewhere():
        # Another tab owns the games: this one neither reads nor writes them.
        page.title = "Curse Companion"
        page.add(
            *(
                ui.note(text("app.open-elsewhere", lang), f"open-elsewhere-{lang}")
                for lang in LANGUAGES
            )
        )
        return
    start(page)
