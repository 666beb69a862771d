"""The served table: the app from a web server, shared on the network or not.

Only the ``companion`` command serves the app; the phone build runs
``screens.app`` in the page and has neither the server nor the sharing screens.
"""

from __future__ import annotations

import importlib.util
import os

import flet as ft

from screens.app import ASSETS, start
from screens.app import main as table_app
from screens.sharing import CodeEntry, SharePage, Sharing, welcome
from screens.shell import CODE_ENTRY, SHARE, App, Factory, Screen
from screens.web import serve_web

__all__ = ["ASSETS", "main", "serve"]

_sharing: Sharing | None = None


def sharing_routes(sharing: Sharing) -> dict[str, Factory]:
    def share(app: App) -> Screen:
        return SharePage(app, sharing)

    def code_entry(app: App) -> Screen:
        return CodeEntry(app, sharing, app.open_table)

    return {SHARE: share, CODE_ENTRY: code_entry}


def main(page: ft.Page) -> None:
    sharing = _sharing
    if sharing is None:
        start(page)
        return
    app = start(page, sharing_routes(sharing), shared=True)
    if app is not None:
        welcome(app, sharing)


def serve(
    host: str = "127.0.0.1",
    port: int = 8550,
    data: str | None = None,
    desktop: bool = False,
    lan: bool = False,
) -> None:
    global _sharing
    if data:
        os.environ["COMPANION_DATA"] = data
    if desktop:
        # Left to itself Flet would pip-install its desktop client on the spot.
        if importlib.util.find_spec("flet_desktop") is None:
            raise SystemExit(
                "The desktop window needs the Flet desktop client: "
                'pip install -e ".[desktop]". Or run `companion` and open the '
                "address it prints in a browser."
            )
        ft.run(table_app, assets_dir=str(ASSETS))
        return
    # The app is served, never opened: the phone beside the table connects.
    if lan:
        _sharing = Sharing.for_port(port)
        print(_sharing.announce(), flush=True)
    else:
        print(f"Curse Companion: http://{host}:{port}", flush=True)
    serve_web(main, host, port, str(ASSETS))
