"""The table code's gate, tried the way a stranger would: Flet's own protocol.

No browser: a websocket client speaks Flet's wire format (msgpack frames) to
the server ``companion --lan`` runs (``screens.web``, served here on a thread),
opens as many connections as it likes, rewrites ``page.client_ip`` and sends
forwarded-for headers. Other loopback addresses (127.0.0.x) stand in for other
devices on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgpack
import pytest
import uvicorn
import websockets

from companion.log import loads
from companion.sharing import FREE_TRIES, TABLE_BUDGET, new_token
from companion.store import Store
from screens import app, served
from screens.sharing import ADMISSION_KEY, Sharing
from screens.ui import NEW_S, SETTLE_S
from screens.web import server_config
from tests.screens.conftest import ROOT, free_port

T = TypeVar("T")
REGISTER, PATCH, EVENT, UPDATE_PROPS, INVOKE = 1, 2, 3, 4, 5
ANSWER_WAIT_S = 15.0
OPENED = "new-game"  # on the home screen, behind the gate


def pack(action: int, body: dict[str, Any]) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def controls_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every control (a dict with an id) anywhere in a message."""
    if isinstance(value, dict):
        if "_i" in value:
            yield value
        for item in value.values():
            yield from controls_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from controls_in(item)


class Device:
    """One connection to the table, as a script rather than a browser."""

    def __init__(
        self, port: int, source: str, route: str = "/", kept: str | None = None
    ) -> None:
        self.port = port
        self.source = source
        self.route = route
        self.storage: dict[str, Any] = {} if kept is None else {ADMISSION_KEY: kept}
        self.tagged: dict[str, dict[str, Any]] = {}
        self.page_id = 0
        self.connection: Any = None
        self.asked = False  # the server read this browser's client storage

    async def __aenter__(self) -> Device:
        self.connection = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/ws",
            additional_headers={"X-Forwarded-For": new_source()},
            local_addr=(self.source, 0),
        )
        fake = new_source()
        await self.send(
            REGISTER,
            {
                "session_id": None,
                "page_name": "",
                "page": {"route": self.route, "web": True, "client_ip": fake},
            },
        )
        await self.read_until(lambda: "table-code" in self.tagged or self.opened)
        # What the tester did: rewrite the page's client_ip, as a client may.
        rewrite = {"id": self.page_id, "props": {"client_ip": fake}}
        await self.send(UPDATE_PROPS, rewrite)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.connection.close()

    @property
    def opened(self) -> bool:
        return OPENED in self.tagged

    async def send(self, action: int, body: dict[str, Any]) -> None:
        await self.connection.send(pack(action, body))

    async def read_until(self, done: Any, wait_s: float = ANSWER_WAIT_S) -> None:
        deadline = time.monotonic() + wait_s
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"no answer; seen {sorted(self.tagged)}"
            try:
                frame = await asyncio.wait_for(self.connection.recv(), left)
            except TimeoutError:
                frame = b"\x00" + msgpack.packb([0, None])
                continue
            action, body = msgpack.unpackb(frame[1:], strict_map_key=False)
            if action == REGISTER:
                self.page_id = body["page_patch"]["_i"]
            if action == INVOKE:
                # The browser's client storage; every other call succeeds.
                arguments = body.get("args") or {}
                result: Any = True
                if body["name"] == "get":
                    result = self.storage.get(arguments.get("key"))
                    self.asked = True
                elif body["name"] == "set":
                    self.storage[arguments["key"]] = arguments["value"]
                await self.send(
                    INVOKE,
                    {
                        "control_id": body["control_id"],
                        "call_id": body["call_id"],
                        "result": result,
                        "error": None,
                    },
                )
            for control in controls_in(body):
                if "identifier" in control:
                    self.tagged[control["identifier"]] = control

    def message(self) -> str:
        return str(self.tagged["share-message"]["content"]["value"])

    async def try_code(self, code: str) -> None:
        """Type ``code``, press Join, and wait for the answer."""
        self.tagged.pop("share-message", None)
        field = self.tagged["table-code"]["content"]["_i"]
        button = self.tagged["join"]["content"]["_i"]
        await self.send(UPDATE_PROPS, {"id": field, "props": {"value": code}})
        await self.send(EVENT, {"target": button, "name": "click", "data": None})
        await self.read_until(lambda: self.opened or "share-message" in self.tagged)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a device's script on a thread of its own.

    Playwright's browser, when other tests started it, keeps an event loop
    running on this one.
    """
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


_sources = iter(range(1, 250))


def new_source() -> str:
    """Another address on the loopback network: another device."""
    return f"127.0.0.{next(_sources) + 1}"


def data_files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The served app on a thread, over a store with one game in it."""
    folder = tmp_path_factory.mktemp("gate-data")
    store = Store(folder)
    store.import_log(loads((ROOT / "examples" / "cursed-tricks.json").read_text()))
    app._store = store
    chosen = free_port()
    server = uvicorn.Server(
        server_config(served.main, "127.0.0.1", chosen, str(app.ASSETS))
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield chosen
    server.should_exit = True
    thread.join(timeout=10)
    app._store = None
    served._sharing = None


@pytest.fixture
def sharing(port: int) -> Iterator[Sharing]:
    """A fresh table lock (a new ``companion --lan`` run) for each test."""
    served._sharing = Sharing(f"http://127.0.0.1:{port}")
    yield served._sharing


@pytest.fixture
def data(port: int) -> Path:
    assert app._store is not None
    return app._store.folder


def test_one_address_gets_its_free_tries_however_many_connections(
    port: int, sharing: Sharing, data: Path
) -> None:
    before = data_files(data)
    guesser = new_source()

    async def guess() -> list[str]:
        answers = []
        for attempt in range(FREE_TRIES + 3):
            async with Device(port, guesser) as device:
                # The right code once the free tries are spent: still refused.
                code = sharing.lock.code if attempt >= FREE_TRIES else "000000"
                await device.try_code(code)
                assert not device.opened, attempt
                answers.append(device.message())
        return answers

    answers = run(guess())
    assert all("try again" not in answer for answer in answers[: FREE_TRIES - 1])
    assert all("try again in" in answer for answer in answers[FREE_TRIES - 1 :])
    assert sharing.lock.recent_misses() == FREE_TRIES
    assert data_files(data) == before

    async def friend() -> bool:
        async with Device(port, new_source()) as device:
            await device.try_code(sharing.lock.code)
            return device.opened

    assert run(friend())  # another device is not held up by the guesser


def test_the_table_pauses_after_its_budget_of_misses_from_anywhere(
    port: int, sharing: Sharing, data: Path
) -> None:
    before = data_files(data)

    async def guess_from_many_addresses() -> None:
        spent = 0
        while spent < TABLE_BUDGET:
            source = new_source()
            for _ in range(min(FREE_TRIES - 1, TABLE_BUDGET - spent)):
                async with Device(port, source) as device:
                    await device.try_code(f"{spent:06d}")
                    assert not device.opened
                spent += 1

    run(guess_from_many_addresses())
    assert sharing.lock.table_wait_s() > 0

    async def right_code_from_a_new_address() -> str:
        async with Device(port, new_source()) as device:
            await device.try_code(sharing.lock.code)
            assert not device.opened
            return device.message()

    assert "try again in" in run(right_code_from_a_new_address())
    assert sharing.lock.recent_misses() == TABLE_BUDGET  # the refused try is free
    assert data_files(data) == before

    async def scan() -> bool:
        route = f"/?join={sharing.lock.join_token}"
        async with Device(port, new_source(), route) as device:
            await device.read_until(lambda: device.opened)
            return device.opened

    # The QR code's token cannot be guessed: it still lets a friend in.
    assert run(scan())


def test_the_qr_link_opens_the_table_and_a_wrong_one_counts_as_a_miss(
    port: int, sharing: Sharing, data: Path
) -> None:
    async def scan(token: str) -> Device:
        async with Device(port, new_source(), f"/?join={token}") as device:
            await device.read_until(
                lambda: device.opened or "share-message" in device.tagged
            )
            return device

    assert run(scan(sharing.lock.join_token)).opened
    before = data_files(data)
    earlier_run = Sharing("http://127.0.0.1:1").lock.join_token
    for token in (earlier_run, new_token(), "", sharing.lock.code):
        refused = run(scan(token))
        assert not refused.opened
        assert "link is not valid" in refused.message()
    assert sharing.lock.recent_misses() == 4
    assert data_files(data) == before


def test_only_what_the_table_needs_is_served(port: int, sharing: Sharing) -> None:
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}")
        assert refused.value.code == 404, path
    page = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
    assert "<title>Curse Companion</title>" in page
    assert sharing.lock.code not in page and sharing.lock.join_token not in page
    manifest = urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.json")
    assert b'"Curse Companion"' in manifest.read()
    served_icon = urllib.request.urlopen(f"http://127.0.0.1:{port}/icons/icon-192.png")
    assert served_icon.read() == (app.ASSETS / "icons" / "icon-192.png").read_bytes()


