"""The phone build as a phone uses it: installed, offline, its games kept.

The folder ``make web`` writes is served as static files on 127.0.0.1 and
opened in a persistent Chromium profile at a phone's size: the games must
survive a reload, a browser restart and a restart with the server gone; a
second tab must not write over them; a backup restored into a fresh profile
must hold the same games, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.backup import backup_bytes, restore_bytes
from companion.i18n import text
from companion.log import loads
from companion.store import Store
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.screens.conftest import PHONE, Table, figure, plan_trick, play_trick
from web.serve import StaticSite

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Ben", "Cy"]
# Python starts in the page: far slower than a served app on a loaded machine.
START_MS = 240_000


class Kept:
    """The games a backup file holds, read by the core as a store."""

    def __init__(self, data: bytes, folder: Path) -> None:
        self.data = data
        self.folder = folder
        restore_bytes(self.store(), data)

    def store(self) -> Store:
        return Store(self.folder, fsync=False)


class PhoneTable(Table):
    def open(self, query: str = "", first: str = "home") -> PhoneTable:
        self.page.goto(self.server.url + query)
        self.started(first)
        return self

    def started(self, first: str = "home") -> None:
        self.page.wait_for_selector(
            "flt-semantics-placeholder", state="attached", timeout=START_MS
        )
        self.page.locator("flt-semantics-placeholder").dispatch_event("click")
        self.wait(first, timeout=START_MS)

    def type_into(self, identifier: str, value: str) -> None:
        # Python answers from the page's worker: a tap while the screen is
        # still being drawn may miss the field, so a second tap follows.
        field = self.page.locator("input:focus, textarea:focus")
        for attempt in range(3):
            self.tap(identifier)
            try:
                field.wait_for(state="attached", timeout=15_000)
                self.wait_until(lambda: self.inside(field, identifier), timeout=15)
                # A redraw between the tap and the typing may take the focus.
                field.fill(value, timeout=10_000)
                return
            except (AssertionError, PlaywrightTimeout):
                if attempt == 2:
                    raise
                # A field that lost its focus to a redraw takes a tap again
                # only after a tap outside it (the page's left margin).
                self.page.mouse.click(2, 120)

    def reload(self) -> None:
        self.page.reload()
        self.started()

    def backup(self, folder: Path) -> Kept:
        """Back up all games from home and read the file downloaded."""
        if not self.has("backup"):
            self.tap("home")
        with self.page.expect_download(timeout=60_000) as download:
            self.tap("backup")
        data = Path(download.value.path()).read_bytes()
        return Kept(data, folder)

    def resume(self) -> None:
        self.tap("resume")
        self.wait("undo", timeout=30_000)


class Phone:
    """A browser profile that keeps its data between launches, as a phone's does."""

    def __init__(self, playwright: Any, profile: Path, site: StaticSite) -> None:
        self.playwright = playwright
        self.profile = profile
        self.site = site
        self.context: Any = None

    def launch(self) -> PhoneTable:
        self.context = self.playwright.chromium.launch_persistent_context(
            str(self.profile),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
            accept_downloads=True,
        )
        page = self.context.pages[0] if self.context.pages else self.context.new_page()
        return PhoneTable(page, self.site).open()

    def tab(self) -> PhoneTable:
        return PhoneTable(self.context.new_page(), self.site)

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None


@pytest.fixture
def site(phone_build: Path) -> Iterator[StaticSite]:
    served = StaticSite(phone_build).start()
    yield served
    served.stop()


def fresh_folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder


def start_game(table: PhoneTable) -> None:
    table.tap("new-game")
    table.tap("game-cursed-tricks")
    for name in PLAYERS:
        table.add_player(name)
    table.tap("start-Ben")
    table.tap("start-game")
    table.wait("undo", timeout=30_000)


def only_game(kept: Kept) -> str:
    (info,) = kept.store().list_games()
    return info.id


