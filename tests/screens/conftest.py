"""Browser fixtures: the app served from a subprocess, driven by Chromium."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / ".venv" / "bin" / "companion"
SCREENSHOTS = ROOT / "screenshots"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
# A card already played keeps its place, disabled.
SPENT = '[aria-disabled="true"]'
# A tap sooner than this after the one before's answer may be dropped unless
# both are cards of one round (screens.ui.TapGuard): the helpers wait it out.
SETTLE_S = 1.3
# When the page last changed: a tap's answer is drawn when it arrives, and the
# half second counts from then, however long the server took.
WATCH_CHANGES = """
window.__changedAt = 0;
new MutationObserver(() => { window.__changedAt = performance.now(); })
    .observe(document, {subtree: true, childList: true, attributes: true,
                        characterData: true});
"""

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the app did not answer on port {port}")


class Server:
    """The app as a subprocess on its own port and data folder."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        command = [str(COMPANION), "--port", str(self.port), "--data", str(self.data)]
        if not COMPANION.exists():
            command = [sys.executable, "-m", "companion.cli", *command[1:]]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is None:
            return
        # The server's own children (if any) share its session: end them all.
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def store(self) -> Any:
        from companion.store import Store

        return Store(self.data)

    def games(self) -> list[Any]:
        return self.store().list_games()

    def summary(self, game_id: str) -> dict[str, Any]:
        """What `companion replay` prints for the stored log."""
        from companion.log import dumps

        log = self.store().load(game_id).log
        done = subprocess.run(
            [str(COMPANION), "replay", "-"],
            input=dumps(log).encode(),
            capture_output=True,
            check=True,
            cwd=ROOT,
        )
        return json.loads(done.stdout)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (make browser)")
    running = Server(tmp_path_factory.mktemp("companion-data"))
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    chromium = playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    yield chromium
    chromium.close()


