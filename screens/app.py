"""The table app: one App per browser session, one Store per process."""

from __future__ import annotations

import importlib.util
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
from screens.sharing import CodeEntry, SharePage, Sharing

T = TypeVar("T")
ASSETS = Path(__file__).resolve().parent / "assets"
# Served with the app: with no CDN the browser has no Japanese glyphs of its own.
JAPANESE_FONT = "IPAexGothic"


class Screen(Protocol):
    def build(self) -> ft.Control: ...


class App:
    """The state of one session: which screen is up, in which language and theme."""

    def __init__(
        self,
        page: ft.Page,
        store: Store,
        lock: threading.RLock,
        sharing: Sharing | None = None,
    ) -> None:
        self.page = page
        self.store = store
        self.lock = lock
        self.sharing = sharing
        # Shared on the network, a device sees nothing before it gives the code.
        self.unlocked = sharing is None
        self.lang: str = self.setting("lang", "en")
        if self.lang not in LANGUAGES:
            self.lang = "en"
        self.dark: bool = self.setting("theme", "light") == "dark"
        self.screen: Screen | None = None
        self.bar: tuple[tuple[Any, ...], Screen | None, ft.Control] | None = None
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
                before = self.store.generation
                result = action()
                wrote = self.store.generation != before
        except CompanionError as error:
            self.fail(error)
            return None
        if wrote:
            self.tell_others()
        return result

    # every device at the table

    def tell_others(self) -> None:
        """Other devices showing this table redraw from the store."""
        self.page.pubsub.send_others_on_topic(TABLE_TOPIC, self.store.generation)

    def follow_others(self) -> None:
        self.page.pubsub.subscribe_topic(TABLE_TOPIC, self.others_changed)

    def others_changed(self, _topic: str, _generation: object) -> None:
        if not self.unlocked or self.screen is None:
            return
        reload = getattr(self.screen, "reload", None)
        with self.lock:
            if callable(reload):
                reload()
            self.render()

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
        if not self.unlocked and self.sharing is not None:
            screen = CodeEntry(self, self.sharing, self.open_table)
        self.screen = screen
        self.render()

    def open_table(self) -> None:
        self.unlocked = True
        self.home()

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
                    [self.kept_top_bar(), body] if self.unlocked else [body],
                    spacing=8,
                    expand=True,
                    scroll=ft.ScrollMode.AUTO,
                ),
                expand=True,
            )
        ]
        self.page.update()

    def kept_top_bar(self) -> ft.Control:
        """The same bar while nothing it shows changes, so a redraw skips it."""
        inputs = (self.lang, self.dark, self.sharing is not None, self.page.width)
        if self.bar is None or self.bar[0] != inputs or self.bar[1] is not self.screen:
            self.bar = (inputs, self.screen, self.top_bar())
        return self.bar[2]

    def top_bar(self) -> ft.Control:
        other = "ja" if self.lang == "en" else "en"
        return ft.Row(
            [
                ui.tap(self.t("home"), self.home, "home", icon=ft.Icons.HOME),
                ft.Row(
                    [
                        *self.share_button(),
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

    def share_button(self) -> list[ft.Control]:
        if self.sharing is None or not self.unlocked:
            return []
        sharing, back = self.sharing, self.screen
        return [
            ui.icon_tap(
                ft.Icons.QR_CODE,
                self.t("share.show"),
                lambda: self.go(SharePage(self, sharing, back)),
                "share-open",
            )
        ]

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


TABLE_TOPIC = "table"
_store: Store | None = None
_lock = threading.RLock()
_sharing: Sharing | None = None


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
    app = App(page, store, _lock, _sharing)
    app.follow_others()

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
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    if lan:
        _sharing = Sharing.for_port(port)
        print(_sharing.announce(), flush=True)
    else:
        print(f"Curse Companion: http://{host}:{port}", flush=True)
    ft.run(
        main,
        host=host,
        port=port,
        view=ft.AppView.WEB_BROWSER,
        no_cdn=True,
        assets_dir=str(ASSETS),
    )
