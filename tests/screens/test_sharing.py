"""Every device at the table: the table code, and one game shown live everywhere."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.sharing import JOIN_TOKEN_BYTES
from tests.screens.conftest import (
    COMPANION,
    PHONE,
    ROOT,
    Server,
    Table,
    plan_trick,
    play_trick,
    wait_for_port,
)

pytestmark = pytest.mark.browser


class SharedServer(Server):
    """The app served with --lan, its terminal output kept to read the code."""

    code = ""

    def start(self) -> None:
        output = self.data / "terminal.txt"
        with output.open("wb") as terminal:
            self.process = subprocess.Popen(
                [str(COMPANION), "--lan", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data", str(self.data)],
                cwd=ROOT,
                stdout=terminal,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        wait_for_port(self.port)
        deadline = time.monotonic() + 15
        while not (found := re.search(r"Table code: (\d+)", output.read_text())):
            assert time.monotonic() < deadline, "no table code was shown"
            time.sleep(0.1)
        self.code = found.group(1)
        self.terminal = output.read_text()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedServer]:
    running = SharedServer(tmp_path_factory.mktemp("shared-data"))
    running.start()
    yield running
    running.stop()


class Device(Table):
    first_screen = "table-code"  # a shared table asks for its code first

    def join(self, code: str) -> None:
        self.type_into("table-code", code)
        self.tap("join")


def device(
    browser: Any, server: Server, query: str = "", context: Any = None
) -> Device:
    """A phone's browser on the table; ``context`` given: a tab of that browser."""
    table = Device((context or browser.new_context(viewport=PHONE)).new_page(), server)
    if query or context:
        # The QR code's link needs no typing, nor does a browser let in before.
        table.first_screen = "home"
    table.open(query)
    assert isinstance(table, Device)
    return table


def data_files(folder: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.glob("*.json*"))
        if path.is_file()
    }


def test_the_terminal_shows_address_qr_and_code(shared: SharedServer) -> None:
    assert re.search(r"http://[\d.]+:\d+", shared.terminal)
    assert len(shared.code) == 6
    assert shared.terminal.count("\n") > 10  # the QR code's rows
    assert "join=" not in shared.terminal  # the token is only in the QR code


def test_scanning_the_qr_code_joins_and_the_browser_stays_admitted(
    browser: Any, shared: SharedServer
) -> None:
    host = device(browser, shared)
    host.join(shared.code)
    host.tap("share-open")
    link = host.text("share-link")
    query = link[link.index("?") :]
    assert len(query) > len("?join=") + JOIN_TOKEN_BYTES
    assert shared.code not in link

    phone = device(browser, shared, query)  # no code typed
    assert "join=" not in phone.page.url  # the token leaves the address bar
    another_tab = device(browser, shared, context=phone.page.context)
    another_tab.wait("home")  # the same browser is not asked again
    stranger = device(browser, shared)  # another browser is
    assert not stranger.has("home")
    phone.shot("joined-by-qr-code")
    for page in (host.page, phone.page, stranger.page):
        page.context.close()


def test_a_device_without_the_code_sees_and_changes_nothing(
    browser: Any, shared: SharedServer
) -> None:
    host = device(browser, shared)
    host.join(shared.code)
    host.wait("home")
    game_id = host.new_game("cursed-tricks", ["Ann", "Ben", "Cy", "Dee"], "Ann")
    before = data_files(shared.data)

    stranger = device(browser, shared)
    for guess in ("000000", "123"):
        stranger.join(guess)
        stranger.wait("share-message")
    for hidden in ("home", "new-game", "resume", "undo", "lang", "theme"):
        assert not stranger.has(hidden), hidden
    assert "Ann" not in stranger.page.locator("body").inner_text()
    assert data_files(shared.data) == before
    assert [info.id for info in shared.games()] == [game_id]
    for page in (host.page, stranger.page):
        page.context.close()


def test_a_trick_entered_on_one_device_shows_on_the_other(
    browser: Any, shared: SharedServer
) -> None:
    first = device(browser, shared)
    first.join(shared.code)
    first.wait("home")
    game_id = first.new_game("cursed-tricks", ["Ann", "Ben", "Cy", "Dee"], "Ann")

    second = device(browser, shared)
    second.join(shared.code)
    second.tap("resume")
    second.wait("undo")
    before = second.read("reasons")

    play_trick(first, plan_trick(shared, game_id))
    second.wait_until(lambda: second.read("reasons") != before, timeout=5)
    summary = shared.summary(game_id)
    for name, total in summary["totals"].items():
        second.wait_text(f"score-{name}", str(total))
    second.shot("shared-second-device")
    first.tap("share-open")
    first.wait("share-code")
    assert first.text("share-code") == shared.code
    first.shot("share-panel")
    for page in (first.page, second.page):
        page.context.close()