class Table:
    """One browser tab on the app, with the taps a player makes."""

    def __init__(self, page: Any, server: Server) -> None:
        self.page = page
        self.server = server
        self.tapped_at = float("-inf")
        self.last_was_card = False
        page.add_init_script(WATCH_CHANGES)

    first_screen = "home"  # the identifier that shows the app is up

    def open(self, query: str = "") -> Table:
        self.page.goto(self.server.url + query)
        self.page.wait_for_selector(
            "flt-semantics-placeholder", state="attached", timeout=60_000
        )
        self.page.locator("flt-semantics-placeholder").dispatch_event("click")
        self.wait(self.first_screen)
        return self

    def node(self, identifier: str) -> Any:
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]').first

    def wait(self, identifier: str, timeout: float = 15_000) -> Any:
        node = self.node(identifier)
        node.wait_for(state="attached", timeout=timeout)
        return node

    def gone(self, identifier: str, timeout: float = 15_000) -> None:
        self.node(identifier).wait_for(state="detached", timeout=timeout)

    def has(self, identifier: str) -> bool:
        return self.node(identifier).count() > 0

    def tap(self, identifier: str) -> None:
        node = self.wait(identifier)
        box = node.bounding_box()
        viewport = self.page.viewport_size or PHONE
        if box is None or box["y"] < 0 or box["y"] + box["height"] > viewport["height"]:
            # Flutter scrolls its canvas after the DOM scrolls: wait till it settles.
            node.scroll_into_view_if_needed()
            self.settle(node)
        self.click(node)

    def click(self, node: Any) -> None:
        """Click as a player who waits for the screen's answer before tapping on."""
        self.pace()
        node.click()
        self.tapped(card=False)

    def pace(self) -> None:
        """Wait until the last tap and the last change on screen are both
        ``SETTLE_S`` old."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            quiet = self.page.evaluate(
                "() => (performance.now() - (window.__changedAt || 0)) / 1000"
            )
            wait = SETTLE_S - min(float(quiet), time.monotonic() - self.tapped_at)
            if wait <= 0:
                return
            time.sleep(wait)

    def tapped(self, *, card: bool) -> None:
        self.tapped_at, self.last_was_card = time.monotonic(), card

    def mid_trick(self) -> bool:
        """Whether a card of the trick being entered is already in its seat."""
        return bool(
            self.page.evaluate(
                """() => [...document.querySelectorAll(
                    '[flt-semantics-identifier^="seat-"]')].some(seat =>
                    seat.getAttribute("aria-disabled") !== "true" &&
                    !seat.querySelector('[aria-disabled="true"]'))"""
            )
        )

    def settle(self, node: Any, timeout: float = 3) -> None:
        self.steady(node.bounding_box, timeout)

    def steady(
        self, read: Callable[[], T], timeout: float = 3, step: float = 0.05
    ) -> T:
        """What ``read`` gives once two readings ``step`` apart agree (the
        page has stopped moving), or its last reading at ``timeout``."""
        deadline = time.monotonic() + timeout
        last = read()
        while time.monotonic() < deadline:
            time.sleep(step)
            now = read()
            if now == last:
                return now
            last = now
        return last

    def text(self, identifier: str) -> str:
        return str(self.wait(identifier).text_content() or "").strip()

    def wait_text(self, identifier: str, expected: str, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while True:
            found = self.text(identifier)
            if found == expected:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{identifier}: {found!r} != {expected!r}")
            time.sleep(0.05)

    def wait_until(self, check: Any, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError("the screen did not change in time")
            time.sleep(0.03)

    def type_into(self, identifier: str, value: str) -> None:
        field = self.page.locator("input:focus, textarea:focus")
        for attempt in range(4):
            self.tap(identifier)
            try:
                field.wait_for(state="attached", timeout=3_000)
                # Another field may still hold the focus (the name field keeps
                # it after each name): wait for the one tapped.
                self.wait_until(lambda: self.inside(field, identifier), timeout=3)
                field.fill(value, timeout=3_000)
                return
            except Exception:
                if attempt == 3:
                    raise
                # A field that lost its focus to a redraw takes a tap again
                # only after a tap outside it (the page's left margin).
                self.page.mouse.click(2, 120)

    def inside(self, field: Any, identifier: str) -> bool:
        """Whether the focused input lies within the node ``identifier``."""
        try:
            box = field.bounding_box(timeout=1_000)
        except Exception:
            return False
        node = self.node(identifier).bounding_box()
        if box is None or node is None:
            return False
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return (
            node["x"] <= middle[0] <= node["x"] + node["width"]
            and node["y"] <= middle[1] <= node["y"] + node["height"]
        )

    def add_name(self, name: str, answered: Callable[[], bool]) -> None:
        """Type ``name`` in the name field and tap Add, until ``answered()``.

        Keystrokes made while the field is still settling after the last name
        can be lost on a loaded machine: the field shows empty and the app asks
        for a name, so the name is typed again, as a player would (three tries).
        """
        for _ in range(3):
            self.type_into("name-field", name)
            self.tap("add-player")
            try:
                self.wait_until(answered, timeout=3)
                return
            except AssertionError:
                continue

    def add_with_no_tap_on_the_field(self, name: str) -> None:
        """Type ``name`` into the name field, which must hold the focus
        already, and add it."""
        focused = self.page.locator("input:focus, textarea:focus")
        focused.wait_for(state="attached", timeout=15_000)
        self.wait_until(lambda: self.inside(focused, "name-field"))
        self.page.keyboard.type(name)
        self.tap("add-player")
        self.wait(f"remove-{name}")

    def add_player(self, name: str) -> None:
        rows = self.page.locator(f'[flt-semantics-identifier="remove-{name}"]')
        before = rows.count()
        self.add_name(name, lambda: rows.count() > before)
        assert rows.count() > before, f"{name} was not added"

    def card(self, code: str) -> Any:
        """The first copy of a card still to be played (copies share an id)."""
        copies = self.page.locator(f'[flt-semantics-identifier="card-{code}"]')
        return copies.filter(has_not=self.page.locator(SPENT)).and_(
            self.page.locator(f":not({SPENT})")
        ).first

    def tap_card(self, code: str) -> None:
        """Tap one card and wait until the screen has taken it."""
        before = self.events_marker()
        node = self.card(code)
        node.wait_for(state="attached", timeout=15_000)
        if not (self.last_was_card and self.mid_trick()):
            self.pace()
        node.click()
        self.tapped(card=True)
        try:
            self.wait_change(before)
        except AssertionError:
            # A card drawn anew (its screen's kept cells were cleared) waits
            # out the guard like any new control: tap it again, once.
            self.pace()
            node.click()
            self.tapped(card=True)
            self.wait_change(before)

    def read(self, *identifiers: str) -> str:
        """The texts of these nodes ("" for a missing one), read in one go."""
        return str(
            self.page.evaluate(
                """ids => ids.map(id => {
                    const node = document.querySelector(
                        `[flt-semantics-identifier="${id}"]`);
                    return node ? node.textContent : "";
                }).join("|")""",
                list(identifiers),
            )
        )

    def events_marker(self) -> str:
        return self.read(
            "trick-so-far", "next-player", "reasons", "choice-question", "error"
        )

    def wait_change(self, before: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.events_marker() == before:
            if time.monotonic() > deadline:
                raise AssertionError("the screen did not change after the tap")
            time.sleep(0.03)

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(exist_ok=True)
        size = self.page.viewport_size or PHONE
        kind = "phone" if size["width"] < 700 else "tablet"
        self.page.wait_for_timeout(250)  # let the last frame paint
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}-{kind}.png"))

    def new_game(
        self, game: str, players: list[str], starter: str | None = None
    ) -> str:
        """Fill in the new-game form and start; returns the new game's id."""
        known = {info.id for info in self.server.games()}
        self.tap("new-game")
        self.tap(f"game-{game}")
        for name in players:
            self.add_player(name)
        if starter:
            self.tap(f"start-{starter}")
        self.tap("start-game")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            fresh = [info.id for info in self.server.games() if info.id not in known]
            if fresh:
                self.wait("undo")
                return fresh[0]
            time.sleep(0.1)
        raise AssertionError("no game was created")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        for name in ("table", "tablet"):
            found = item.funcargs.get(name) if hasattr(item, "funcargs") else None
            if isinstance(found, Table):
                found.shot(f"failed-{item.name}")


