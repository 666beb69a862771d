"""Piles counted at the end: whose pile, how many Full Moons, then add it.

A pile is one trick, so it holds one card a player: the counters never go
past that, and a pile the rules refuse keeps its counts for a correction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from companion.games.base import Event, Prompt
from screens import ui

FULL, SUPER = "full", "super"
Translate = Callable[..., str]


@dataclass
class PileCount:
    """The pile being counted."""

    size: int  # cards in a pile: one per player
    player: str | None = None
    counts: dict[str, int] = field(default_factory=lambda: {FULL: 0, SUPER: 0})

    def step(self, kind: str, by: int) -> None:
        others = sum(n for name, n in self.counts.items() if name != kind)
        self.counts[kind] = max(0, min(self.counts[kind] + by, self.size - others))

    @property
    def full(self) -> bool:
        return sum(self.counts.values()) >= self.size

    def event(self) -> Event:
        return {"type": "pile", "player": self.player, **self.counts}

    def clear(self) -> None:
        self.counts = {FULL: 0, SUPER: 0}


def pile_entry(
    count: PileCount,
    players: list[str],
    prompt: Prompt,
    *,
    t: Translate,
    redraw: Callable[[], None],
    add: Callable[[], None],
    end: Callable[[], None],
    by_trick: Callable[[], None],
) -> list[ft.Control]:
    def pick(name: str) -> None:
        count.player = name
        redraw()

    def step(kind: str, by: int) -> None:
        count.step(kind, by)
        redraw()

    parts: list[ft.Control] = [ui.heading(t("pile.title"), 16)]
    parts.append(
        ui.wrap(
            ui.choices(
                [(name, name) for name in players],
                pick,
                "pile-player",
                lambda name: name == count.player,
            )
        )
    )
    for kind in (FULL, SUPER):
        parts.append(
            ft.Row(
                [
                    ft.Text(t(f"pile.{kind}"), width=150),
                    ui.tap(
                        "−",
                        lambda kind=kind: step(kind, -1),
                        f"{kind}-minus",
                        disabled=count.counts[kind] == 0,
                    ),
                    ui.figure(f"{kind}-count", count.counts[kind], size=20),
                    ui.tap(
                        "+",
                        lambda kind=kind: step(kind, 1),
                        f"{kind}-plus",
                        disabled=count.full,
                    ),
                ],
                spacing=8,
                key=f"count-{kind}",
            )
        )
    buttons = [ui.tap(t("pile.add"), add, "add-pile", primary=True)]
    if "end" in prompt.expects:
        buttons.append(ui.tap(t("pile.end"), end, "end-piles"))
    if "round" in prompt.expects:
        buttons.append(ui.tap(t("pile.by-trick"), by_trick, "mode-tricks"))
    parts.append(ui.wrap(buttons))
    return parts
