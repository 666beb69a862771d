"""The web server the table is served from: Flet's app, with only what it needs.

Built here rather than by ``ft.run`` so that the server, not the browser, says
who is connecting: the peer address of each websocket is taken from the ASGI
scope and kept in a context variable for the session's code, where no message
from the device can reach it (``page.client_ip`` can be rewritten by one).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import flet as ft
import flet_web.fastapi as flet_fastapi
import uvicorn
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.sharing import UNKNOWN_ADDRESS, address_key

APP_NAME = "Curse Companion"
APP_SHORT_NAME = "Companion"
APP_DESCRIPTION = "Score keeper for curse-themed trick-taking card games"
# FastAPI's documentation and Flet's OAuth callback: nothing a table uses.
UNUSED_ROUTES = frozenset(
    {"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"}
)

_peer: ContextVar[str] = ContextVar("peer", default=UNKNOWN_ADDRESS)


def peer_address() -> str:
    """The connecting device's address as the server's socket saw it.

    Read inside a session's code (its start, its event handlers), which runs
    in tasks of that device's websocket connection.
    """
    return _peer.get()


class TableServer:
    """ASGI middleware in front of Flet's app.

    Each websocket connection runs knowing its peer address. The unused
    routes answer 404: without their handlers Flet's web files would answer
    them with the app's page, as they answer any path that looks like a route.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") in UNUSED_ROUTES:
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
            return
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = _peer.set(address_key(client[0] if client else None))
        try:
            await self.app(scope, receive, send)
        finally:
            _peer.reset(token)


def web_app(main: Callable[[ft.Page], Any], assets_dir: str) -> TableServer:
    """The ASGI app: Flet's websocket and web files, named for this app."""
    app = flet_fastapi.app(
        main,
        assets_dir=assets_dir,
        app_name=APP_NAME,
        app_short_name=APP_SHORT_NAME,
        app_description=APP_DESCRIPTION,
        no_cdn=True,
    )
    app.router.routes = [
        route
        for route in app.router.routes
        if getattr(route, "path", None) not in UNUSED_ROUTES
    ]
    app.openapi_url = app.docs_url = app.redoc_url = None
    return TableServer(app)


def server_config(
    main: Callable[[ft.Page], Any], host: str, port: int, assets_dir: str
) -> uvicorn.Config:
    """How the table is served.

    The request log stays off: a join link's token must not land in it.
    Forwarded-for headers are not believed: no proxy stands in front, and a
    device could otherwise name any address it likes.
    """
    return uvicorn.Config(
        web_app(main, assets_dir),
        host=host,
        port=port,
        ws="websockets-sansio",
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
    )


def serve_web(
    main: Callable[[ft.Page], Any], host: str, port: int, assets_dir: str
) -> None:
    """Serve until interrupted."""
    uvicorn.Server(server_config(main, host, port, assets_dir)).run()
