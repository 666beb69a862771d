"""The notice that a saved games file was replaced by its last good copy.

Shown under the top bar of every screen, so on home and at the table, until
the players dismiss it: what happened, when the copy now in use was saved and
what may need entering again. Dismissed on one device, it goes on all.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import flet as ft

from companion.storage import Repair
from companion.store import LIVE_FILE
from screens import ui

if TYPE_CHECKING:
    from screens.shell import App


def saved_at(stamp: str, now: datetime | None = None) -> str:
    """When the copy was saved, in this device's time: the hour, and the day
    when it was not today."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return ""
    today = (now or datetime.now().astimezone()).date()
    return moment.strftime("%H:%M" if moment.date() == today else "%Y-%m-%d %H:%M")


def repair_text(app: App, repair: Repair) -> str:
    games = "live" if repair.file == LIVE_FILE else "archive"
    saved = saved_at(repair.saved) or app.t("repair.last-save")
    return app.t(f"repair.{games}.{repair.problem}", saved=saved)


def repair_notices(app: App) -> list[ft.Control]:
    """One notice per repair the players have not dismissed yet."""
    repairs = app.call(app.store.repairs) or []
    return [
        notice(app, repair, "" if at == 0 else f"-{at + 1}")
        for at, repair in enumerate(repairs)
    ]


def notice(app: App, repair: Repair, suffix: str) -> ft.Control:
    def dismiss() -> None:
        app.store.dismiss_repair(repair)
        app.tell_others()
        app.render()

    return ui.panel(
        ui.heading(app.t("repair.title"), 16),
        ui.note(repair_text(app, repair), f"repair-notice{suffix}", error=True),
        ui.tap(
            app.t("repair.dismiss"),
            dismiss,
            f"repair-dismiss{suffix}",
            icon=ft.Icons.CHECK,
        ),
        highlight=True,
    )
