"""CURSED! in Chromium: spells in four taps until a player is out."""

from __future__ import annotations

import pytest

from companion.i18n import text
from tests.screens.conftest import Table, figure

pytestmark = pytest.mark.browser

FORTUNES = ("wealth", "health", "love", "fate", "luck")


def cast(table: Table, caster: str, target: str, fortune: str, effect: str) -> str:
    """Four taps; returns what the effect button announced before it was tapped."""
    before = table.read("reasons")
    table.tap(f"caster-{caster}")
    table.tap(f"target-{target}")
    table.tap(f"fortune-{fortune}")
    label = table.text(f"effect-{effect}")
    table.tap(f"effect-{effect}")
    table.wait_until(lambda: table.read("reasons") != before)
    return label


def test_cursed_to_an_elimination(table: Table) -> None:
    game_id = table.new_game("cursed", ["Ann", "Ben", "Cy"])
    table.shot("cursed-start")
    cast(table, "Ann", "Ann", "wealth", "bless")
    table.wait_text("fortune-Ann-wealth", text("state.blessed"))
    label = cast(table, "Ann", "Cy", "wealth", "curse")
    assert text("spell.double") in label
    assert text("state.ruined") in label
    table.wait_text("fortune-Cy-wealth", text("state.ruined"))

    table.tap("tab-altar")
    table.tap("altar-player-Ben")
    table.type_into("altar-field", "a lock of hair")
    table.tap("altar-save")
    table.wait_text("altar-Ben", "a lock of hair")
    for step in ("set-player-Ben", "set-fortune-luck", "set-state-blessed"):
        table.tap(step)
    table.wait_text("fortune-Ben-luck", text("state.blessed"))
    table.tap("tab-spell")

    for fortune in FORTUNES[1:]:
        cast(table, "Ben", "Cy", fortune, "curse")
    table.wait_text("out-Cy", text("cursed.out"))
    table.shot("cursed-elimination")

    summary = table.server.summary(game_id)
    assert summary["players"]["Cy"]["eliminated"]
    for name, view in summary["players"].items():
        table.wait_text(f"score-{name}", figure(summary["totals"][name]))
        table.wait_text(f"altar-{name}", figure(view["altar"]))
        for fortune, state in view["fortunes"].items():
            table.wait_text(f"fortune-{name}-{fortune}", text(f"state.{state}"))
    # An out player is no longer offered as a caster.
    assert not table.has("caster-Cy")
