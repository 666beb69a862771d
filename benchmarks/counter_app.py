"""The smallest Flet app worth timing: one button that counts its taps.

Served exactly as the table app is (web server, no CDN), so the UI benchmark
can tell Flet's own cost from the app's.
"""

from __future__ import annotations

import os
import sys

import flet as ft


def main(page: ft.Page) -> None:
    count = ft.Text("0", size=30)

    def add() -> None:
        count.value = str(int(count.value or "0") + 1)

    page.add(
        ft.Semantics(identifier="count", content=count),
        ft.Semantics(
            identifier="count-button",
            content=ft.FilledButton("Count", on_click=add, height=48),
        ),
    )


def serve(port: int) -> None:
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    print(f"counter: http://127.0.0.1:{port}", flush=True)
    ft.run(
        main,
        host="127.0.0.1",
        port=port,
        view=ft.AppView.WEB_BROWSER,
        no_cdn=True,
    )


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8551)
