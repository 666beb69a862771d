"""The table app: the routes to every screen, one App per browser session."""

from __future__ import annotations

import importlib.util
import os
import threading

import flet as ft

from companion.errors import CompanionError
from companion.games import describe
from companion.paths import data_dir
from companion.store import Store
from screens import ui
from screens.cursed import CursedTable
from screens.game_detail import GameDetail
from screens.history_list import History
from screens.home import Home
from screens.new_game import NewGame
from screens.rules import Rules
from screens.sharing import CodeEntry, SharePage, Sharing, welcome
from screens.shell import (
    ASSETS,
    CODE_ENTRY,
    GAME,
    HISTORY,
    HOME,
    JAPANESE_FONT,
    NEW_GAME,
    RULES,
    SHARE,
    STATS,
    TABLE,
    App,
    Factory,
    Screen,
)
from screens.statistics import Stats
from screens.table import TrickTable
from screens.web import serve_web

__all__ = ["ASSETS", "main", "serve"]

_store: Store | None = None
_lock = threading.RLock()
_sharing: Sharing | None = None


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


def routes(sharing: Sharing | None) -> dict[str, Factory]:
    """Every screen by route; the sharing screens exist only on a shared table."""
    found: dict[str, Factory] = {
        HOME: Home,
        NEW_GAME: NewGame,
        TABLE: table,
        HISTORY: History,
        GAME: GameDetail,
        STATS: Stats,
        RULES: Rules,
    }
    if sharing is not None:

        def share(app: App) -> Screen:
            return SharePage(app, sharing)

        def code_entry(app: App) -> Screen:
            return CodeEntry(app, sharing, app.open_table)

        found[SHARE] = share
        found[CODE_ENTRY] = code_entry
    return found


def shared_store() -> Store:
    global _store
    with _lock:
        if _store is None:
            folder = data_dir()
            folder.mkdir(parents=True, exist_ok=True)
            _store = Store(folder)
        return _store


def main(page: ft.Page) -> None:
    page.title = "Curse Companion"
    page.padding = 8
    page.fonts = {JAPANESE_FONT: "/fonts/ipaexg.ttf"}
    try:
        store = shared_store()
    except (CompanionError, OSError) as error:
        # The store's own words: what happened, what was kept aside, what to do.
        page.add(ui.note(str(error), "store-error", error=True))
        return
    app = App(page, store, _lock, routes(_sharing), shared=_sharing is not None)
    app.follow_others()

    def resized(_: ft.PageResizeEvent) -> None:
        if app.screen is not None:
            app.render()

    page.on_resize = resized
    app.home()
    if _sharing is not None:
        welcome(app, _sharing)


def serve(
    host: str = "127.0.0.1",
    port: int = 8550,
    data: str | None = None,
    desktop: bool = False,
    lan: bool = False,
) -> None:
    global _sharing
    if data:
        os.environ["COMPANION_DATA"] = data
    if desktop:
        # Left to itself Flet would pip-install its desktop client on the spot.
        if importlib.util.find_spec("flet_desktop") is None:
            raise SystemExit(
                "The desktop window needs the Flet desktop client: "
                'pip install -e ".[desktop]". Or run `companion` and open the '
                "address it prints in a browser."
            )
        ft.run(main, assets_dir=str(ASSETS))
        return
    # The app is served, never opened: the phone beside the table connects.
    if lan:
        _sharing = Sharing.for_port(port)
        print(_sharing.announce(), flush=True)
    else:
        print(f"Curse Companion: http://{host}:{port}", flush=True)
    serve_web(main, host, port, str(ASSETS))
