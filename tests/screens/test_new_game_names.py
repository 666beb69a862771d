"""Names on the new-game form in Chromium: nothing hidden, no two alike, one form."""

from __future__ import annotations

import time

import pytest

from companion.i18n import text
from tests.screens.conftest import Table

pytestmark = pytest.mark.browser

DECOMPOSED = "Zoe\u0301"  # "Zoé" as an "e" followed by an accent to put on it
COMPOSED = "Zo\u00e9"
SMALL_PHONE = {"width": 360, "height": 740}


def rows(table: Table, name: str) -> int:
    return table.page.locator(f'[flt-semantics-identifier="remove-{name}"]').count()


def refused(table: Table, typed: str, message: str) -> None:
    """Typing ``typed`` and tapping Add shows ``message`` in view, adds no one."""
    before = table.page.locator('[flt-semantics-identifier^="remove-"]').count()
    table.add_name(typed, lambda: table.text("name-error") == message)
    table.wait_text("name-error", message)
    box = table.node("name-error").bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL_PHONE["height"]
    after = table.page.locator('[flt-semantics-identifier^="remove-"]').count()
    assert after == before


def test_look_alike_names_are_refused_next_to_the_field(table: Table) -> None:
    table.page.set_viewport_size(SMALL_PHONE)
    table.tap("new-game")
    table.tap("game-cursed-tricks")
    table.add_player("Ann")
    refused(table, "Ann\u200b", text("new.hidden-name", name="Ann"))
    refused(table, "Ann\u200d", text("new.hidden-name", name="Ann"))
    refused(table, "neB\u202e", text("new.hidden-name", name="neB"))
    refused(table, "\u200b", text("new.empty-name"))
    table.type_into("name-field", DECOMPOSED)
    table.tap("add-player")
    table.wait(f"remove-{COMPOSED}")
    refused(table, "ZOÉ", text("new.duplicate-name", name=COMPOSED))
    assert rows(table, "Ann") == 1 and rows(table, COMPOSED) == 1
    table.shot("new-game-look-alike")

    table.add_player("Ben")
    known = {info.id for info in table.server.games()}
    table.tap("start-game")
    deadline = time.monotonic() + 30
    while not (fresh := [g for g in table.server.games() if g.id not in known]):
        assert time.monotonic() < deadline, "no game was created"
        time.sleep(0.1)
    assert fresh[0].players == ["Ann", COMPOSED, "Ben"]
