"""A saved games file replaced by its copy is announced on home and at the table."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.log import GameLog
from companion.storage import backup_path
from companion.store import LIVE_FILE, Store
from screens.repairs import saved_at
from tests.screens.conftest import CHROMIUM, Server, Table

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
# When the copy in use was saved: 2026-11-26 20:14 UTC.
SAVED_AT = 1_795_724_040
SAVED = saved_at("2026-11-26T20:14:00Z")
CURSE = {
    "type": "spell",
    "caster": "Ann",
    "target": "Ben",
    "fortune": "luck",
    "effect": "curse",
}


def damage(data: Path) -> None:
    """live.json torn by a crash, its last good copy saved at SAVED_AT."""
    os.utime(backup_path(data / LIVE_FILE), (SAVED_AT, SAVED_AT))
    live = data / LIVE_FILE
    live.write_bytes(live.read_bytes()[:20])


def in_view(table: Table, identifier: str) -> bool:
    box = table.wait(identifier).bounding_box()
    return box is not None and 0 <= box["y"] <= box["y"] + box["height"] <= 740


def test_a_repaired_file_is_announced_until_dismissed(
    browser: Any, tmp_path: Path
) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (make browser)")
    data = tmp_path / "data"
    store = Store(data, fsync=False)
    game_id = store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    store.append(game_id, CURSE)
    damage(data)  # before the app starts
    server = Server(data)
    server.start()
    context = browser.new_context(viewport=SMALL_PHONE)
    try:
        table = Table(context.new_page(), server).open()
        said = table.text("repair-notice")
        assert f"the copy saved at {SAVED} is in use" in said
        assert f"Anything entered after {SAVED} may need entering again" in said
        assert in_view(table, "repair-notice") and in_view(table, "repair-dismiss")
        table.shot("repair-home")
        table.tap("lang")
        table.wait_until(lambda: "もう一度入力" in table.text("repair-notice"))
        table.shot("repair-home-ja")
        assert SAVED in table.text("repair-notice")
        table.tap("lang")
        table.wait_until(lambda: "may need" in table.text("repair-notice"))
        before = table.wait("repair-notice").bounding_box()
        below = table.wait("new-game").bounding_box()
        table.tap("repair-dismiss")
        # Dismissed, it stays in place, inert, until the screen changes:
        # nothing moves under the finger that tapped it.
        table.wait("repair-noted")
        assert not table.has("repair-dismiss")
        assert table.wait("repair-notice").bounding_box() == before
        assert table.wait("new-game").bounding_box() == below

        # While the app runs: the next look at the games finds the damage.
        table.tap("resume")
        table.wait("undo")
        table.gone("repair-notice")
        damage(data)
        table.tap("home")
        assert SAVED in table.text("repair-notice")
        assert in_view(table, "repair-notice")
        table.tap("resume")
        table.wait("undo")
        assert SAVED in table.text("repair-notice")
        table.shot("repair-table")
        assert in_view(table, "repair-dismiss")
        table.tap("repair-dismiss")
        table.wait("repair-noted")
        table.tap("home")
        table.wait("new-game")
        assert not table.has("repair-notice")
        assert [p.name for p in data.iterdir() if ".broken-" in p.name]
    finally:
        context.close()
        server.stop()