def plain_settings(server: Server) -> None:
    """Each test's tab opens in English and the light theme, whatever a test
    before it switched (and left switched when it failed)."""
    store = server.store()
    store.set_setting("lang", "en")
    store.set_setting("theme", "light")


@pytest.fixture()
def table(browser: Any, server: Server) -> Iterator[Table]:
    plain_settings(server)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield Table(page, server).open()
    context.close()


@pytest.fixture()
def tablet(browser: Any, server: Server) -> Iterator[Table]:
    plain_settings(server)
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    yield Table(page, server).open()
    context.close()


def figure(value: Any) -> str:
    """A summary value the way the screen writes it."""
    from screens.figures import shown

    return shown(value)


def plan_trick(server: Server, game_id: str, first: str | None = None) -> list[str]:
    """Cards for the next trick: the leader's lowest, then each follows suit low.

    Every card comes from the replayed prompt, so the trick is one the rules
    accept; following suit keeps the warnings away.
    """
    prompt = server.store().replay(game_id).prompt()
    pool = [str(card) for card in prompt.cards]
    if first is None and prompt.leads:
        first = str(prompt.leads[0])  # the only lead the rules allow
    chosen: list[str] = [first] if first else []
    for _ in prompt.seats[len(chosen) :]:
        left = [code for code in pool if code not in chosen]
        lead = chosen[0][0] if chosen else None
        same = [code for code in left if code[0] == lead]
        chosen.append((same or left)[0])
    return chosen


def play_trick(table: Table, cards: list[str]) -> None:
    """Tap a trick's cards; answer any question the rules ask with its first option."""
    for code in cards:
        table.tap_card(code)
    while question := table.read("choice-question"):
        table.click(
            table.page.locator(
                '[flt-semantics-identifier^="choice-"]'
                ':not([flt-semantics-identifier="choice-question"])'
            ).first
        )
        deadline = time.monotonic() + 10
        while table.read("choice-question") == question:
            if time.monotonic() > deadline:
                table.shot("failed-choice")
                raise AssertionError("the choice was not taken")
            time.sleep(0.03)


def check_figures(table: Table, game_id: str) -> dict[str, Any]:
    """Every figure on screen equals `companion replay` of the stored log."""
    from screens.figures import player_figures

    summary = table.server.summary(game_id)
    options = table.server.store().replay(game_id).state.options
    for name, view in summary["players"].items():
        table.wait_text(f"score-{name}", figure(summary["totals"][name]))
        for field, value in player_figures(summary["game"], view, options):
            table.wait_text(f"{field}-{name}", value)
        for at, entry in enumerate(summary["rounds"], start=1):
            table.wait_text(f"round-{at}-{name}", figure(entry["scores"][name]))
    return summary
