"""Entry point for `flet build`: the same app the `companion` command serves."""

import flet as ft

from screens.app import ASSETS, main

if __name__ == "__main__":
    ft.run(main, assets_dir=str(ASSETS))