def test_a_browser_that_got_in_is_let_in_again_and_no_other(
    port: int, sharing: Sharing
) -> None:
    async def visit(kept: str | None = None, code: str = "") -> Device:
        async with Device(port, new_source(), kept=kept) as device:
            if code:
                await device.try_code(code)
                await device.read_until(lambda: ADMISSION_KEY in device.storage)
            else:
                await device.read_until(lambda: device.asked)
                # The answer to the storage read comes in the next messages.
                with contextlib.suppress(AssertionError):
                    await device.read_until(lambda: device.opened, wait_s=2)
            return device

    first = run(visit(code=sharing.lock.code))
    assert first.opened
    admission = first.storage[ADMISSION_KEY]
    assert admission != sharing.lock.code and sharing.lock.admits(admission)
    assert run(visit(kept=admission)).opened  # a reload, a new tab
    for stranger in (None, new_token(), sharing.lock.code):
        assert not run(visit(kept=stranger)).opened
    earlier_run = Sharing("http://127.0.0.1:1")
    assert not earlier_run.lock.admits(admission)


def test_the_host_sees_that_someone_is_guessing(port: int, sharing: Sharing) -> None:
    async def guess_then_look() -> Device:
        guesser = new_source()
        for _ in range(FREE_TRIES):
            async with Device(port, guesser) as device:
                await device.try_code("999999")
        async with Device(port, new_source()) as host:
            await host.try_code(sharing.lock.code)
            # The host looks at the table before tapping on: a tap on what
            # Join just drew, at once, is taken for a hurried second tap.
            await asyncio.sleep(NEW_S + SETTLE_S)
            await host.send(
                EVENT,
                {
                    "target": host.tagged["share-open"]["content"]["_i"],
                    "name": "click",
                    "data": None,
                },
            )
            await host.read_until(lambda: "share-alarm" in host.tagged)
            return host

    host = run(guess_then_look())
    assert f"{FREE_TRIES} wrong tries" in host.tagged["share-alarm"]["content"]["value"]
