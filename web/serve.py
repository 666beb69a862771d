"""Serve a built folder as any static host would, on this machine only.

``python -m web.serve [PORT]`` shows ``build/web`` at http://127.0.0.1:PORT/;
a browser runs the service worker there as it would over HTTPS. The tests
and ``make bench`` start and stop it the same way.
"""

from __future__ import annotations

import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from web.build import OUT


class QuietFiles(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticSite:
    """A folder served over HTTP on 127.0.0.1, started and stopped at will."""

    def __init__(self, folder: Path = OUT, port: int = 0) -> None:
        self.folder = folder
        self.port = port
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> StaticSite:
        handler = functools.partial(QuietFiles, directory=str(self.folder))
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        # The same port each time: the page, its worker and its kept data
        # belong to one origin.
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


def main(argv: list[str]) -> int:
    site = StaticSite(port=int(argv[0]) if argv else 8560).start()
    print(f"Curse Companion (phone build): {site.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
