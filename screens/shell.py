"""What a screen is, and the App every screen talks to.

Screens import this module, never each other: they move between screens by
naming a route (``app.show(TABLE, game_id=...)``); the table of routes to
screen factories is handed to the App by ``screens.app``, the one module that
knows every screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import flet as ft

from companion.errors import CompanionError, LogError
from companion.i18n import LANGUAGES, text
from companion.session import GameSession, Seen
from companion.storage import Repair
from companion.store import Store
from screens import ui
from screens.repairs import repair_notices

T = TypeVar("T")
ASSETS = Path(__file__).resolve().parent / "assets"
# Served with the app: with no CDN the browser has no Japanese glyphs of its own.
JAPANESE_FONT = "IPAexGothic"
TABLE_TOPIC = "table"
# Back goes this many screens deep at most; older ones are let go.
MAX_BACK = 20
# Seconds a device may take to say it has what was sent to it.
SHOWN_TIMEOUT = 5
# How often a device checks that its table is the stored one, whoever changed it.
KEEP_UP_SECONDS = 0.5
# A player reacts to a change on screen no sooner than a thumb's second tap
# (SETTLE_S), and a tap reaches the app up to TRIP_S after it landed: a tap
# that soon after a change from elsewhere was shown was aimed before it.
JUST_SHOWN_S = ui.SETTLE_S + ui.TRIP_S

# Routes: the screens one can go to, by name.
HOME = "home"
NEW_GAME = "new-game"
TABLE = "table"
HISTORY = "history"
GAME = "game"
STATS = "stats"
RULES = "rules"
SHARE = "share"
CODE_ENTRY = "code-entry"


class Screen(Protocol):
    def build(self) -> ft.Control: ...


# A route's factory: the App and the route's parameters give the screen.
Factory = Callable[..., Screen]


class App:
    """The state of one session: which screen is up, in which language and theme."""

    def __init__(
        self,
        page: ft.Page,
        store: Store,
        lock: threading.RLock,
        routes: dict[str, Factory],
        *,
        shared: bool = False,
    ) -> None:
        self.page = page
        self.store = store
        self.lock = lock
        self.routes = routes
        self.shared = shared
        # Shared on the network, a device sees nothing before it gives the code.
        self.unlocked = not shared
        self.lang: str = self.setting("lang", "en")
        if self.lang not in LANGUAGES:
            self.lang = "en"
        self.dark: bool = self.setting("theme", "light") == "dark"
        self.screen: Screen | None = None
        self.behind: list[Screen] = []
        self.bar: tuple[tuple[Any, ...], Screen | None, ft.Control] | None = None
        self.message: str | None = None
        self.awake = False
        self.themes: tuple[ft.Theme, ft.Theme] | None = None
        # Repair notices in the order shown, and those dismissed on this screen.
        self.repairs_shown: list[Repair] = []
        self.dismissed: list[Repair] = []
        self.closed = False

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
        self.page.on_close = lambda _: setattr(self, "closed", True)
        self.page.run_task(self.keep_up)

    async def keep_up(self) -> None:
        """Show the table as stored within a second of any change.

        Another device says when it changed something; this also catches a
        change made by another process, or a word from a device that got lost.
        """
        while not self.closed:
            await asyncio.sleep(KEEP_UP_SECONDS)
            outdated = getattr(self.screen, "outdated", None)
            if not self.unlocked or not callable(outdated):
                continue
            with self.lock:
                try:
                    behind = outdated()
                except CompanionError:
                    continue  # the game is gone: the next tap says so
                if behind:
                    with ui.drawn_from_elsewhere():
                        reload_if_it_can(self.screen)
                        self.render()

    async def others_changed(self, _topic: str, _generation: object) -> None:
        # A coroutine, so it runs on the event loop like every tap of this
        # device: a redraw for another device never runs beside a tap's.
        if not self.unlocked or self.screen is None:
            return
        with self.lock, ui.drawn_from_elsewhere():
            reload_if_it_can(self.screen)
            self.render()

    def stale(self, game_id: str, shown: Any) -> bool:
        """Whether the stored game moved on since the replay ``shown``."""
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

    def show(self, route: str, **params: Any) -> None:
        """Open the screen of ``route``; Back returns to the one showing now."""
        try:
            screen = self.routes[route](self, **params)
        except CompanionError as error:
            # The game could not be read: say so where the player is.
            self.fail(error)
            self.render()
            return
        if self.screen is not None:
            self.behind = [*self.behind, self.screen][-MAX_BACK:]
        self._put(screen)

    def back(self) -> None:
        """Return to the screen before this one (Home when there is none)."""
        if not self.behind:
            self.home()
            return
        screen = self.behind.pop()
        reload_if_it_can(screen)
        self._put(screen)

    def home(self) -> None:
        self.keep_awake(False)
        self.behind = []
        self._put(self.routes[HOME](self))

    def open_table(self) -> None:
        """This device gave the table code: the table opens."""
        self.unlocked = True
        self.home()

    def _put(self, screen: Screen) -> None:
        self.message = None
        self.dismissed = []
        if not self.unlocked:
            screen = self.routes[CODE_ENTRY](self)
        self.screen = screen
        self.render()

    def render(self) -> None:
        assert self.screen is not None
        self.page.theme_mode = ft.ThemeMode.DARK if self.dark else ft.ThemeMode.LIGHT
        # Roboto lacks arrows and ticks the reasons use; the served font has them.
        font = JAPANESE_FONT
        if self.themes is None:
            # Made once: a theme made anew is compared field by field on
            # every redraw, though it never changes.
            self.themes = (
                ui.theme(dark=False, font=font),
                ui.theme(dark=True, font=font),
            )
        self.page.theme, self.page.dark_theme = self.themes
        body = self.screen.build()
        # A stable key lets Flet diff the rebuilt tree against the one on
        # screen, so a tap sends a small patch and the controls keep their ids.
        self.page.controls = [
            ft.SafeArea(
                # A screen of its own opens scrolled to its top.
                key=f"root-{id(self.screen)}",
                content=ft.Column(
                    [self.kept_top_bar(), *self.repair_notices(), body]
                    if self.unlocked
                    else [body],
                    spacing=8,
                    expand=True,
                    scroll=ft.ScrollMode.AUTO,
                ),
                expand=True,
            )
        ]
        self.page.update()
        sent = getattr(self.screen, "sent_to_device", None)
        if callable(sent):
            sent()

    def repair_notices(self) -> list[ft.Control]:
        """What the store repaired, until the players dismiss it (all devices).

        One dismissed here keeps its place until the screen changes, in the
        order the notices were shown.
        """
        waiting = self.call(self.store.repairs) or []
        kept = [r for r in self.repairs_shown if r in waiting or r in self.dismissed]
        self.repairs_shown = kept + [r for r in waiting if r not in kept]
        return repair_notices(
            self.repairs_shown, self.dismissed, self.t, self.dismiss_repair
        )

    def dismiss_repair(self, repair: Repair) -> None:
        self.store.dismiss_repair(repair)
        self.dismissed.append(repair)
        self.tell_others()
        self.render()

    def kept_top_bar(self) -> ft.Control:
        """The same bar while nothing it shows changes, so a redraw skips it."""
        inputs = (self.lang, self.dark, self.shared, self.page.width)
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
        if not self.shared or not self.unlocked:
            return []
        return [
            ui.icon_tap(
                ft.Icons.QR_CODE,
                self.t("share.show"),
                lambda: self.show(SHARE),
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


def when_shown(page: ft.Page, then: Callable[[], None]) -> None:
    """Call ``then`` once the device has taken in everything sent to it so far.

    The device answers a question only after the updates sent before it, so
    its answer says that what was drawn is on its screen: a tap it sends
    after that was made looking at it.
    """

    async def arrived() -> None:
        with contextlib.suppress(Exception):  # a device gone: nothing to wait for
            await asyncio.wait_for(page.get_device_info(), SHOWN_TIMEOUT)
        then()

    page.run_task(arrived)


class SharedTable:
    """What a screen over a game's shared session knows of its own device.

    ``seen`` is the table's revision this device surely shows and ``drawn``
    the one last sent to it. A change from another device that reached this
    one moments before a tap may not have been seen by the player yet: for
    ``JUST_SHOWN_S`` after it, a tap is weighed against the table before it
    too (see :meth:`tapped_on`).
    """

    app: App
    session: GameSession
    seen: int
    drawn: int
    seen_before: int = 0
    seen_at: float = float("-inf")

    def sent_to_device(self) -> None:
        """The table was sent to the device: once it is there, taps rest on it."""
        drawn = self.drawn
        when_shown(self.app.page, lambda: self.saw(drawn))

    def saw(self, revision: int) -> None:
        if revision > self.seen:
            self.seen_before, self.seen_at = self.seen, time.monotonic()
            self.seen = revision

    def acted(self) -> None:
        """This device's own action is done: what it did, it has seen."""
        self.seen, self.seen_at = self.session.revision, float("-inf")

    def tapped_on(self) -> Seen:
        """The revision a tap now rests on; with the one before it when a
        change from elsewhere was shown so lately that the finger may have
        been on its way to the table before it."""
        if time.monotonic() - self.seen_at < JUST_SHOWN_S:
            return (self.seen_before, self.seen)
        return self.seen

    def outdated(self) -> bool:
        """Whether the table changed since it was last drawn here."""
        self.session.refresh()
        return self.session.revision != self.drawn


def reload_if_it_can(screen: Screen) -> None:
    """Bring a screen that shows stored data up to date with the store."""
    reload = getattr(screen, "reload", None)
    if callable(reload):
        reload()
