"""CURSED! in Chromium: spells in four taps until a player is out, every tap
in reach on a small phone, and refusals shown where the tap was."""

from __future__ import annotations

from collections.abc import Iterator

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


PHONE_SMALL = {"width": 360, "height": 740}
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def in_view(table: Table, identifier: str) -> bool:
    """Whether the node is wholly on screen as the page stands (no scrolling)."""
    box = table.wait(identifier).bounding_box()
    size = table.page.viewport_size or PHONE_SMALL
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def all_in_view(table: Table, identifiers: list[str]) -> None:
    table.wait_until(lambda: all(in_view(table, i) for i in identifiers))


def tap_in_view(table: Table, identifier: str) -> None:
    all_in_view(table, [identifier])
    table.click(table.node(identifier))


@pytest.fixture()
def small(browser, server) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE_SMALL)
    try:
        yield Table(context.new_page(), server).open()
    finally:
        context.close()


def test_every_tap_in_reach_on_a_small_phone(small: Table) -> None:
    """Six players at 360×740: a spell, a sacrifice and an altar with no scroll."""
    game_id = small.new_game("cursed", SIX)
    all_in_view(small, ["game-rules", "undo", "redo", "tab-spell", "tab-altar"])
    all_in_view(small, [f"caster-{name}" for name in SIX])
    tap_in_view(small, "caster-Ann")
    all_in_view(small, [f"target-{name}" for name in SIX])
    tap_in_view(small, "target-Fay")
    all_in_view(small, [f"fortune-{fortune}" for fortune in FORTUNES])
    tap_in_view(small, "fortune-love")
    all_in_view(small, [f"effect-{effect}" for effect in ("bless", "curse")])
    small.shot("cursed-effect-small")
    tap_in_view(small, "effect-curse")
    small.wait_text("fortune-Fay-love", text("state.cursed"))

    tap_in_view(small, "tab-altar")
    all_in_view(small, [f"set-player-{name}" for name in SIX])
    all_in_view(small, [f"altar-player-{name}" for name in SIX])
    small.shot("cursed-altar-small")
    for step in ("set-player-Ben", "set-fortune-luck", "set-state-blessed"):
        tap_in_view(small, step)
    small.wait_text("fortune-Ben-luck", text("state.blessed"))
    assert small.server.summary(game_id)["players"]["Ben"]["fortunes"]["luck"] == (
        "blessed"
    )
    # Undo and redo go through the game's session, one action each.
    tap_in_view(small, "undo")
    small.wait_text("fortune-Ben-luck", text("state.neutral"))
    tap_in_view(small, "redo")
    small.wait_text("fortune-Ben-luck", text("state.blessed"))

    # The Rules button opens the game's rules; Back returns to the same tab.
    tap_in_view(small, "game-rules")
    small.wait("rules-search")
    small.tap("rules-back")
    all_in_view(small, ["set-player-Ann"])


def test_a_refusal_shows_by_the_tap_and_goes(table: Table) -> None:
    game_id = table.new_game("cursed", ["Ann", "Ben", "Cy"])
    for fortune in FORTUNES:
        cast(table, "Ann", "Cy", fortune, "curse")
    table.wait_text("out-Cy", text("cursed.out"))
    table.tap("tab-altar")
    # Cy is out: no sacrifice changes their fortunes, so they are not offered.
    table.wait("set-player-Ann")
    assert not table.has("set-player-Cy")
    table.tap("altar-player-Cy")
    table.type_into("altar-field", "a candle")
    table.tap("altar-save")
    table.wait_until(lambda: "out of the game" in table.read("error"))
    # The message sits by the button tapped, on screen.
    error = table.node("error").bounding_box()
    save = table.node("altar-save").bounding_box()
    assert error is not None and save is not None
    assert abs(error["y"] - save["y"]) < 150
    table.shot("cursed-refused")
    table.tap("altar-cancel")
    table.gone("error")
    assert table.server.store().load(game_id).log.events[-1]["type"] == "spell"
    # Back on the spell tab, Ann ends the game: no stale message on it.
    table.tap("tab-spell")
    for fortune in FORTUNES:
        cast(table, "Ann", "Ben", fortune, "curse")
    table.wait("winners")
    assert not table.has("error")


def test_another_screen_follows_every_write(table: Table, browser) -> None:
    """A spell, a sacrifice, an altar, undo and redo on one screen reach the other."""
    table.new_game("cursed", ["Ann", "Ben", "Cy"])
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = Table(context.new_page(), table.server).open()
        other.tap("resume")
        other.wait_text("fortune-Ben-love", text("state.neutral"))
        cast(table, "Ann", "Ben", "love", "curse")
        other.wait_text("fortune-Ben-love", text("state.cursed"))
        table.tap("tab-altar")
        for step in ("set-player-Cy", "set-fortune-fate", "set-state-blessed"):
            table.tap(step)
        other.wait_text("fortune-Cy-fate", text("state.blessed"))
        table.tap("altar-player-Ann")
        table.type_into("altar-field", "a coin")
        table.tap("altar-save")
        other.wait_text("altar-Ann", "a coin")
        table.tap("undo")
        other.wait_text("altar-Ann", figure(None))
        table.tap("redo")
        other.wait_text("altar-Ann", "a coin")
        # The other screen takes over: its spell reaches the first.
        cast(other, "Cy", "Ann", "luck", "bless")
        table.wait_text("fortune-Ann-luck", text("state.blessed"))
    finally:
        context.close()
