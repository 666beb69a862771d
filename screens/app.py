"""The table app: one App per browser session, one Store per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import flet as ft

from companion.errors import CompanionError, LogError
from companion.i18n import LANGUAGES, text
from companion.paths import data_dir
from companion.replay import Replay
from companion.store import Store
from screens import ui

T = TypeVar("T")
ASSETS = Path(__file__).resolve().parent / "assets"
# Served with the app: with no CDN the browser has no Japanese glyphs of its own.
JAPANESE_FONT = "IPAexGothic"


class Screen(Protocol):
    def build(self) -> ft.Control: ...


class App:
    """The state of one session: which screen is up, in which language and theme."""

    def __init__(self, page: ft.Page, store: Store, lock: threading.RLock) -> None:
        self.page = page
        self.store = store
        self.lock = lock
        self.lang: str = self.setting("lang", "en")
        if self.lang not in LANGUAGES:
            self.lang = "en"
        self.dark: bool = self.setting("theme", "light") == "dark"
        self.screen: Screen | None = None
        self.message: str | None = None
        self.awake = False

    # words and settings

    def t(self, key: str, **params: object) -> str:
        return text(key, self.lang, **params)

    def setting(self, key: str, default: Any) -> Any:
        try:
            with self.lock:
                return self.store.get_setting(key, default)
        except CompanionError:
            return default

    def call(self, action: Callable[[], T]) -> T | None:
        """Run a store action; on a refusal show its message and return None."""
        try:
            with self.lock:
                result = action()
        except CompanionError as error:
            self.fail(error)
            return None
        return result

    def stale(self, game_id: str, shown: Replay) -> bool:
        """Whether the stored game moved on since ``shown`` (another screen)."""
        with self.lock:
            return self.store.load(game_id).log.events != shown.log.events

    def fail(self, error: CompanionError | str) -> None:
        if isinstance(error, LogError) and not error.event:
            # The header (event 0) is the form the players just filled in.
            self.message = error.message
        else:
            self.message = str(error)

    @property
    def wide(self) -> bool:
        return (self.page.width or 0) >= ui.WIDE

    # navigation

    def go(self, screen: Screen) -> None:
        self.message = None
        self.screen = screen
        self.render()

    def home(self) -> None:
        from screens.home import Home

        self.keep_awake(False)
        self.go(Home(self))

    def render(self) -> None:
        assert self.screen is not None
        self.page.theme_mode = ft.ThemeMode.DARK if self.dark else ft.ThemeMode.LIGHT
        # Roboto lacks arrows and ticks the reasons use; the served font has them.
        font = JAPANESE_FONT
        self.page.theme = ft.Theme(
            color_scheme_seed=ft.Colors.DEEP_PURPLE, font_family=font
        )
        self.page.dark_theme = ft.Theme(
            color_scheme_seed=ft.Colors.DEEP_PURPLE, font_family=font
        )
        body = self.screen.build()
        # A stable key lets Flet diff the rebuilt tree against the one on
        # screen, so a tap sends a small patch and the controls keep their ids.
        self.page.controls = [
            ft.SafeArea(
                key="root",
                content=ft.Column(
                    [self.top_bar(), body],
                    spacing=8,
                    expand=True,
                    scroll=ft.ScrollMode.AUTO,
                ),
                expand=True,
            )
        ]
        self.page.update()

    def top_bar(self) -> ft.Control:
        other = "ja" if self.lang == "en" else "en"
        return ft.Row(
            [
                ui.tap(self.t("home"), self.home, "home", icon=ft.Icons.HOME),
                ft.Row(
                    [
                        ui.tap(
                            ft.Text(self.t(f"lang.{other}"), font_family=JAPANESE_FONT),
                            self.switch_language,
                            "lang",
                        ),
                        ui.tap(
                            self.t("theme.light" if self.dark else "theme.dark"),
                            self.switch_theme,
                            "theme",
                            icon=ft.Icons.LIGHT_MODE
                            if self.dark
                            else ft.Icons.DARK_MODE,
                        ),
                    ],
                    spacing=6,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )

    def switch_language(self) -> None:
        self.lang = "ja" if self.lang == "en" else "en"
        self.call(lambda: self.store.set_setting("lang", self.lang))
        self.render()

    def switch_theme(self) -> None:
        self.dark = not self.dark
        self.call(
            lambda: self.store.set_setting("theme", "dark" if self.dark else "light")
        )
        self.render()

    def keep_awake(self, on: bool) -> None:
        """Keep the screen lit during a game where the platform lets us."""
        if on == self.awake or self.page.web:
            # Browsers only grant a wake lock on a user gesture, and the plugin
            # has no web side; the table's own screen settings apply there.
            return
        self.awake = on
        lock = ft.Wakelock()

        async def switch() -> None:
            try:
                await (lock.enable() if on else lock.disable())
            except Exception:  # noqa: BLE001 - a missing plugin must not stop play
                self.awake = False

        self.page.run_task(switch)


_store: Store | None = None
_lock = threading.RLock()


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
    app = App(page, shared_store(), _lock)

    def resized(_: ft.PageResizeEvent) -> None:
        if app.screen is not None:
            app.render()

    page.on_resize = resized
    app.home()


def serve(
    host: str = "127.0.0.1",
    port: int = 8550,
    data: str | None = None,
    desktop: bool = False,
) -> None:
    if data:
        os.environ["COMPANION_DATA"] = data
    if desktop:
        ft.run(main, assets_dir=str(ASSETS))
        return
    # The app is served, never opened: the phone beside the table connects.
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    print(f"Curse Companion: http://{host}:{port}", flush=True)
    ft.run(
        main,
        host=host,
        port=port,
        view=ft.AppView.WEB_BROWSER,
        no_cdn=True,
        assets_dir=str(ASSETS),
    )