def test_games_stay_on_the_phone_through_reload_restart_and_offline(
    playwright: Any, site: StaticSite, tmp_path: Path
) -> None:
    phone = Phone(playwright, tmp_path / "profile", site)
    table = phone.launch()
    try:
        page = table.page
        assert page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.active !== null)"
        )
        cdp = phone.context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        start_game(table)
        kept = table.backup(fresh_folder(tmp_path, "after-start"))
        game_id = only_game(kept)
        table.resume()
        play_trick(table, plan_trick(kept, game_id))
        kept = table.backup(fresh_folder(tmp_path, "after-trick"))
        cards = plan_trick(kept, game_id)
        table.resume()
        table.tap_card(cards[0])
        before = table.backup(fresh_folder(tmp_path, "mid-trick"))
        # The card tapped is kept with the game, though its trick is not done.
        assert before.store().get_setting(f"trick-in-progress:{game_id}")

        table.reload()
        assert table.backup(fresh_folder(tmp_path, "reloaded")).data == before.data

        phone.close()
        table = phone.launch()
        assert table.backup(fresh_folder(tmp_path, "restarted")).data == before.data

        phone.close()
        site.stop()
        table = phone.launch()
        assert table.backup(fresh_folder(tmp_path, "offline")).data == before.data
        table.resume()
        play_trick(table, cards[1:])
        after = table.backup(fresh_folder(tmp_path, "played-offline"))
        events = after.store().load(game_id).log.events
        assert events[-1]["cards"] == cards

        # A second tab says the app is open elsewhere and writes nothing.
        second = phone.tab().open(first="open-elsewhere-en")
        second.wait("open-elsewhere-ja")
        assert not second.has("new-game")
        second.page.close()
        assert table.backup(fresh_folder(tmp_path, "two-tabs")).data == after.data
    finally:
        phone.close()


def test_a_backup_restored_into_a_fresh_profile_holds_the_same_games(
    playwright: Any, site: StaticSite, tmp_path: Path
) -> None:
    first = Phone(playwright, tmp_path / "first", site)
    table = first.launch()
    try:
        start_game(table)
        kept = table.backup(fresh_folder(tmp_path, "first-game"))
        table.resume()
        play_trick(table, plan_trick(kept, only_game(kept)))
        original = table.backup(fresh_folder(tmp_path, "original"))
    finally:
        first.close()
    backup_file = tmp_path / "backup.json"
    backup_file.write_bytes(original.data)

    fresh = Phone(playwright, tmp_path / "fresh", site)
    table = fresh.launch()
    try:
        with table.page.expect_file_chooser(timeout=60_000) as chooser:
            table.tap("restore")
        chooser.value.set_files(str(backup_file))
        table.wait("backup-said", timeout=60_000)
        restored = table.backup(fresh_folder(tmp_path, "restored"))
        assert restored.data == original.data
    finally:
        fresh.close()


def test_past_games_charts_exports_rules_and_both_languages_in_the_page(
    playwright: Any, site: StaticSite, tmp_path: Path
) -> None:
    """What the served app does, the page does: every game, charts, CSV, rules."""
    examples = Store(tmp_path / "examples", fsync=False)
    ids = {
        path.stem: examples.import_log(loads(path.read_text(encoding="utf-8")))
        for path in sorted((ROOT / "examples").glob("*.json"))
    }
    backup_file = tmp_path / "examples.json"
    backup_file.write_bytes(backup_bytes(examples))
    phone = Phone(playwright, tmp_path / "profile", site)
    table = phone.launch()
    try:
        with table.page.expect_file_chooser(timeout=60_000) as chooser:
            table.tap("restore")
        chooser.value.set_files(str(backup_file))
        table.wait("backup-said", timeout=60_000)

        table.tap("past-games")
        for game_id in ids.values():
            table.wait(f"game-{game_id}", timeout=30_000)
        summary = examples.replay(ids["cursed-tricks"]).summary()
        table.tap(f"game-{ids['cursed-tricks']}")
        for name, total in summary["totals"].items():
            table.wait_text(f"chart-last-{name}", figure(total), timeout=60)
        table.tap("export-csv")
        table.wait("export-text")
        with table.page.expect_download(timeout=60_000) as download:
            table.tap("export-download")
        csv = Path(download.value.path()).read_text(encoding="utf-8")
        assert csv.startswith("Round,")
        table.tap("export-close")
        table.tap("history-back")
        table.tap("open-stats")
        table.wait("stats-Ann", timeout=60_000)

        table.tap("home")
        table.tap("rules")
        table.type_into("rules-search", "exhaustion")
        table.wait("rule-trick-runaway-round-end", timeout=60_000)

        for lang in ("ja", "en"):
            table.tap("lang")
            heading = table.page.get_by_text(text("rules.title", lang), exact=True)
            heading.first.wait_for(state="attached", timeout=30_000)
            table.tap("theme")
    finally:
        phone.close()
