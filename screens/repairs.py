"""The notice that a saved games file was replaced by its last good copy.

The shell shows one under the top bar of every screen, so on home and at the
table, until the players dismiss it: what happened, when the copy now in use
was saved and what may need entering again. A notice dismissed stays where it
was, inert, until the screen changes: nothing moves under the finger that
dismissed it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import flet as ft

from companion.storage import Repair
from companion.store import LIVE_FILE
from screens import ui

Translate = Callable[..., str]


def saved_at(stamp: str, now: datetime | None = None) -> str:
    """When the copy was saved, in this device's time: the hour, and the day
    when it was not today."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return ""
    today = (now or datetime.now().astimezone()).date()
    return moment.strftime("%H:%M" if moment.date() == today else "%Y-%m-%d %H:%M")


def repair_text(repair: Repair, t: Translate) -> str:
    games = "live" if repair.file == LIVE_FILE else "archive"
    saved = saved_at(repair.saved) or t("repair.last-save")
    return t(f"repair.{games}.{repair.problem}", saved=saved)


def repair_notices(
    repairs: list[Repair],
    dismissed: list[Repair],
    t: Translate,
    dismiss: Callable[[Repair], None],
) -> list[ft.Control]:
    """One notice per repair in ``repairs``; those in ``dismissed`` inert."""
    return [
        notice(repair, t, dismiss, "" if at == 0 else f"-{at + 1}", repair in dismissed)
        for at, repair in enumerate(repairs)
    ]


def notice(
    repair: Repair,
    t: Translate,
    dismiss: Callable[[Repair], None],
    suffix: str,
    done: bool,
) -> ft.Control:
    answer = (
        # As tall as the button it replaces.
        ui.tagged(
            f"repair-noted{suffix}",
            ft.Container(
                content=ft.Row([ft.Icon(ft.Icons.CHECK), ft.Text(t("repair.noted"))]),
                height=ui.TOUCH,
            ),
        )
        if done
        else ui.tap(
            t("repair.dismiss"),
            lambda: dismiss(repair),
            f"repair-dismiss{suffix}",
            icon=ft.Icons.CHECK,
        )
    )
    return ui.panel(
        ui.heading(t("repair.title"), 16),
        ui.note(repair_text(repair, t), f"repair-notice{suffix}", error=True),
        answer,
        highlight=True,
    )
