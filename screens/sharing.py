"""One table on several devices: the code a device must give, and the share panel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from companion.sharing import TableLock, lan_address, qr_png, qr_text
from screens import ui
from screens.shell import App


@dataclass
class Sharing:
    """The served table's address and code, set once when the server starts."""

    address: str
    lock: TableLock = field(default_factory=TableLock)

    @classmethod
    def for_port(cls, port: int) -> Sharing:
        return cls(f"http://{lan_address()}:{port}")

    def announce(self) -> str:
        """What the host's terminal shows: the QR code, the address, the code."""
        return (
            f"{qr_text(self.address)}\n"
            f"Curse Companion on the local network: {self.address}\n"
            f"Table code: {self.lock.code}\n"
        )


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

    @property
    def device(self) -> str:
        return self.app.page.client_ip or self.app.page.session_id or "device"

    def submit(self) -> None:
        lock = self.sharing.lock
        if lock.try_code(self.device, self.field.value or ""):
            self.app.message = None
            self.on_open()
            return
        wait = lock.wait_s(self.device)
        if wait > 0:
            self.app.fail(self.app.t("share.wait", seconds=int(wait + 0.99)))
        else:
            self.app.fail(self.app.t("share.wrong"))
        self.field.value = ""
        self.app.render()

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


def share_panel(app: App, sharing: Sharing) -> ft.Control:
    """The address as a QR code with the table code, for others to join."""
    return ui.panel(
        ui.heading(app.t("share.title"), 16),
        ft.Image(src=qr_png(sharing.address), width=180, height=180),
        ui.figure("share-address", sharing.address, selectable=True),
        ft.Row(
            [
                ft.Text(app.t("share.code") + ":"),
                ui.figure(
                    "share-code", sharing.lock.code, size=22, weight=ft.FontWeight.BOLD
                ),
            ]
        ),
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
