"""One table on several devices: how a device gets in, and the share panel.

A device gets in by the QR code's join link, by typing the table code, or by
the admission a browser kept from an earlier visit in this run. Wrong tries
are counted against the address the server's socket saw (``screens.web``),
never ``page.client_ip``, which the device itself can rewrite.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.sharing import TableLock, Verdict, lan_address, qr_png, qr_text
from screens import ui
from screens.shell import App
from screens.web import peer_address

JOIN_PARAMETER = "join"
# Where a browser keeps its admission (a random token, never the code).
ADMISSION_KEY = "curse-companion.admission"
# Told to every device when someone's guessing starts a pause: the host's
# share panel redraws to say so.
ALARM_TOPIC = "table-alarm"
CLIENT_STORAGE_TIMEOUT_S = 10.0


def tell_terminal(line: str) -> None:
    print(f"warning: {line}", file=sys.stdout, flush=True)


@dataclass
class Sharing:
    """The served table's address, code and join token, set when the server starts."""

    address: str
    lock: TableLock = field(default_factory=lambda: TableLock(warn=tell_terminal))

    @classmethod
    def for_port(cls, port: int) -> Sharing:
        return cls(f"http://{lan_address()}:{port}")

    @property
    def join_link(self) -> str:
        """What the QR code carries: scanning it lets a phone in at once."""
        return f"{self.address}/?{JOIN_PARAMETER}={self.lock.join_token}"

    def announce(self) -> str:
        """What the host's terminal shows: the QR code, the address, the code."""
        return (
            f"{qr_text(self.join_link)}\n"
            f"Curse Companion on the local network: {self.address}\n"
            "Scan the QR code to join, or open the address and type the code.\n"
            f"Table code: {self.lock.code}\n"
        )


def join_token_in(route: str | None) -> str | None:
    """The join token in the page's address, if it came from the QR code."""
    query = urlsplit(route or "").query
    values = parse_qs(query, keep_blank_values=True).get(JOIN_PARAMETER)
    return values[0] if values else None


def welcome(app: App, sharing: Sharing) -> None:
    """On a new session: let the device in by its join link or kept admission."""
    address = peer_address()  # now, while the device's connection is current
    app.page.pubsub.subscribe_topic(ALARM_TOPIC, lambda *_: alarm_raised(app))
    app.page.run_task(arrive, app, sharing, address)


async def arrive(app: App, sharing: Sharing, address: str) -> None:
    lock = sharing.lock
    try:
        kept = await asyncio.wait_for(
            ft.SharedPreferences().get(ADMISSION_KEY), CLIENT_STORAGE_TIMEOUT_S
        )
    except (RuntimeError, TimeoutError):
        kept = None  # a browser without storage types the code
    join = join_token_in(app.page.route)
    if isinstance(kept, str) and lock.admits(kept):
        verdict = Verdict(True)
    elif join is not None:
        verdict = lock.try_join_token(address, join)
    else:
        return
    if join is not None:
        # The token leaves the address bar (and what the device shows).
        await app.page.push_route("/")
    with app.lock:
        settle(app, verdict, refused="share.link-refused")
    if verdict.admission:
        await keep_admission(app, verdict.admission)


async def keep_admission(app: App, admission: str) -> None:
    # Without it this browser is simply asked for the code again next time.
    with contextlib.suppress(RuntimeError, TimeoutError):
        await asyncio.wait_for(
            ft.SharedPreferences().set(ADMISSION_KEY, admission),
            CLIENT_STORAGE_TIMEOUT_S,
        )


def settle(app: App, verdict: Verdict, refused: str) -> None:
    """Open the table, or say why not (and when to try again)."""
    if app.unlocked:
        return
    if verdict.admitted:
        app.message = None
        app.open_table()
        return
    if verdict.wait_s > 0:
        app.fail(app.t("share.wait", seconds=int(verdict.wait_s + 0.99)))
        if verdict.counted:  # this miss started a pause
            app.page.pubsub.send_all_on_topic(ALARM_TOPIC, None)
    else:
        app.fail(app.t(refused))
    app.render()


def alarm_raised(app: App) -> None:
    """The host's share panel says at once that someone is guessing."""
    with app.lock:
        if app.unlocked and isinstance(app.screen, SharePage):
            app.render()


class CodeEntry:
    """Nothing of the table shows until this device gives the table code."""

    def __init__(self, app: App, sharing: Sharing, on_open: Callable[[], None]):
        self.app = app
        self.sharing = sharing
        self.on_open = on_open
        self.field = ft.TextField(
            label=app.t("share.code"),
            keyboard_type=ft.KeyboardType.NUMBER,
            max_length=8,
            autofocus=True,
            on_submit=lambda _: self.submit(),
            width=220,
        )

    def submit(self) -> None:
        # Run as the device's event, so the address is its connection's.
        verdict = self.sharing.lock.try_code(peer_address(), self.field.value or "")
        self.field.value = ""
        settle(self.app, verdict, refused="share.wrong")
        if verdict.admission:
            self.app.page.run_task(keep_admission, self.app, verdict.admission)

    def build(self) -> ft.Control:
        t = self.app.t
        parts: list[ft.Control] = [
            ui.heading(t("share.enter-title"), 22),
            ft.Text(t("share.enter-help")),
            ui.tagged("table-code", self.field),
            ui.tap(t("share.join"), self.submit, "join", primary=True, width=220),
        ]
        if self.app.message:
            parts.append(ui.note(self.app.message, "share-message", error=True))
        return ft.Column(parts, spacing=14)


def guessing_notes(app: App, lock: TableLock) -> list[ft.Control]:
    """What the host sees while wrong codes come in."""
    misses = lock.recent_misses()
    if not misses:
        return []
    notes = [ui.note(app.t("share.guessing", misses=misses), "share-alarm", error=True)]
    wait = lock.table_wait_s()
    if wait > 0:
        notes.append(ui.note(app.t("share.paused", seconds=int(wait + 0.99))))
    return notes


def share_panel(app: App, sharing: Sharing) -> ft.Control:
    """The join link as a QR code, with the table code for typing by hand."""
    return ui.panel(
        ui.heading(app.t("share.title"), 16),
        ft.Image(src=qr_png(sharing.join_link), width=180, height=180),
        ft.Text(app.t("share.scan")),
        ui.figure("share-address", sharing.address, selectable=True),
        ft.Row(
            [
                ft.Text(app.t("share.code") + ":"),
                ui.figure(
                    "share-code", sharing.lock.code, size=22, weight=ft.FontWeight.BOLD
                ),
            ]
        ),
        ui.figure("share-link", sharing.join_link, size=12),
        *guessing_notes(app, sharing.lock),
        identifier="share",
    )


class SharePage:
    """The join panel on a screen of its own, with the way back."""

    def __init__(self, app: App, sharing: Sharing) -> None:
        self.app = app
        self.sharing = sharing

    def build(self) -> ft.Control:
        return ft.Column(
            [
                share_panel(self.app, self.sharing),
                ui.tap(
                    self.app.t("share.back"),
                    self.app.back,
                    "share-back",
                    icon=ft.Icons.ARROW_BACK,
                ),
            ],
            spacing=12,
        )
