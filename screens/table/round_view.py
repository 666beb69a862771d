"""A round from its start to its end: the questions that start it, its tricks
so far with who took each, and the results when a round or the game is over."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.errors import CompanionError
from companion.games.base import (
    GIFT,
    LEADER_BY_RULE,
    MANY_ROUNDS,
    REVERSED,
    TWO_OCLOCK_HOLDER,
    Event,
    GameSpec,
)
from companion.i18n import reason_text
from companion.replay import Replay, replay
from companion.timeline import marks, round_start
from screens import ui
from screens.figures import shown

Translate = Callable[..., str]
# The reasons that say what a trick did to whom when no one single player takes
# it (a curse for the highest card, damage for the lowest).
TRICK_EFFECTS = frozenset({"cursed", "damaged"})


@dataclass
class RoundQuestions:
    """What the table answered so far for the round about to start."""

    gift: str = ""
    reversed: bool = False


def round_number(spec: GameSpec, current: Replay) -> int | None:
    """The round in play: only once its round event is in, never before."""
    if spec.rounds != MANY_ROUNDS:
        return None
    events = current.log.events
    if "trick" not in current.prompt().expects:
        return None
    return sum(1 for event in events if event.get("type") == "round") or None


def round_labels(spec: GameSpec, current: Replay, t: Translate) -> list[ft.Control]:
    """Round N, and what its round event says (Gift text, reversed strength)."""
    number = round_number(spec, current)
    if number is None:
        return []
    labels: list[ft.Control] = [
        ft.Text(t("table.round", n=number), size=12, key="round-label")
    ]
    events = current.log.events
    start = round_start(events)
    event = events[start - 1] if start else {}
    if REVERSED in spec.round_asks and event.get("reversed"):
        labels.append(ui.note(t("round.reversed"), "round-reversed"))
    if GIFT in spec.round_asks and event.get("gift"):
        labels.append(ui.note(t("round.gift-is", text=event["gift"]), "round-gift"))
    return labels


def leader_by_rule(current: Replay) -> str | None:
    """Who the rules name to lead the next round, if they name anyone."""
    log = current.log
    try:
        after = replay(log.with_events([*log.events, {"type": "round"}]))
    except CompanionError:
        return None
    seats = after.prompt().seats
    return seats[0] if seats else None


def round_start_questions(
    spec: GameSpec,
    current: Replay,
    answers: RoundQuestions,
    *,
    suggested: str | None,
    t: Translate,
    start: Callable[[str | None], None],
    redraw: Callable[[], None],
) -> list[ft.Control]:
    """The questions a round starts with; the leader's button starts it."""
    summary = current.summary()
    first_round = not any(e.get("type") == "round" for e in current.log.events)
    parts: list[ft.Control] = []
    if GIFT in spec.round_asks:
        parts.append(
            ui.tagged(
                "gift",
                ft.TextField(
                    value=answers.gift,
                    label=t("round.gift"),
                    on_change=lambda e: setattr(answers, "gift", e.control.value),
                ),
            )
        )
    if REVERSED in spec.round_asks:

        def strength(value: bool) -> None:
            answers.reversed = value
            redraw()

        parts.append(
            ui.wrap(
                [
                    ui.tap(
                        t("round.normal"),
                        lambda: strength(False),
                        "normal",
                        primary=not answers.reversed,
                    ),
                    ui.tap(
                        t("round.reversed"),
                        lambda: strength(True),
                        "reversed",
                        primary=answers.reversed,
                    ),
                ]
            )
        )
    players = list(current.log.players)
    holder = TWO_OCLOCK_HOLDER in spec.round_asks
    if holder and first_round and suggested in players:
        # The new-game form asked who holds Two o'clock: that player leads.
        parts.append(
            ui.tap(
                t("round.start-holder", name=suggested),
                lambda: start(suggested),
                f"leader-{suggested}",
                primary=True,
            )
        )
        return parts
    parts.append(ui.heading(t("round.who-leads"), 16))
    if holder:
        parts.append(ft.Text(t("round.two-oclock-holder"), size=12))
    buttons: list[ft.Control] = []
    ruled = leader_by_rule(current) if LEADER_BY_RULE in spec.round_asks else None
    if ruled is not None and summary["rounds"]:
        buttons.append(
            ui.tap(
                t("round.by-rule-named", name=ruled),
                lambda: start(None),
                "leader-rule",
                primary=True,
            )
        )
    buttons += ui.choices(
        [(name, name) for name in players], start, "leader", lambda _: False
    )
    parts.append(ui.wrap(buttons))
    return parts


def round_event(spec: GameSpec, leader: str | None, answers: RoundQuestions) -> Event:
    event: Event = {"type": "round"}
    if leader is not None:
        event["leader"] = leader
    if GIFT in spec.round_asks:
        event["gift"] = answers.gift.strip() or None
    if REVERSED in spec.round_asks:
        event["reversed"] = answers.reversed
    return event


def trick_list(
    current: Replay,
    *,
    lang: str,
    t: Translate,
    edit: Callable[[int], None],
    labels: Callable[[Sequence[str]], str],
) -> ft.Control:
    """The round's tricks (and piles), counted by trick, each with who took it."""
    events = current.log.events
    first = round_start(events)
    outcomes = {step.number: step.outcome for step in current.steps}
    rows: list[ft.Control] = []
    piles = 0
    for mark in marks(events, current.steps):
        if mark.number <= first or mark.type not in ("trick", "pile"):
            continue
        event = events[mark.number - 1]
        if mark.type == "pile":
            piles += 1
            title = t("table.pile-n", n=piles)
            line = shown([event.get("player"), event.get("full"), event.get("super")])
        else:
            title = t("table.trick-n", n=mark.trick)
            line = labels(event.get("cards", []))
            took = trick_effects(outcomes.get(mark.number), mark.winner, lang, t)
            if took:
                line = f"{line} — {took}"
        rows.append(
            ft.Row(
                [
                    # a title never breaks inside a word (第1トリック)
                    ft.Text(title, size=12, weight=ft.FontWeight.BOLD, no_wrap=True),
                    ft.Text(line, expand=True, size=13),
                    ui.tap(
                        t("table.edit"),
                        lambda n=mark.number: edit(n),
                        f"edit-{mark.number}",
                        icon=ft.Icons.EDIT,
                    ),
                ],
                spacing=6,
                key=f"trick-{mark.number}",
            )
        )
    if rows:
        rows.insert(0, ft.Text(t("table.this-round"), size=12))
    return ft.Column(rows, spacing=4, key="history")


def trick_effects(outcome: Any, winner: str | None, lang: str, t: Translate) -> str:
    if winner is not None:
        return t("table.took", name=winner)
    if outcome is None:
        return ""
    said = [
        reason_text(reason, lang)
        for reason in outcome.reasons
        if reason.key.split(".", 1)[-1] in TRICK_EFFECTS
    ]
    return "; ".join(said)
