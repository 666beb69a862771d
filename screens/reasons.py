"""Reasons on a game screen, each opening the rules entry it rests on, and the
way from a game screen to its game's rules."""

from __future__ import annotations

import flet as ft

from companion.games import SLUGS
from companion.games.base import Event, Reason
from companion.i18n import reason_text, ui_keys
from companion.replay import Replay
from companion.timeline import mark_of, ordinal
from screens import ui
from screens.shell import RULES, App


def rule_game(reason: Reason, current: str) -> str:
    """The game whose entry a reason rests on: its key's prefix, if a game's."""
    prefix = reason.key.split(".", 1)[0]
    return prefix if prefix in SLUGS else current


def reason_opener(app: App, reason: Reason, current: str) -> ui.Handler:
    """What tapping ``reason`` does, in a game of ``current``: its entry opens,
    and Back returns here."""
    game = rule_game(reason, current)
    return lambda: app.show(RULES, game=game, shown=(game, reason.topic), back=True)


def rules_opener(app: App, game: str | None, query: str = "") -> ui.Handler:
    """What a game screen's Rules button does: the search, kept to ``game``,
    with ``query`` typed; Back returns to the game where it was."""
    return lambda: app.show(RULES, game=game, query=query, back=True)


def moment(app: App, events: list[Event], number: int) -> str:
    """What event ``number`` of a log was, as the table calls it: a trick of a
    round, a round's start, the 2nd pile, the 3rd spell."""
    t, mark = app.t, mark_of(events, number)
    if mark.trick is not None:
        if mark.round:
            return t("history.line.trick", round=mark.round, trick=mark.trick)
        return t("table.trick-n", n=mark.trick)
    if mark.type == "round":
        return t("history.line.round", round=mark.round)
    key = f"moment.{mark.type}"
    if key not in ui_keys("en"):
        key = "moment.other"
    return t(key, n=ordinal(events, number))


def last_reasons(app: App, replay: Replay) -> list[ft.Control]:
    """The reasons panel for the game's last event, or nothing before the first."""
    if not replay.steps:
        return []
    step, lang, game = replay.steps[-1], app.lang, replay.log.game
    what = moment(app, replay.log.events, step.number)
    return [
        ui.reasons_panel(
            app.t("table.what-happened", what=what),
            [
                (reason_text(r, lang), reason_opener(app, r, game))
                for r in step.outcome.reasons
            ],
            [
                (reason_text(w, lang), reason_opener(app, w, game))
                for w in step.outcome.warnings
            ],
            phone=not app.wide,
        )
    ]
