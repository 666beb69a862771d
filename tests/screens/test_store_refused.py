"""A store that cannot open shows its own words, not a bare error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.log import GameLog
from companion.store import LIVE_FILE, Store
from tests.screens.conftest import CHROMIUM, PHONE, Server, Table

pytestmark = pytest.mark.browser


def test_a_store_that_cannot_open_says_why(browser: Any, tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (make browser)")
    data = tmp_path / "data"
    store = Store(data, fsync=False)
    store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    store.create_game(GameLog("cursed", ["Ann", "Ben"]))
    for name in (LIVE_FILE, LIVE_FILE + ".bak"):
        (data / name).write_bytes(b"\x00garbled")
    server = Server(data)
    server.start()
    context = browser.new_context(viewport=PHONE)
    try:
        table = Table(context.new_page(), server)
        table.first_screen = "store-error"
        said = table.open().text("store-error")
        assert "live.json" in said and "could not be read either" in said
        assert "Nothing was changed" in said
    finally:
        context.close()
        server.stop()
